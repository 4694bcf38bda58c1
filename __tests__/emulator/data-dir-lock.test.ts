/**
 * Two emulators starting at once on a data directory whose lock holder died (issue 37 item 3): exactly
 * one takes the lock over. Eight processes wait on one start barrier (a line on their stdin, written to
 * all of them only once all eight said `ready`), then take the lock together; no sleeps. The interleaving
 * that broke the old take-over (a taker removing the lock another had just taken over) is forced through
 * the lock's test seam, so it is met every run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDirectory } from '../../src/emulator/persist/lock.js';
import { tempDir } from '../temp-dir.js';

const REPO = resolve(import.meta.dirname, '../..');
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** A lock-taker child; `lines` resolves its first n stdout lines. */
function taker(dir: string) {
  const child = spawn(
    process.execPath,
    ['--import', join(REPO, 'node_modules/tsx/dist/loader.mjs'), join(REPO, '__tests__/emulator/lock-taker.ts'), dir],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  running.add(child);
  let out = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    for (const w of waiters.splice(0)) w();
  });
  const line = (n: number) =>
    new Promise<string>((ok, fail) => {
      const check = () => {
        const lines = out.split('\n');
        if (lines.length > n + 1)
          ok(lines[n]!); // a whole line: the text after its newline follows
        else waiters.push(check);
      };
      child.once('exit', (code) => fail(new Error(`lock-taker exited (${code}): ${out}`)));
      check();
    });
  return { child, line };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('emulator --data-dir lock', () => {
  it.each([1, 2, 3])(
    '8 emulators starting at once on a dead holder’s lock: 1 takes it, 7 are refused naming it (round %i)',
    async () => {
      const dir = tempDir('docdb-lock-');
      const dead = await deadPid();
      writeFileSync(join(dir, LOCK_FILE), `${dead}\nleft by a killed emulator\n`);
      const takers = Array.from({ length: 8 }, () => taker(dir));
      expect(await Promise.all(takers.map((t) => t.line(0)))).toEqual(Array(8).fill('ready'));
      for (const t of takers) t.child.stdin!.write('go\n'); // the barrier: all released together
      const said = await Promise.all(takers.map((t) => t.line(1)));
      const winners = takers.filter((_, i) => said[i] === 'took');
      expect(winners.length, said.join('\n')).toBe(1);
      const holder = winners[0]!.child.pid;
      for (const [i, line] of said.entries()) {
        if (line === 'took') continue;
        expect(line, `taker ${i}`).toBe(`refused --data-dir ${dir} is in use by another emulator (process ${holder})`);
      }
    },
  );

  it('a taker that judged the lock dead, when another has taken it over meanwhile, is refused: it never removes a live lock', async () => {
    const dir = tempDir('docdb-lock-');
    const lock = join(dir, LOCK_FILE);
    writeFileSync(lock, `${await deadPid()}\nleft by a killed emulator\n`);
    // A live process that is not this one: the other taker, holding the lock it took over.
    const other = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    running.add(other);
    let turns = 0;
    const takeOverMeanwhile = () => {
      turns++;
      rmSync(lock);
      writeFileSync(lock, `${other.pid}\nthe other taker\n`);
    };
    expect(() => lockDirectory(dir, { beforeTakeOver: takeOverMeanwhile })).toThrow(
      `--data-dir ${dir} is in use by another emulator (process ${other.pid})`,
    );
    expect(turns).toBe(1);
    expect(readFileSync(lock, 'utf8')).toBe(`${other.pid}\nthe other taker\n`);
  });
});
