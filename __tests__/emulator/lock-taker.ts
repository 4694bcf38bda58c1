/**
 * A child process of data-dir-lock.test.ts: prints `ready`, waits for a line on stdin (the start barrier
 * the test releases for all children at once), takes the data directory's lock (argv[2]) and prints
 * `took` or `refused <message>`; a taker holds the lock until its stdin closes.
 */
import { lockDirectory } from '../../src/emulator/persist/lock.js';

const dir = process.argv[2]!;
process.stdin.once('data', () => {
  try {
    lockDirectory(dir);
    process.stdout.write('took\n');
  } catch (e) {
    process.stdout.write(`refused ${(e as Error).message}\n`);
    process.exit(0);
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdout.write('ready\n');
