/**
 * `docdb emulator --data-dir DIR` / `startEmulator({ dataDir })`: repositories, refs and objects kept
 * across restarts in one append-only journal, `DIR/journal.docdb` (record format: ./journal.ts).
 *
 * - At start the seed is applied as always (accounts, tokens, issues… come from it each time, and its
 *   repositories and commits are deterministic), then the journal is replayed on top: repositories created
 *   later, every object written since (content-addressed: its SHA is recomputed from its bytes), every
 *   ref change, in the order they happened. The journal's first record names the seed it grew from; a
 *   different seed is refused rather than replayed onto commits it does not have.
 * - While serving, every new object and ref change is appended as it happens (before the request that
 *   made it answers), and `flush()` — called after each request, before its response is sent — fsyncs
 *   the file: a write that was acknowledged is on disk.
 * - A kill at any point leaves whole records followed by at most one torn record: replay drops the torn
 *   tail (and cuts it off the file), so the state is the one after the last whole record — objects always
 *   precede the refs that point at them, so every ref replayed points at a complete commit.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { InvalidConfig } from '../../core/errors.js';
import type { ObjectDbChange } from '../../core/git/object-db.js';
import type { ObjectType } from '../../core/git/objects.js';
import type { RepoRecord } from '../model.js';
import type { EmulatorState } from '../state.js';
import { decodeRecords, encodeRecord, type JournalRecord } from './journal.js';

export const JOURNAL_FILE = 'journal.docdb';
/** Holds the pid of the emulator using the directory: two writers would interleave their journals. */
export const LOCK_FILE = 'lock';

/** An open data directory: flush after each request, close when the emulator stops. */
export interface DataDir {
  /** Records replayed at start, and bytes of a torn tail dropped (0 after a clean stop). */
  readonly replayed: { records: number; droppedBytes: number };
  /** Journal repositories created since the last flush, then fsync what was appended. */
  flush(): void;
  /** Flush, stop journaling, close the file. */
  close(): void;
}

/**
 * Replay `dir`'s journal into `state` (seeded with the seed `seedKey` identifies), then journal every
 * change of it from now on.
 *
 * @example
 * const data = openDataDir(app.state, '.docdb-emulator', seedKey);
 * // after each request: data.flush(); when stopping: data.close();
 */
