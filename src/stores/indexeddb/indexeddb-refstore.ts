/**
 * IndexedDbRefStore: a RefStore persisted in IndexedDB with the real git object model. Commits, trees
 * and blobs are stored as their git bodies, keyed by SHA, in one object store per kind; the section
 * ref lives in `refs`. Reads are lazy (ref → commit → the tree levels on the key's path → blob, one
 * small read each), so one document is read without loading the database into memory.
 *
 * Writes follow the same plan as every store (core/plan.ts): read the tip and the tree levels on the
 * changed paths, build the new trees and commit with core/git (ObjectDb as a scratch overlay), then
 * write the new objects and move the ref in ONE readwrite transaction that first checks the ref still
 * equals the tip read (compare-and-swap). IndexedDB serialises overlapping readwrite transactions, so
 * two tabs writing at once cannot both win; the loser re-plans on the new tip, like a remote writer
 * losing a fast-forward race.
 */
import { resolveWriteRetry, type WriteRetryOptions, type WriteRetryPolicy } from '../../core/backoff.js';
import { commitWithRetry } from '../../core/commit-retry.js';
import { readAt } from '../../core/derive.js';
import { InvalidVersion } from '../../core/errors.js';
import { buildCommit } from '../../core/git/build-commit.js';
import { ObjectDb } from '../../core/git/object-db.js';
import {
  decodeCommit,
  decodeTree,
  type ObjectType,
  type Signature,
  signatureDate,
  type TreeEntry,
} from '../../core/git/objects.js';
import { chainTip, checkReplaceHistory, replacementObjects } from '../../core/git/replacement.js';
import { diffTrees } from '../../core/git/tree-diff.js';
import { KeyWritesThroughCommit } from '../../core/key-writes.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import { prepareCommit } from '../../core/plan.js';
import { assertValidRefName } from '../../core/refname.js';
import {
  type Change,
  type ChangesOptions,
  type ChangesResult,
  type CommitOptions,
  type GetOptions,
  type GetResult,
  type HistoryEntry,
  type HistoryOptions,
  type HistoryResult,
  type KeyHistoryOptions,
  keyChanges,
  type ListEntry,
  type ListOptions,
  type ListResult,
  type Person,
  type RefStore,
  type ReplaceHistoryOptions,
  type ReplaceHistoryResult,
  type WriteResult,
} from '../../core/refstore.js';
import { compactedOrNotInSection, historyPage, isInSection, notInSection, sectionLog } from '../../core/section.js';
import { assertValidVersion, checkChangesOptions, type VersionId } from '../../core/version.js';
import { DEFAULT_AUTHOR } from '../memory/memory-refstore.js';
import {
  type DatabaseSource,
  lazyDatabase,
  type ObjectKind,
  ownBytes,
  readMany,
  STORES,
  transactionDone,
} from './database.js';

/** Retries after losing the ref compare-and-swap to another tab follow the shared policy (src/core/backoff.ts). */
export interface IndexedDbRefStoreOptions extends DatabaseSource, WriteRetryOptions {
  /** Section ref (default `refs/docdb/documents`). */
  ref?: string;
  /** Author/committer identity for commits. */
  author?: { name: string; email: string };
  /** Clock in milliseconds (inject for deterministic SHAs in tests). */
  now?: () => number;
}

const KIND_STORE: Record<ObjectType, ObjectKind> = { commit: 'commits', tree: 'trees', blob: 'blobs' };

function person(s: Signature): Person {
  return { name: s.name, email: s.email, date: signatureDate(s) };
}

