/**
 * The RefStore interface: a versioned key-value store on one git ref. Every backend (memory,
 * remote GitHub API, local git, IndexedDB) implements it and passes the one contract suite in
 * `__tests__/contract/`.
 */

/** A commit SHA on the section ref (validated by `assertValidVersion` in version.ts). */
export type VersionId = string;

/** Rate-limit state from the upstream's last response (`x-ratelimit-*` headers). */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  reset: number;
  used: number;
  resource: string;
}

/** Fields every operation result carries. */
export interface OperationMeta {
  /** Rate limit from the last upstream response, when the backend talks to one. */
  rateLimit?: RateLimit;
  /** Upstream requests this operation made (0 for local backends). */
  requests?: number;
}

export interface GetOptions {
  /** Read at this commit of the section ref instead of the tip. */
  version?: VersionId;
}

export interface GetResult extends OperationMeta {
  key: string;
  value: Uint8Array;
  /** Commit the value was read at. */
  version: VersionId;
  /**
   * Git blob SHA of `value`: the key's "etag". Pass it as `ifMatch` to a later write to make that
   * write fail with `PreconditionFailed` if someone else changed the key in between.
   */
  blobSha: string;
}

export interface ListOptions {
  /** Only keys starting with this string (a directory prefix should end in "/"). */
  prefix?: string;
  version?: VersionId;
  /**
   * A hint: the caller reads the values of the listed keys next (`readMany` at the listed version). A store
   * may read them along with the listing — the GitHub API store with an archive reader reads the commit's
   * archive first, whose tree, checked against the commit's, is the listing — or ignore it (the others do).
   */
  withValues?: boolean;
}

export interface ListEntry {
  key: string;
  blobSha: string;
}

export interface ListResult extends OperationMeta {
  /** Keys in ascending code-unit order. */
  entries: ListEntry[];
  /** Commit listed, or null when the section does not exist yet. */
  version: VersionId | null;
}

/** One change in an atomic multi-key write. */
export type Change = { op: 'put'; key: string; value: Uint8Array | string } | { op: 'delete'; key: string };

export interface WriteOptions {
  /** Commit message (a default naming the keys is used otherwise). */
  message?: string;
}

/**
 * Compare-and-set expectation for one key: the blob SHA the key must have at the tip the write lands
 * on (its `blobSha` from `get`/`list`), or `null` for "the key must be absent" (create only).
 */
export type IfMatch = string | null;

/** Options of `put` and `delete`. */
export interface KeyWriteOptions extends WriteOptions {
  /**
   * Write only if the key is still in this state (checked again on every rebase onto a moved tip);
   * otherwise throw `PreconditionFailed` and write nothing. Omit for an unconditional write.
   */
  ifMatch?: IfMatch;
  /** Changes derived from the tip the write lands on, as {@link CommitOptions.derive}. */
  derive?: DeriveChanges;
}

/** Options of `commit`. */
export interface CommitOptions extends WriteOptions {
  /**
   * Per-key expectations (keys must be keys of this commit's changes). If any key does not match at
   * the tip the commit lands on, the whole commit fails with `PreconditionFailed` and nothing is written.
   */
  ifMatch?: Readonly<Record<string, IfMatch>>;
  /**
   * Changes that depend on the tip the commit lands on (a section's index files): called once per
   * attempt, on the tip that attempt builds on, and its changes join that attempt's commit. After a lost
   * race the store calls it again on the new tip — derived changes are recomputed, never rebased. Its keys
   * must differ from the commit's own keys. An error it throws ends the write with nothing written.
   */
  derive?: DeriveChanges;
}

/** What a {@link DeriveChanges} hook sees: the tip one attempt of a write builds on. */
export interface DeriveBase {
  /** The tip this attempt builds on (null: the section does not exist yet). */
  version: VersionId | null;
  /**
   * Values at that tip, each key once (null: absent), read the cheapest way the store has (its cached
   * trees first; the GitHub API store batches keys in few requests).
   */
  read(keys: readonly string[]): Promise<Map<string, DerivedRead | null>>;
  /** The blob SHA the write itself puts at `key` (undefined: a delete, or not a key of the write). */
  written(key: string): string | undefined;
}

/** One value a derive hook read at the attempt's tip. */
export interface DerivedRead {
  value: Uint8Array;
  blobSha: string;
}

