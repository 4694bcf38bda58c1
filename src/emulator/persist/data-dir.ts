/**
 * `docdb emulator --data-dir DIR` / `startEmulator({ dataDir })`: repositories, refs and objects kept
 * across restarts in one append-only journal, `DIR/journal.docdb` (record format: ./journal.ts).
 *
 * - At start the seed is applied as always (accounts, tokens, issues… come from it each time, and its
 *   repositories and commits are deterministic), then the journal is replayed on top: repositories created
 *   later, every object written since (content-addressed: its SHA is recomputed from its bytes), every
 *   ref change, in the order they happened. The journal's first record names the seed it grew from; a
 *   different seed is refused rather than replayed onto commits it does not have.
 * - While serving, every new object and ref change is appended just before it is made in memory (before
 *   the request that made it answers), and `flush()` — called after each request, before its response is
 *   sent — fsyncs the file: a write that was acknowledged is on disk. An append that fails part-way is cut
 *   back and fails its request with a 500, the change unmade (./journal-file.ts); a journal that cannot be
 *   cut back stops, and every write is then answered 503.
 * - A kill at any point leaves whole records followed by at most one torn (incomplete) record: replay
 *   drops it (and cuts it off the file), so the state is the one after the last whole record — objects
 *   always precede the refs that point at them, so every ref replayed points at a complete commit.
 * - A corrupt record (it fails its checksum, or whole records follow a bad one) is not a torn write: the
 *   start is refused, naming the file, byte offset and record number, unless `repair` is set — then the
 *   records before it are kept and it and the rest are moved to `journal.docdb.damaged` (never deleted).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { InvalidConfig } from '../../core/errors.js';
import type { ObjectDbChange } from '../../core/git/object-db.js';
import type { ObjectType } from '../../core/git/objects.js';
import { ApiError } from '../http.js';
import type { RepoRecord } from '../model.js';
import type { EmulatorState } from '../state.js';
import { decodeRecords, type JournalDamage, type JournalRecord } from './journal.js';
import { type JournalFs, openJournalFile } from './journal-file.js';
import { lockDirectory } from './lock.js';

export { LOCK_FILE } from './lock.js';
export const JOURNAL_FILE = 'journal.docdb';

/** What the start found in the journal. */
export interface DataDirReplay {
  /** Whole records replayed. */
  records: number;
  /** Bytes of a torn last record dropped (an append a kill cut short); 0 after a clean stop. */
  droppedBytes: number;
  /** With `repair`: where the records from a corrupt one on were moved, and how many bytes. */
  moved?: { file: string; bytes: number; offset: number; record: number };
}

/** An open data directory: flush after each request, close when the emulator stops. */
export interface DataDir {
  readonly replayed: DataDirReplay;
  /** Why the journal takes no more writes (a failed append it could not cut back, a failed fsync). */
  readonly stopped: string | undefined;
  /** Journal repositories created since the last flush, then fsync what was appended. */
  flush(): void;
  /** Flush, stop journaling, close the file. */
  close(): void;
}

export interface DataDirOptions {
  /** Keep the records before a corrupt one and move it and the rest to a side file (`--data-dir-repair`). */
  repair?: boolean;
  /** The journal's file operations (tests inject failing writes). */
  fs?: JournalFs;
  /** Where a journal failure is said (default: stderr). */
  log?: (line: string) => void;
}

/**
 * Replay `dir`'s journal into `state` (seeded with the seed `seedKey` identifies), then journal every
 * change of it from now on.
 *
 * @example
 * const data = openDataDir(app.state, '.docdb-emulator', seedKey);
 * // after each request: data.flush(); when stopping: data.close();
 */
