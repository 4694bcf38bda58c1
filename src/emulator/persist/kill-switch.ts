/**
 * Test-only: `DOCDB_EMULATOR_KILL_AT_JOURNAL_BYTE=N` makes the emulator SIGKILL itself the moment its
 * journal file reaches N bytes — a kill in the middle of an append, at exactly that byte, or right after
 * a record when N is where one ends. The SIGKILL tests (__tests__/emulator/data-dir-kill.test.ts) use it to
 * kill a `docdb emulator` process while it journals a write, which a signal sent from outside cannot aim.
 */
import { fstatSync } from 'node:fs';
import { type JournalFs, NODE_JOURNAL_FS } from './journal-file.js';

export const KILL_AT_JOURNAL_BYTE = 'DOCDB_EMULATOR_KILL_AT_JOURNAL_BYTE';

/**
 * The journal's file operations, with the kill switch when the environment sets it.
 *
 * @example
 * openDataDir(state, dir, key, { fs: journalFsFromEnv(process.env) });
 */
export function journalFsFromEnv(env: Record<string, string | undefined>): JournalFs | undefined {
  const at = env[KILL_AT_JOURNAL_BYTE];
  if (at === undefined || !/^\d+$/.test(at)) return undefined;
  const killAt = Number(at);
  return {
    ...NODE_JOURNAL_FS,
    writeSync(fd, buffer, offset, length) {
      const size = fstatSync(fd).size;
      if (size + length < killAt) return NODE_JOURNAL_FS.writeSync(fd, buffer, offset, length);
      const n = size < killAt ? NODE_JOURNAL_FS.writeSync(fd, buffer, offset, killAt - size) : 0;
      process.kill(process.pid, 'SIGKILL');
      return n;
    },
  };
}