export function openDataDir(state: EmulatorState, dir: string, seedKey: string): DataDir {
  mkdirSync(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  try {
    return journal(state, dir, seedKey, unlock);
  } catch (e) {
    unlock();
    throw e;
  }
}

function journal(state: EmulatorState, dir: string, seedKey: string, unlock: () => void): DataDir {
  const file = join(dir, JOURNAL_FILE);
  const fresh = !existsSync(file);
  const replayed = fresh ? { records: 0, droppedBytes: 0 } : replay(state, file, dir, seedKey);
  const fd = openSync(file, 'a');
  let dirty = false;
  const append = (record: JournalRecord) => {
    const bytes = encodeRecord(record);
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    dirty = true;
  };
  if (fresh || replayed.records === 0) append({ meta: { k: 'seed', key: seedKey } });
  const watched = new Set<RepoRecord>();
  const watch = (repo: RepoRecord) => {
    watched.add(repo);
    repo.db.observe((change) => append(changeRecord(repo.fullName, change)));
  };
  for (const repo of state.listRepos()) watch(repo);
  const flush = () => {
    for (const repo of state.listRepos()) {
      if (watched.has(repo)) continue;
      for (const record of snapshot(repo)) append(record);
      watch(repo);
    }
    if (!dirty) return;
    fsyncSync(fd);
    dirty = false;
  };
  flush();
  if (fresh) syncDirectory(dir); // the new file's directory entry, too
  return {
    replayed,
    flush,
    close: () => {
      flush();
      for (const repo of watched) repo.db.observe(undefined);
      closeSync(fd);
      unlock();
    },
  };
}

/** Apply the journal's whole records to `state`; cut a torn tail off the file. */
function replay(
  state: EmulatorState,
  file: string,
  dir: string,
  seedKey: string,
): { records: number; droppedBytes: number } {
  const bytes = readFileSync(file);
  const { records, whole } = decodeRecords(bytes);
  const first = records[0]?.meta;
  if (first && (first.k !== 'seed' || first.key !== seedKey)) {
    throw new InvalidConfig(
      'dataDir',
      `--data-dir ${dir} holds the data of an emulator started with another seed; start it with the same --seed, or give another --data-dir`,
      { allowed: 'the seed the data directory was created with' },
    );
  }
  for (const record of records.slice(1)) apply(state, record, file);
  if (whole < bytes.length) {
    truncateSync(file, whole);
    const fd = openSync(file, 'r+');
    fsyncSync(fd);
    closeSync(fd);
  }
  return { records: records.length, droppedBytes: bytes.length - whole };
}

function apply(state: EmulatorState, { meta, body }: JournalRecord, file: string): void {
  const repoName = String(meta.repo);
  if (meta.k === 'repo') {
    if (!state.findRepo(repoName)) state.createRepo(repoName, { ...(meta.options as object), empty: true });
    return;
  }
  const repo = state.findRepo(repoName);
  if (!repo) throw corrupt(file, `a record of unknown repository ${repoName}`);
  if (meta.k === 'object') {
    const sha = repo.db.put(meta.type as ObjectType, body ?? new Uint8Array(0), true);
    if (sha !== meta.sha) throw corrupt(file, `object ${String(meta.sha)} hashes to ${sha}`);
  } else if (meta.k === 'ref') {
    const name = String(meta.name);
    const sha = typeof meta.sha === 'string' ? meta.sha : null;
    if (sha !== null && repo.db.typeOf(sha) === undefined) throw corrupt(file, `ref ${name} names missing ${sha}`);
    repo.db.compareAndSwapRef(name, repo.db.readRef(name) ?? null, sha);
  }
}

function corrupt(file: string, what: string): InvalidConfig {
  return new InvalidConfig('dataDir', `${file} is not a journal this emulator can replay: ${what}`, {
    allowed: 'a data directory written by docdb emulator --data-dir',
  });
}

function changeRecord(repo: string, change: ObjectDbChange): JournalRecord {
  if (change.kind === 'ref') return { meta: { k: 'ref', repo, name: change.name, sha: change.sha } };
  return { meta: { k: 'object', repo, sha: change.sha, type: change.type }, body: change.body };
}

/** A repository created since the last flush: its record, its objects, then its refs. */
function* snapshot(repo: RepoRecord): Generator<JournalRecord> {
  const options = {
    private: repo.private,
    description: repo.description,
    defaultBranch: repo.defaultBranch,
    topics: repo.topics,
    archived: repo.archived,
    fork: repo.fork,
    createdAt: repo.createdAt,
    ownerType: repo.owner.type,
  };
  yield { meta: { k: 'repo', repo: repo.fullName, options } };
  for (const sha of repo.db.objectIds()) {
    const o = repo.db.get(sha);
    if (o) yield changeRecord(repo.fullName, { kind: 'object', sha, type: o.type, body: o.body });
  }
  for (const { ref, sha } of repo.db.listRefs()) yield changeRecord(repo.fullName, { kind: 'ref', name: ref, sha });
}

/**
 * Take `dir` for this process: refused while another live process holds it; a lock left by a process
 * that is gone (killed) is taken over. Returns the release.
 */
function lockDirectory(dir: string): () => void {
  const lock = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      if (heldHere.has(lock)) throw Object.assign(new Error('held'), { code: 'EEXIST' });
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      heldHere.add(lock);
      return () => {
        heldHere.delete(lock);
        rmSync(lock, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    if (heldHere.has(lock) || (Number.isInteger(holder) && holder !== process.pid && alive(holder))) {
      throw new InvalidConfig('dataDir', `--data-dir ${dir} is in use by another emulator (process ${holder})`, {
        allowed: 'a directory no running emulator uses',
      });
    }
    rmSync(lock, { force: true }); // its process is gone: take it over
  }
  throw new InvalidConfig('dataDir', `--data-dir ${dir}: could not take its lock file`, {
    allowed: 'a writable directory',
  });
}

/** Lock files this process holds (a second emulator in the same process is refused too). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