export function openDataDir(state: EmulatorState, dir: string, seedKey: string, options: DataDirOptions = {}): DataDir {
  mkdirSync(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  try {
    return journal(state, dir, seedKey, unlock, options);
  } catch (e) {
    unlock();
    throw e;
  }
}

function journal(
  state: EmulatorState,
  dir: string,
  seedKey: string,
  unlock: () => void,
  options: DataDirOptions,
): DataDir {
  const file = join(dir, JOURNAL_FILE);
  const fresh = !existsSync(file);
  const replayed = fresh ? { records: 0, droppedBytes: 0 } : replay(state, file, dir, seedKey, options.repair);
  const out = openJournalFile(file, options.fs, options.log);
  if (replayed.records === 0) out.append([{ meta: { k: 'seed', key: seedKey } }]);
  const watched = new Set<RepoRecord>();
  const watch = (repo: RepoRecord) => {
    watched.add(repo);
    // Called before the change is made in memory: a failed append leaves memory as the journal has it.
    repo.db.observe((change) => out.append([changeRecord(repo.fullName, change)]));
  };
  for (const repo of state.listRepos()) watch(repo);
  const flush = () => {
    for (const repo of state.listRepos()) {
      if (watched.has(repo)) continue;
      out.append(snapshot(repo)); // all of the repository or none of it (then again at the next flush)
      watch(repo);
    }
    out.sync();
  };
  flush();
  if (fresh) syncDirectory(dir); // the new file's directory entry, too
  return {
    replayed,
    get stopped() {
      return out.stopped;
    },
    flush,
    close: () => {
      try {
        flush();
      } catch (e) {
        // Already said (./journal-file.ts); what was not journaled was never acknowledged.
        if (!(e instanceof ApiError)) throw e;
      } finally {
        for (const repo of watched) repo.db.observe(undefined);
        out.close();
        unlock();
      }
    },
  };
}

/** Apply the journal's whole records to `state`; cut a torn tail off the file; refuse (or repair) corruption. */
function replay(state: EmulatorState, file: string, dir: string, seedKey: string, repair = false): DataDirReplay {
  const bytes = readFileSync(file);
  const { records, whole, damage } = decodeRecords(bytes);
  if (damage?.kind === 'corrupt' && !repair) throw corruptRecord(file, dir, damage, bytes.length);
  const first = records[0]?.meta;
  if (first && (first.k !== 'seed' || first.key !== seedKey)) {
    throw new InvalidConfig(
      'dataDir',
      `--data-dir ${dir} holds the data of an emulator started with another seed; start it with the same --seed, or give another --data-dir`,
      { allowed: 'the seed the data directory was created with' },
    );
  }
  for (const record of records.slice(1)) apply(state, record, file);
  const result: DataDirReplay = { records: records.length, droppedBytes: 0 };
  if (damage?.kind === 'corrupt') {
    result.moved = {
      file: moveAside(file, bytes.subarray(whole)),
      bytes: bytes.length - whole,
      offset: whole,
      record: damage.record,
    };
  } else if (damage) {
    result.droppedBytes = bytes.length - whole;
  }
  if (whole < bytes.length) cutTo(file, whole);
  return result;
}

/** The refusal for a corrupt record: which file, where, which record, and how to go on. */
function corruptRecord(file: string, dir: string, damage: JournalDamage, size: number): InvalidConfig {
  return new InvalidConfig(
    'dataDir',
    `${file} is corrupt at byte ${damage.offset}, record ${damage.record} (${damage.why}), with ${size - damage.offset} bytes from there on; ` +
      `${wholeBefore(damage.record - 1)} before it ${damage.record === 2 ? 'is' : 'are'} whole. This is not a torn last write, so nothing is dropped: ` +
      `start with --data-dir ${dir} --data-dir-repair to keep the records before it and move it and the rest to a side file (nothing is deleted)`,
    { allowed: 'a journal whose records all pass their checksum, or --data-dir-repair' },
  );
}

function wholeBefore(n: number): string {
  return n === 1 ? 'the 1 record' : `the ${n} records`;
}

/** Save `tail` as a new side file next to `file` (fsync'd, with its directory entry); returns its path. */
function moveAside(file: string, tail: Uint8Array): string {
  for (let n = 0; ; n++) {
    const side = `${file}.damaged${n === 0 ? '' : `-${n}`}`;
    try {
      writeFileSync(side, tail, { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    fsyncPath(side, 'r');
    fsyncPath(join(file, '..'), 'r');
    return side;
  }
}

/** Cut `file` to `length` bytes, on disk. */
function cutTo(file: string, length: number): void {
  truncateSync(file, length);
  fsyncPath(file, 'r+');
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

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDirectory(dir: string): void {
  fsyncPath(dir, 'r');
}
