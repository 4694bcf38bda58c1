/**
 * `--history`: one `_versions` row per document version, built from the changes between consecutive commits of
 * the section — never by reading every document at every commit. The oldest commit (the section's first, or a
 * compaction root) is read whole once; after it, each commit costs `changes()` between it and the one before
 * (on the GitHub API a compare: ≤ 300 files, each with its patch, and old blob SHAs in one GraphQL query). A
 * changed document is rebuilt from its row (the version before) and its patch when the result hashes to its new
 * blob SHA (changes.ts); the others are read with those of the commits around it, {@link READ_BATCH} at a time
 * (one GraphQL query per 100), and a patch that fails is read when its commit is written.
 */
import { appendAll } from '../../core/arrays.js';
import { pairId } from '../../core/read-versions.js';
import type { HistoryEntry, RefStore, VersionedRead } from '../../core/refstore.js';
import type { DocumentStore } from '../../document/document-store.js';
import type { DocumentChangesResult } from '../../document/document-types.js';
import type { Envelope } from '../../document/envelope.js';
import { readEnvelopes, readsOf } from '../read-changes.js';
import { applyChanges, rebuildFromPatches, rowIsPrevious } from './changes.js';
import { loadVersion, type RowSink } from './rows.js';
import type { CommitRow, TypeTables } from './tables.js';

/** Changed documents read in one go (across commits): bounds what is held in memory. */
export const READ_BATCH = 1000;
/** Documents one bulk read asks at once on the GitHub API (GraphQL aliases): batches are cut at its multiples. */
export const READ_UNIT = 100;

/**
 * Changed documents waiting to be read, across commits. A read takes a whole number of {@link READ_UNIT}s (the
 * rest waits for the next commits' documents), so 100 changed documents per commit cost one query per commit, not
 * one per commit plus one per batch.
 */
class ReadQueue {
  private unread: VersionedRead[] = [];
  readonly values = new Map<string, Envelope>();
  /**
   * Keys whose patch did not rebuild them once (their stored text is not what docdb writes, e.g. another tool's
   * JSON): from then on they are read with the others, in whole units, instead of one read per commit.
   */
  private readonly unpatchable = new Set<string>();
  constructor(private readonly store: RefStore) {}

  /**
   * What to read of `c`: the added or modified documents without a patch, or whose patch failed before, or whose
   * row — when no commit waiting to be written changes it (`waiting`), it is the version the patch starts from —
   * does not give the text the patch applies to (a document not stored as docdb writes it, e.g. by another tool).
   */
  readsFor(c: DocumentChangesResult, tables: TypeTables, waiting: ReadonlySet<string>): VersionedRead[] {
    for (const d of c.modified) {
      if (d.patch === undefined || waiting.has(d.key) || this.unpatchable.has(d.key)) continue;
      if (!rowIsPrevious(tables, d)) this.unpatchable.add(d.key);
    }
    return [...c.added, ...c.modified]
      .filter((d) => d.patch === undefined || this.unpatchable.has(d.key))
      .map((d) => ({ key: d.key, version: c.to }));
  }

  get waiting(): number {
    return this.unread.length;
  }

  add(reads: readonly VersionedRead[]): void {
    appendAll(this.unread, reads);
  }

  /** Read whole units of what waits (`all`: everything). */
  async read(all: boolean): Promise<void> {
    const n = all ? this.unread.length : this.unread.length - (this.unread.length % READ_UNIT);
    const now = this.unread.slice(0, n);
    this.unread = this.unread.slice(n);
    for (const [id, env] of await readEnvelopes(this.store, now)) this.values.set(id, env);
  }

  /**
   * The envelopes of `c`'s patched documents: rebuilt from `tables` (holding the version before `c.to`) and the
   * patches, and read now where that failed (a patch that does not apply, or gives other bytes).
   */
  async patched(tables: TypeTables, c: DocumentChangesResult): Promise<void> {
    const rebuilt = rebuildFromPatches(tables, c, (key) => this.values.has(pairId({ key, version: c.to })));
    for (const [id, env] of rebuilt) this.values.set(id, env);
    const failed = readsOf(c).filter((read) => !this.values.has(pairId(read)));
    for (const read of failed) this.unpatchable.add(read.key);
    for (const [id, env] of await readEnvelopes(this.store, failed)) this.values.set(id, env);
  }