function byCodeUnit(a: ListEntry, b: ListEntry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Tree levels read during one operation, decoded once. */
type TreeMemo = Map<string, TreeEntry[]>;

/**
 * A persistent RefStore in the browser (page, worker, extension service worker).
 *
 * @example
 * const store = new IndexedDbRefStore({ name: 'my-app', ref: 'refs/docdb/documents' });
 * await store.put('notes/hello.txt', 'hi');
 * (await store.get('notes/hello.txt'))?.value; // Uint8Array of "hi", also after a reload
 */
export class IndexedDbRefStore extends KeyWritesThroughCommit implements RefStore {
  readonly ref: string;
  private readonly author: { name: string; email: string };
  private readonly now: () => number;
  private readonly retry: WriteRetryPolicy;
  /** The database, opened on first use (so constructing a store touches no platform global). */
  readonly database: () => Promise<IDBDatabase>;
  private readonly ownsDatabase: boolean;

  constructor(options: IndexedDbRefStoreOptions = {}) {
    super();
    this.ref = options.ref ?? 'refs/docdb/documents';
    assertValidRefName(this.ref);
    this.author = options.author ?? DEFAULT_AUTHOR;
    this.now = options.now ?? Date.now;
    this.retry = resolveWriteRetry(options);
    this.database = lazyDatabase(options);
    this.ownsDatabase = options.database === undefined;
  }

  /** Close the connection this store opened (a shared `database` is left to its owner). */
  async close(): Promise<void> {
    if (this.ownsDatabase) (await this.database()).close();
  }

  // ---------------------------------------------------------------- object reads

  private async readRef(db: IDBDatabase): Promise<VersionId | null> {
    const m = await readMany<string>(db, STORES.refs, [this.ref]);
    return m.get(this.ref) ?? null;
  }

  private async commitFields(db: IDBDatabase, sha: string) {
    const body = (await readMany<Uint8Array>(db, STORES.commits, [sha])).get(sha);
    if (!body) throw new InvalidVersion(sha, `version ${sha} is not a commit in this store`);
    return decodeCommit(body);
  }

  /** Decoded tree levels for `shas` (from the memo, else one read transaction for all misses). */
  private async trees(db: IDBDatabase, shas: readonly string[], memo: TreeMemo): Promise<void> {
    const missing = shas.filter((s) => !memo.has(s));
    const read = await readMany<Uint8Array>(db, STORES.trees, missing);
    for (const sha of missing) {
      const body = read.get(sha);
      if (!body) throw new Error(`IndexedDB store is missing tree ${sha} (database damaged or cleared)`);
      memo.set(sha, decodeTree(body));
    }
  }

  /** The entry at `path` below `root`, reading only the levels on the path. */
  private async entryAt(db: IDBDatabase, root: string, path: string, memo: TreeMemo): Promise<TreeEntry | undefined> {
    let current: TreeEntry = { mode: '040000', name: '', sha: root };
    for (const seg of path.split('/')) {
      if (current.mode !== '040000') return undefined;
      await this.trees(db, [current.sha], memo);
      const next = memo.get(current.sha)?.find((e) => e.name === seg);
      if (!next) return undefined;
      current = next;
    }
    return current;
  }

  private async resolve(db: IDBDatabase, version: VersionId | undefined): Promise<VersionId | null> {
    if (version === undefined) return this.readRef(db);
    assertValidVersion(version);
    await this.commitFields(db, version);
    await this.assertInSection(db, version, await this.readRef(db));
    return version;
  }

  /** Commits proven to be in the section (positive answers are cached: commits are immutable). */
  private readonly inSection = new Set<string>();

  /** `InvalidVersion` unless `version` is reachable from `tip` (a walk over parents, one read per commit). */
  private async assertInSection(db: IDBDatabase, version: VersionId, tip: VersionId | null): Promise<void> {
    const parents = async (sha: string) => (await this.commitFields(db, sha)).parents;
    if (!(await isInSection(version, tip, parents, this.inSection))) {
      const log = await sectionLog(tip, (sha) => this.commitFields(db, sha), Number.POSITIVE_INFINITY);
      throw compactedOrNotInSection(version, this.ref, log);
    }
  }

  /**
   * Keys added, changed and removed between two versions of the section (see RefStore.changes).
   *
   * @example
   * const { added, modified, removed } = await store.changes({ from: v1 }); // v1 → tip
   */
  async changes(options: ChangesOptions): Promise<ChangesResult> {
    const prefix = checkChangesOptions(options);
    const db = await this.database();
    const to = await this.resolve(db, options.to);
    if (to === null) throw notInSection(options.from, this.ref);
    const from = (await this.resolve(db, options.from)) as VersionId;
    if (!(await isInSection(from, to, async (sha) => (await this.commitFields(db, sha)).parents))) {
      throw new InvalidVersion(from, `from ${from} is not an ancestor of to ${to}; pass the older version as from`);
    }
    const memo: TreeMemo = new Map();
    const level = async (sha: string) => {
      await this.trees(db, [sha], memo);
      return memo.get(sha) ?? [];
    };
    const d = await diffTrees(
      (await this.commitFields(db, from)).tree,
      (await this.commitFields(db, to)).tree,
      level,
      prefix,
    );
    return { from, to, ...keyChanges(d), requests: 0 };
  }

  // ---------------------------------------------------------------- RefStore reads

  async head(): Promise<VersionId | null> {
    return this.readRef(await this.database());
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    if (options.version !== undefined) assertValidVersion(options.version);
    const db = await this.database();
    const version = await this.resolve(db, options.version);
    if (!version) return null;
    const { tree } = await this.commitFields(db, version);
    const entry = await this.entryAt(db, tree, key, new Map());
    if (!entry || entry.mode === '040000' || entry.mode === '160000') return null;
    const value = (await readMany<Uint8Array>(db, STORES.blobs, [entry.sha])).get(entry.sha);
    if (!value) throw new Error(`IndexedDB store is missing blob ${entry.sha} (database damaged or cleared)`);
    return { key, value, version, blobSha: entry.sha, requests: 0 };
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    if (options.version !== undefined) assertValidVersion(options.version);
    const db = await this.database();
    const version = await this.resolve(db, options.version);
    if (!version) return { entries: [], version: null, requests: 0 };
    const entries: ListEntry[] = [];
    const memo: TreeMemo = new Map();
    // Breadth first, one read transaction per level; directories outside the prefix are never read.
    let level: { dir: string; sha: string }[] = [{ dir: '', sha: (await this.commitFields(db, version)).tree }];
    while (level.length > 0) {
      await this.trees(
        db,
        level.map((l) => l.sha),
        memo,
      );
      const next: typeof level = [];
      for (const { dir, sha } of level) {
        for (const e of memo.get(sha) ?? []) {
          const path = dir + e.name;
          if (e.mode === '040000') {
            const d = `${path}/`;
            if (d.startsWith(prefix) || prefix.startsWith(d)) next.push({ dir: d, sha: e.sha });
          } else if (e.mode !== '160000' && path.startsWith(prefix)) {
            entries.push({ key: path, blobSha: e.sha });
          }
        }
      }
      level = next;
    }
    return { entries: entries.sort(byCodeUnit), version, requests: 0 };
  }

  async history(key: string, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const db = await this.database();
    const memo: TreeMemo = new Map();
    const blobAt = async (tree: string) => {
      const e = await this.entryAt(db, tree, key, memo);
      return e && e.mode !== '040000' ? e.sha : undefined;
    };
    const entries: HistoryEntry[] = [];
    let sha = await this.resolve(db, options.cursor);
    let commit = sha ? await this.commitFields(db, sha) : undefined;
    let here = commit ? await blobAt(commit.tree) : undefined;
    // First-parent walk, like `git log --first-parent -- <key>` on a linear section history; one entry
    // past the page tells whether there is a next page, and where it starts.
    while (sha && commit && entries.length <= limit) {
      const parentSha: string | undefined = commit.parents[0];
      const parent = parentSha ? await this.commitFields(db, parentSha) : undefined;
      const before = parent ? await blobAt(parent.tree) : undefined;
      if (here !== before) {
        entries.push({
          version: sha,
          message: commit.message,
          author: person(commit.author),
          committer: person(commit.committer),
          parents: commit.parents,
        });
      }
      sha = parentSha ?? null;
      commit = parent;
      here = before;
    }
    return { ...historyPage(entries, limit), requests: 0 };
  }

  /** The section's commits, newest first (see `RefStore.commits`). */
  async commits(options: HistoryOptions = {}): Promise<HistoryResult> {
    const db = await this.database();
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    return {
      entries: await sectionLog(await this.readRef(db), (sha) => this.commitFields(db, sha), limit),
      requests: 0,
    };
  }

  // ---------------------------------------------------------------- writes

  /**
   * Create `commits` on `onto` and move the ref from `from` to the last of them in ONE readwrite transaction
   * that first checks the ref still equals `from` (see `RefStore.replaceHistory`; use `compactSection`).
   *
   * @example
   * const r = await store.replaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
   */
  async replaceHistory(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult> {
    checkReplaceHistory(options);
    const db = await this.database();
    if (options.onto !== null) await this.commitFields(db, options.onto);
    const trees = [...new Set(options.commits.map((c) => c.tree))];
    const found = await readMany<Uint8Array>(db, STORES.trees, trees);
    const missing = trees.find((t) => !found.has(t));
    if (missing) throw new InvalidVersion(missing, `${missing} is not a tree of this store`);
    const overlay = new ObjectDb();
    const chain = replacementObjects(options);
    for (const o of chain) overlay.put('commit', o.body);
    const created = chain.map((o) => o.sha);
    const moved = await this.compareAndSwap(db, options.from, chainTip(options, created), overlay, created);
    if (moved) this.inSection.clear();
    // Kept even when the ref moved elsewhere: a compaction continues on them (`onto`).
    else await this.storeCommits(db, chain);
    return { created, moved, tip: await this.readRef(db), requests: 0 };
  }

  async commit(changes: readonly Change[], options: CommitOptions = {}): Promise<WriteResult> {
    const { changes: normalized, ifMatch } = prepareCommit(changes, options);
    const db = await this.database();
    // The objects of the attempt being published (the retry loop builds, then publishes, in turn).
    let attempt: { overlay: ObjectDb; fresh: string[] } | undefined;
    return commitWithRetry({
      ref: this.ref,
      retry: this.retry,
      readTip: () => this.readRef(db),
      build: async (tip, derived) => {
        const built = await this.buildOn(db, tip, [...normalized, ...derived], options.message, ifMatch);
        attempt = built;
        return built;
      },
      derive: { hook: options.derive, own: normalized, read: (tip) => readAt(this, tip) },
      publish: (tip, commit) => this.compareAndSwap(db, tip, commit, attempt!.overlay, attempt!.fresh),
    });
  }

  /** Plan and build the change on `tip` in a scratch ObjectDb holding only the tree levels on its paths. */
  private async buildOn(
    db: IDBDatabase,
    tip: string | null,
    changes: ReturnType<typeof prepareCommit>['changes'],
    message: string | undefined,
    ifMatch: ReadonlyMap<string, string | null> | undefined,
  ) {
    const baseTree = tip ? (await this.commitFields(db, tip)).tree : null;
    const overlay = await this.loadPaths(
      db,
      baseTree,
      changes.map((c) => c.key),
    );
    const loaded = new Set(overlay.objectIds());
    const at = (p: string) => (baseTree ? overlay.lookupPath(baseTree, p) : undefined);
    const built = buildCommit(overlay, {
      changes,
      tip,
      baseTree,
      base: {
        isFile: (p) => {
          const e = at(p);
          return e !== undefined && e.mode !== '040000';
        },
        isDir: (p) => at(p)?.mode === '040000',
        blobSha: (key) => {
          const e = at(key);
          return e && e.mode !== '040000' ? e.sha : undefined;
        },
      },
      author: this.author,
      now: this.now(),
      message,
      ...(ifMatch ? { ifMatch } : {}),
    });
    const fresh = [...overlay.objectIds()].filter((sha) => !loaded.has(sha));
    return { plan: built.plan, commit: built.commit, overlay, fresh };
  }

  /**
   * A scratch ObjectDb holding the tree levels on the paths of `keys` below `baseTree` (every
   * directory a key passes through, one read transaction per depth): enough for lookups, conflict
   * checks and `applyTreeChanges`, which only opens trees on changed paths.
   */
  private async loadPaths(db: IDBDatabase, baseTree: string | null, keys: readonly string[]): Promise<ObjectDb> {
    const overlay = new ObjectDb();
    if (!baseTree) return overlay;
    const dirsOf = keys.map((k) => k.split('/').slice(0, -1));
    // Frontier: directory path → tree SHA, starting at the root.
    let frontier = new Map<string, string>([['', baseTree]]);
    for (let depth = 0; frontier.size > 0; depth++) {
      const read = await readMany<Uint8Array>(db, STORES.trees, [...frontier.values()]);
      const next = new Map<string, string>();
      for (const [dir, sha] of frontier) {
        const body = read.get(sha);
        if (!body) throw new Error(`IndexedDB store is missing tree ${sha} (database damaged or cleared)`);
        overlay.put('tree', body);
        const entries = new Map(decodeTree(body).map((e) => [e.name, e]));
        for (const segs of dirsOf) {
          if (segs.length <= depth || segs.slice(0, depth).join('/') !== dir) continue;
          const child = entries.get(segs[depth] as string);
          const childDir = segs.slice(0, depth + 1).join('/');
          if (child?.mode === '040000' && !next.has(childDir)) next.set(childDir, child.sha);
        }
      }
      frontier = next;
    }
    return overlay;
  }

  /** Store commit objects alone (no ref change). */
  private storeCommits(db: IDBDatabase, chain: readonly { sha: string; body: Uint8Array }[]): Promise<void> {
    const tx = db.transaction([STORES.commits], 'readwrite');
    for (const o of chain) tx.objectStore(STORES.commits).put(ownBytes(o.body), o.sha);
    return transactionDone(tx);
  }

  /**
   * In one readwrite transaction: if the ref still equals `expected`, store the new objects and move
   * the ref to `commit`; otherwise abort, writing nothing. No await happens inside the transaction.
   */
  private compareAndSwap(
    db: IDBDatabase,
    expected: string | null,
    commit: string,
    overlay: ObjectDb,
    fresh: readonly string[],
  ): Promise<boolean> {
    const tx = db.transaction([STORES.refs, STORES.commits, STORES.trees, STORES.blobs], 'readwrite');
    const refs = tx.objectStore(STORES.refs);
    let lost = false;
    const r = refs.get(this.ref);
    r.onsuccess = () => {
      const current = (r.result as string | undefined) ?? null;
      if (current !== expected) {
        lost = true;
        tx.abort();
        return;
      }
      for (const sha of fresh) {
        const o = overlay.get(sha);
        // `sha` is the object's own hash: ObjectDb.put computed it from these bytes.
        if (o) tx.objectStore(KIND_STORE[o.type]).put(ownBytes(o.body), sha);
      }
      refs.put(commit, this.ref);
    };
    return transactionDone(tx).then(
      () => true,
      (e) => {
        if (lost) return false;
        throw e;
      },
    );
  }
}
