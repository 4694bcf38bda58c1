/**
 * `--history`: one `_versions` row per document version, built from the changes between consecutive commits of
 * the section — never by reading every document at every commit. The oldest commit (the section's first, or a
 * compaction root) is read whole once; after it, each commit costs `changes()` between it and the one before
 * (on the GitHub API a compare: ≤ 300 files, old blob SHAs in one GraphQL query) and its changed documents are
 * read with those of the commits around it, {@link READ_BATCH} at a time (one GraphQL query per 100).
 */
import type { HistoryEntry, RefStore } from '../../core/refstore.js';
import type { DocumentStore } from '../../document/document-store.js';
import type { DocumentChangesResult } from '../../document/document-types.js';
import { applyChanges, readEnvelopes, readsOf } from './changes.js';
import { loadVersion, type RowSink } from './rows.js';
import type { CommitRow } from './tables.js';

/** Changed documents read in one go (across commits): bounds what is held in memory. */
export const READ_BATCH = 1000;

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
  if (previous === null && first) {
    const commit = commitRow(first);
    r.sink.tables.addCommit(commit);
    const entries = r.docs.stream({ ...r.filter, version: first.version, withData: true });
    rows += await loadVersion({ ...r.sink, commit }, entries, first.version);
    r.onCommit?.(++done);
    previous = first.version;
    rest = rest.slice(1);
  }
  let pending: { entry: HistoryEntry; changes: DocumentChangesResult }[] = [];
  let reads = 0;
  const flush = async () => {
    const envelopes = await readEnvelopes(
      r.docs.store,
      pending.flatMap((p) => readsOf(p.changes)),
    );
    for (const p of pending) {
      const commit = commitRow(p.entry);
      r.sink.tables.addCommit(commit);
      const applied = await applyChanges({ ...r.sink, commit }, p.changes, envelopes);
      rows += applied.written + applied.removed;
      r.onCommit?.(++done);
    }
    pending = [];
    reads = 0;
  };
  for (const entry of rest) {
    if (previous === null) throw new Error('replayHistory: no commit to start from');
    const changes = await r.docs.changes({ ...r.filter, from: previous, to: entry.version });
    pending.push({ entry, changes });
    reads += changes.added.length + changes.modified.length;
    if (reads >= READ_BATCH) await flush();
    previous = entry.version;
  }
  await flush();
  return rows;
}