  /** Whether every one of `reads` has been read. */
  has(reads: readonly VersionedRead[]): boolean {
    return reads.every((r) => this.values.has(pairId(r)));
  }

  forget(reads: readonly VersionedRead[]): void {
    for (const r of reads) this.values.delete(pairId(r));
  }
}

/** A history to replay into the tables. */
export interface Replay {
  docs: DocumentStore;
  sink: Omit<RowSink, 'commit'>;
  filter: { namespace?: string; type?: string };
  /** The section's commits to replay, oldest first. */
  commits: readonly HistoryEntry[];
  /** The commit the tables already hold (the one before `commits[0]`), or null: read `commits[0]` whole. */
  from: string | null;
  /** After each commit is written. */
  onCommit?: (n: number) => void;
}

/**
 * The section's commits, oldest first (`RefStore.commits`, on the GitHub API 1 request per 100).
 *
 * @example
 * const commits = await sectionCommits(docs.store);
 */
export async function sectionCommits(store: RefStore): Promise<HistoryEntry[]> {
  if (!store.commits) throw new Error('--history needs a store that lists the section’s commits');
  return (await store.commits()).entries.slice().reverse();
}

/** A history entry as a `commits` row (the committer's date: when it entered the section). */
export function commitRow(e: HistoryEntry): CommitRow {
  return {
    sha: e.version,
    committedAt: e.committer.date,
    message: e.message,
    author: e.author.name,
    authorEmail: e.author.email,
  };
}

/**
 * Write the versions of every commit of `r.commits` into the tables; returns the version rows written.
 *
 * @example
 * await replayHistory({ docs, sink, filter: {}, commits: await sectionCommits(docs.store), from: null });
 */
export async function replayHistory(r: Replay): Promise<number> {
  let rows = 0;
  let done = 0;
  let rest = r.commits;
  let previous = r.from;
  const first = rest[0];
  const queue = new ReadQueue(r.docs.store);
  if (previous === null && first) {
    const commit = commitRow(first);
    r.sink.tables.addCommit(commit);
    const entries = r.docs.stream({ ...r.filter, version: first.version, withData: true });
    rows += await loadVersion({ ...r.sink, commit }, entries, first.version);
    r.onCommit?.(++done);
    previous = first.version;
    rest = rest.slice(1);
  }
  const pending: { entry: HistoryEntry; changes: DocumentChangesResult; reads: VersionedRead[] }[] = [];
  // Commits are written as soon as what they need is there (`none`: read nothing first), so a patch that fails is
  // known before the next commits' documents are queued.
  const apply = async (read: 'none' | 'units' | 'all') => {
    if (read !== 'none') await queue.read(read === 'all');
    while (pending[0] && queue.has(pending[0].reads)) {
      const p = pending.shift() as (typeof pending)[number];
      const commit = commitRow(p.entry);
      r.sink.tables.addCommit(commit);
      // The tables hold the version before this commit now: rebuild from the patches, read what they could not.
      await queue.patched(r.sink.tables, p.changes);
      const applied = await applyChanges({ ...r.sink, commit }, p.changes, queue.values);
      queue.forget(readsOf(p.changes));
      rows += applied.written + applied.removed;
      r.onCommit?.(++done);
    }
  };
  for (const entry of rest) {
    if (previous === null) throw new Error('replayHistory: no commit to start from');
    const changes = await r.docs.changes({ ...r.filter, from: previous, to: entry.version, withPatches: true });
    const waiting = new Set(pending.flatMap((p) => [...p.changes.added, ...p.changes.modified].map((d) => d.key)));
    const reads = queue.readsFor(changes, r.sink.tables, waiting);
    pending.push({ entry, changes, reads });
    queue.add(reads);
    await apply(queue.waiting >= READ_BATCH ? 'units' : 'none');
    previous = entry.version;
  }
  await apply('all');
  return rows;
}