/**
 * Compute the changes that must land in the same commit as a write, from the tip it builds on.
 *
 * @example
 * await store.commit(changes, { derive: async ({ read }) => ((await read(['count.txt'])).get('count.txt') ? [] : [{ op: 'put', key: 'count.txt', value: '1' }]) });
 */
export type DeriveChanges = (base: DeriveBase) => Promise<readonly Change[]>;

/**
 * The changes of ONE commit given in parts over time (pages of a source, slices of a large batch):
 * arrays of changes, sync or async. A key may appear in only one part.
 */
export type ChangeParts = AsyncIterable<readonly Change[]> | Iterable<readonly Change[]>;

/** Options of `commitParts` (no `ifMatch`: compare-and-set writes use `commit`). */
export interface CommitPartsOptions {
  /**
   * Commit message, or a function called once after the last part (when the message summarises what the
   * parts held). Default: a message naming the keys, as `commit`'s.
   */
  message?: string | (() => string);
  /**
   * As {@link CommitOptions.derive}: called once every part has arrived (and again after a lost race),
   * on the tip the commit builds on; its changes join the commit.
   */
  derive?: DeriveChanges;
}

export interface ChangesOptions {
  /** The older version (a commit of the section). */
  from: VersionId;
  /** The newer version (a commit of the section; default: the tip). */
  to?: VersionId;
  /** Only keys starting with this string. */
  prefix?: string;
  /**
   * Also hand over the unified diff of each changed key where the store has one for free (`ChangedKey.patch`: the
   * GitHub API store's compare answer carries them). Default false: results stay small.
   */
  withPatches?: boolean;
}

/** One key that differs between two versions. */
export interface ChangedKey {
  key: string;
  /** Blob SHA at `to` (absent for removed keys). */
  blobSha?: string;
  /** Blob SHA at `from` (absent for added keys). */
  previousBlobSha?: string;
  /**
   * With `withPatches`: the unified diff from the value at `from` (empty for an added key) to the value at `to`,
   * as GitHub's compare gives it (`files[].patch`: git's hunks, no header lines; src/core/patch-apply.ts applies
   * it). Absent when the store has none (GitHub omits it for large and binary files). Untrusted: use what it
   * rebuilds only when that hashes to `blobSha`.
   */
  patch?: string;
}

export interface ChangesResult extends OperationMeta {
  from: VersionId;
  /** The version compared against (the tip when `to` was not given). */
  to: VersionId;
  /** Keys present at `to` but not at `from`, ascending code-unit order. */
  added: ChangedKey[];
  /** Keys present at both with different blobs (the word the CLI's JSON and the Action's outputs use). */
  modified: ChangedKey[];
  /**
   * The same list as {@link ChangesResult.modified}.
   *
   * @deprecated Use `modified`: `changed` is a yes/no everywhere else (`WriteResult.changed`, the Action's
   * `changed` output); this alias stays until the next major version.
   */
  changed: ChangedKey[];
  /** Keys present at `from` but not at `to`. */
  removed: ChangedKey[];
}

/**
 * The key lists of a {@link ChangesResult} from a diff, `modified` and its deprecated alias `changed` the
 * same list: every store builds its result through this, so no store can return one without the other.
 *
 * @example
 * return { from, to, ...keyChanges(diff), requests: 0 };
 */
export function keyChanges(d: {
  added: ChangedKey[];
  changed: ChangedKey[];
  removed: ChangedKey[];
}): Pick<ChangesResult, 'added' | 'modified' | 'changed' | 'removed'> {
  return { added: d.added, modified: d.changed, changed: d.changed, removed: d.removed };
}

export interface WriteResult extends OperationMeta {
  /** Section tip after the write (unchanged when nothing changed; null if the section still does not exist). */
  version: VersionId | null;
  /** Tip before the write. */
  previousVersion: VersionId | null;
  /** True when a commit was made. */
  changed: boolean;
  /** Keys whose content was added or changed by the commit. */
  written: string[];
  /** Keys removed by the commit. */
  deleted: string[];
  /** Changes that were no-ops (identical content, or delete of an absent key). */
  unchanged: number;
}

export interface HistoryOptions {
  /** At most this many entries (default: all). */
  limit?: number;
}

