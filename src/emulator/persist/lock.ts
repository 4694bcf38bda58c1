/**
 * `DIR/lock`: one emulator per data directory (two writers would interleave their journals). The lock file
 * holds `pid\nnonce\n` and appears with its content in one step (written to a private file, then
 * `link`ed into place, which fails when the lock exists), so nobody ever reads a half-written lock.
 *
 * A lock whose process is gone (killed) is taken over, atomically even when several emulators start at
 * once: a taker first claims the dead lock by linking it to `lock.reaped-<id of its content>` — `link`
 * fails for all but one — checks that what it claimed is the lock it judged dead, and only then removes
 * it; then everyone races to `link` a new lock, and exactly one wins. The others see a live holder and are
 * refused, naming its pid.
 */
import { createHash, randomUUID } from 'node:crypto';
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidConfig } from '../../core/errors.js';

export const LOCK_FILE = 'lock';

/** Lock files this process holds (a second emulator in the same process is refused too). */
const heldHere = new Set<string>();

/** Test-only: run something between judging a lock dead and taking it over (another taker's turn). */
export interface LockSeam {
  beforeTakeOver?: (dead: string) => void;
}

/**
 * Take `dir` for this process: refused while another live process holds it; a lock left by a process
 * that is gone is taken over. Returns the release.
 *
 * @example
 * const unlock = lockDirectory('/data');
 * try { serve(); } finally { unlock(); }
 */
export function lockDirectory(dir: string, seam: LockSeam = {}): () => void {
  const lock = join(dir, LOCK_FILE);
  if (heldHere.has(lock)) throw inUse(dir, process.pid);
  const content = `${process.pid}\n${randomUUID()}\n`;
  // Each round either takes the lock, meets a live holder, or saw someone else change the lock: bounded by
  // the number of emulators starting at once.
  for (let round = 0; round < 64; round++) {
    if (create(lock, content)) {
      heldHere.add(lock);
      return () => {
        heldHere.delete(lock);
        rmSync(lock, { force: true });
      };
    }
    const seen = readLock(lock);
    if (seen === undefined) continue; // removed since: try again
    const holder = Number.parseInt(seen, 10);
    // Our own pid in a lock this process does not hold is a previous process's (pids are reused).
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) throw inUse(dir, holder);
    seam.beforeTakeOver?.(seen);
    reap(lock, seen);
  }
  throw new InvalidConfig(
    'dataDir',
    `--data-dir ${dir}: could not take its lock file ${lock} (when no emulator uses the directory, remove ${lock} and ${lock}.reaped-*)`,
    { allowed: 'a writable directory no running emulator uses' },
  );
}

/** Create the lock with its content in one step; false when it exists. */
function create(lock: string, content: string): boolean {
  const mine = `${lock}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(mine, content);
  try {
    linkSync(mine, lock);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  } finally {
    unlinkSync(mine);
  }
}

/**
 * Remove the dead lock whose content is `seen`, unless another taker claimed it first or it has been
 * replaced since (then the next round looks again).
 */
function reap(lock: string, seen: string): void {
  const claim = `${lock}.reaped-${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`;
  try {
    linkSync(lock, claim);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') return; // another taker has it, or it is gone already
    throw e;
  }
  try {
    // The claim names whatever `lock` was when linked: only the lock judged dead may be removed.
    if (readLock(claim) === seen) unlinkSync(lock);
  } finally {
    unlinkSync(claim);
  }
}

function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function inUse(dir: string, holder: number): InvalidConfig {
  return new InvalidConfig('dataDir', `--data-dir ${dir} is in use by another emulator (process ${holder})`, {
    allowed: 'a directory no running emulator uses',
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