/** `history(key)` options: `limit` and, to read the next page, the `cursor` the page before returned. */
export interface KeyHistoryOptions extends HistoryOptions {
  /**
   * Start the walk at this commit of the section (inclusive) instead of the tip: pass the `nextCursor` of
   * the page before to read the next `limit` entries (a version that is not a commit of the section is
   * `InvalidVersion`). Every store starts a walk at any commit cheaply (GitHub: `GET /commits?sha=`), so
   * page N costs what page 1 does (remote: 1 request per 100 entries).
   */
  cursor?: VersionId;
}

export interface Person {
  name: string;
  email: string;
  /** ISO-8601. */
  date: string;
}

export interface HistoryEntry {
  version: VersionId;
  message: string;
  author: Person;
  committer: Person;
  parents: VersionId[];
  /** The commit's tree SHA (given by `commits()`; what a compaction re-creates commits with). */
  tree?: string;
}

export interface HistoryResult extends OperationMeta {
  /** Commits on the section ref that changed the key, newest first. */
  entries: HistoryEntry[];
  /**
   * Present when the history ends at a compaction root (docs/retention.md): the key's older versions were
   * removed by a compaction; this is the root commit (its last entry).
   */
  compactedAt?: VersionId;
  /**
   * `history(key)` with `limit`: present when older entries remain — pass it as `cursor` for the next page
   * (absent on the last page; `commits()` does not page).
   */
  nextCursor?: VersionId;
}

export interface ReadManyOptions {
  /** Read at this commit of the section instead of the tip. */
  version?: VersionId;
  /**
   * Called once when every value has been read, with what the whole read cost (upstream `requests`,
   * `rateLimit`): the items of an async iterable have no result object of their own to carry it.
   */
  onMeta?: (meta: OperationMeta) => void;
  /**
   * A hint for a read at the tip (ignored with `version`): the caller waits on this read before its next one,
   * so the store should spend the fewest round trips, not the fewest bytes. The GitHub API store with a token
   * then reads the ref's tip and the values in ONE GraphQL query (the files of the commit it names, so still one
   * version) unless its cache already holds every value at the tip it knew (then its conditional ref read, a
   * 304, settles the read as before); other stores read as usual (the tip, then the values).
   */
  fewestRounds?: boolean;
  /**
   * With `fewestRounds` at the tip: the caller will next read, at the version this read names, the files
   * `names` of (some of) the directories directly under `under` — directories it cannot name yet (a search
   * without `type`: every type's `manifest.json` and `delta.txt` under `_docdb/search/<namespace>`). The GitHub
   * API store with a token reads them in the SAME query into its cache (at most 100 directories, 4 MiB; exact
   * text only), so that next read costs no request; other stores ignore it. Never changes this read's items.
   */
  childFiles?: { under: string; names: readonly string[] };
}

/** One key of a bulk read: its value at the version read, or null when absent. */
export interface ReadManyItem {
  key: string;
  value: Uint8Array | null;
  blobSha: string | null;
  /** The commit every item of the read was read at (null: the section does not exist). */
  version: VersionId | null;
}

/** One (key, version) pair of {@link RefStore.readVersions}: a key read at one commit of the section. */
export interface VersionedRead {
  key: string;
  version: VersionId;
}

export interface ReadVersionsOptions {
  /**
   * Many pairs are expected to share a blob (a file unchanged across versions): ask each pair's blob SHA
   * first, then read each distinct blob once. Default false: the values come with the answer (fewest requests).
   */
  sharedBlobs?: boolean;
  /** Called once when every pair has been read, with what the whole read cost (`requests`, `rateLimit`). */
  onMeta?: (meta: OperationMeta) => void;
}

/** One pair of a {@link RefStore.readVersions}: the key's value at that version, or null when absent there. */
export interface VersionedItem {
  key: string;
  version: VersionId;
  value: Uint8Array | null;
  blobSha: string | null;
}

/** One commit of a replacement history (compaction): created on the commit before it. */
export interface ReplacementCommit {
  /** A tree the store already holds (a kept version's tree). */
  tree: string;
  message: string;
  author: Person;
  committer: Person;
}

export interface ReplaceHistoryOptions {
  /** The tip the replacement was computed from: the ref moves only while it is still there (compare-and-swap). */
  from: VersionId;
  /** The commit the first replacement is created on; null makes the first a root commit (no parent). */
  onto: VersionId | null;
  /** The commits to create, oldest first (may be empty only with `onto`: the ref then moves to `onto`). */
  commits: readonly ReplacementCommit[];
  /**
   * Awaited before each content-creating request to a host (each commit, the ref move on GitHub; the push
   * of a git remote): how a compaction paces itself within the host's limits (GitHub: 80 a minute, 500 an
   * hour). Local stores (memory, a local repository, IndexedDB) send no request and do not call it.
   */
  pace?: () => Promise<void>;
  /**
   * Called as each commit exists upstream, oldest first (GitHub: once `POST /git/commits` answered). A
   * compaction stopped by a rate limit midway goes on after the last one, creating none twice. Stores that
   * create the commits in one step need not call it.
   */
  onCreated?: (sha: VersionId) => void;
}

export interface ReplaceHistoryResult extends OperationMeta {
  /** The commits created, oldest first, each on the one before it (the first on `onto`). */
  created: VersionId[];
  /** True: the ref moved from `from` to the last created commit. False: it was not at `from`; it did not move. */
  moved: boolean;
  /** Where the ref is: the last created commit when moved, else wherever another writer left it. */
  tip: VersionId | null;
}

/** A versioned key-value store on one git ref. */
export interface RefStore {
  /** Full ref name, e.g. `refs/docdb/documents`. */
  readonly ref: string;
  /** Value at the tip (or at `version`); `null` when absent. */
  get(key: string, options?: GetOptions): Promise<GetResult | null>;
  put(key: string, value: Uint8Array | string, options?: KeyWriteOptions): Promise<WriteResult>;
  /** Deleting an absent key is a no-op (no commit). */
  delete(key: string, options?: KeyWriteOptions): Promise<WriteResult>;
  /** Atomic multi-key write: one commit for all changes, or none when nothing changes. */
  commit(changes: readonly Change[], options?: CommitOptions): Promise<WriteResult>;
  /**
   * Optional: the same one commit as `commit` of every part's changes, holding only one part (and the
   * keys with their blob SHAs) in memory — a store that implements it uploads each part as it arrives.
   * Call it through `commitInParts(store, parts)`, which falls back to `commit` for stores without it.
   */
  commitParts?(parts: ChangeParts, options?: CommitPartsOptions): Promise<WriteResult>;
  /**
   * Keys added, changed and removed between two versions of the section, walking only the subtrees
   * whose SHAs differ. Both versions must be commits of the section (`InvalidVersion` otherwise).
   */
  changes(options: ChangesOptions): Promise<ChangesResult>;
  list(options?: ListOptions): Promise<ListResult>;
  history(key: string, options?: KeyHistoryOptions): Promise<HistoryResult>;
  /**
   * Optional: the commits of the section (every commit reachable from its tip), newest first, at most
   * `limit` — what `resolveVersion` searches for an abbreviated version. A store without it takes
   * full 40-character versions only. Empty when the section does not exist.
   */
  commits?(options?: HistoryOptions): Promise<HistoryResult>;
  /** Current tip commit, or null when the section ref does not exist. */
  head(): Promise<VersionId | null>;
  /**
   * Optional: the values of many keys at ONE version, each key once, in no particular order (a store reads
   * them the cheapest way it has: GitHub's archive, batched GraphQL, its cache). Call it through
   * `readManyFrom(store, keys)`, which falls back to one `get` per key at one version.
   */
  readMany?(keys: readonly string[], options?: ReadManyOptions): AsyncIterable<ReadManyItem>;
  /**
   * Optional: the value of each (key, version) pair — one document across its versions, an index file at
   * many section versions — in the order asked, each version a commit of the section (`InvalidVersion`
   * otherwise). A store reads them the cheapest way it has (the GitHub API store: GraphQL aliases, 100
   * pairs a query). Call it through `readVersionsFrom(store, reads)`, which falls back to one pinned `get` each.
   */
  readVersions?(reads: readonly VersionedRead[], options?: ReadVersionsOptions): Promise<VersionedItem[]>;
  /**
   * Optional (compaction, docs/retention.md): create `commits` on `onto` and move the ref from `from` to the
   * last of them — a compare-and-swap that allows a non-fast-forward move. Nothing moves unless the ref is
   * still at `from` (`moved: false` and the tip then). A store that cannot compare refuses (throws); it never
   * forces blindly. Call it through `compactSection(store, policy)`.
   */
  replaceHistory?(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult>;
}
