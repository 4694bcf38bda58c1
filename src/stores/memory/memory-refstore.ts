/**
 * MemoryRefStore: a real versioned store on the in-memory git object database. Every write is a
 * commit with a real SHA on the section ref; several instances may share one ObjectDb (sections of
 * one "repository", or concurrent writers on one section).
 */

import { derivedChanges, readAt } from '../../core/derive.js';
import { InvalidVersion } from '../../core/errors.js';
import { buildCommit } from '../../core/git/build-commit.js';
import { ObjectDb } from '../../core/git/object-db.js';
import { type Signature, signatureDate } from '../../core/git/objects.js';
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

export interface MemoryRefStoreOptions {
  /** Object database to use (share one between instances to model one repository). */
  db?: ObjectDb;
  /** Section ref (default `refs/docdb/documents`). */
  ref?: string;
  /** Author/committer identity for commits. */
  author?: { name: string; email: string };
  /** Clock in milliseconds (inject for deterministic SHAs in tests). */
  now?: () => number;
}

export const DEFAULT_AUTHOR = { name: 'docdb', email: 'docdb@users.noreply.github.com' };

function person(s: Signature): Person {
  return { name: s.name, email: s.email, date: signatureDate(s) };
}

/**
 * A volatile in-memory RefStore.
 *
 * @example
 * const store = new MemoryRefStore();
 * const { version } = await store.put('notes/hello.txt', 'hi');
 * (await store.get('notes/hello.txt'))?.value; // Uint8Array of "hi"
 */
export class MemoryRefStore extends KeyWritesThroughCommit implements RefStore {
  readonly ref: string;
  readonly db: ObjectDb;
  private readonly author: { name: string; email: string };
  private readonly now: () => number;

  constructor(options: MemoryRefStoreOptions = {}) {
    super();
    this.ref = options.ref ?? 'refs/docdb/documents';
    assertValidRefName(this.ref);
    this.db = options.db ?? new ObjectDb();
    this.author = options.author ?? DEFAULT_AUTHOR;
    this.now = options.now ?? Date.now;
  }

  async head(): Promise<VersionId | null> {
    return this.db.readRef(this.ref) ?? null;
  }

  private treeOf(version: VersionId): string {
    if (this.db.typeOf(version) !== 'commit') {
      throw new InvalidVersion(version, `version ${version} is not a commit in this store`);
    }
    return this.db.getCommit(version).tree;
  }

  /** Commits proven to be in the section (immutable, so a positive answer is cached). */
  private readonly inSection = new Set<string>();

  private resolve(version: VersionId | undefined): VersionId | null {
    if (version !== undefined) {
      assertValidVersion(version);
      this.treeOf(version);
      const tip = this.db.readRef(this.ref) ?? null;
      if (!this.inSection.has(version)) {
        if (!tip || !this.db.isAncestor(version, tip)) throw compactedOrNotInSection(version, this.ref, this.log(tip));
        this.inSection.add(version);
      }
      return version;
    }
    return this.db.readRef(this.ref) ?? null;
  }

  /** The first-parent chain from `tip`, newest first (for the not-in-section error only). */
  private log(tip: string | null): { version: string; message: string }[] {
    const out: { version: string; message: string }[] = [];
    for (let sha = tip ?? undefined; sha; sha = this.db.getCommit(sha).parents[0]) {
      out.push({ version: sha, message: this.db.getCommit(sha).message });
    }
    return out;
  }

  async changes(options: ChangesOptions): Promise<ChangesResult> {
    const prefix = checkChangesOptions(options);
    const to = this.resolve(options.to);
    if (to === null) throw notInSection(options.from, this.ref);
    const from = this.resolve(options.from) as VersionId;
    // "from" must come before "to": a newer `from` would report the change backwards.
    if (!(await isInSection(from, to, (sha) => this.db.getCommit(sha).parents))) {
      throw new InvalidVersion(from, `from ${from} is not an ancestor of to ${to}; pass the older version as from`);
    }
    const d = await diffTrees(this.treeOf(from), this.treeOf(to), (sha) => this.db.getTree(sha), prefix);
    return { from, to, ...keyChanges(d), requests: 0 };
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    const version = this.resolve(options.version);
    if (!version) return null;
    const entry = this.db.lookupPath(this.treeOf(version), key);
    if (!entry || entry.mode === '040000') return null;
    return { key, value: this.db.getBlob(entry.sha).slice(), version, blobSha: entry.sha, requests: 0 };
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    const version = this.resolve(options.version);
    if (!version) return { entries: [], version: null, requests: 0 };
    const entries = this.db
      .flattenTree(this.treeOf(version))
      .filter((e) => e.type === 'blob' && e.path.startsWith(prefix))
      .map((e) => ({ key: e.path, blobSha: e.sha }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { entries, version, requests: 0 };
  }

  async commit(changes: readonly Change[], options: CommitOptions = {}): Promise<WriteResult> {
    const { changes: normalized, ifMatch } = prepareCommit(changes, options);
    for (;;) {
      const tip = this.db.readRef(this.ref) ?? null;
      // Derived changes are computed on the tip (awaiting: another writer may move it meanwhile, and
      // then they are computed again on the new tip); the build after them is synchronous.
      const derived = await derivedChanges(options.derive, normalized, tip, readAt(this, tip));
      if ((this.db.readRef(this.ref) ?? null) !== tip) continue;
      return this.commitOn(tip, [...normalized, ...derived], options.message, ifMatch);
    }
  }

  /** Build and publish the change on `tip` synchronously: no other writer in this process interleaves. */
  private commitOn(
    tip: string | null,
    normalized: ReturnType<typeof prepareCommit>['changes'],
    message: string | undefined,
    ifMatch: ReturnType<typeof prepareCommit>['ifMatch'],
  ): WriteResult {
    const baseTree = tip ? this.treeOf(tip) : null;
    // One flatten per write instead of one tree walk per key: a batch of N keys into a directory of
    // M keys would otherwise decode that directory N times (O(N·M)).
    const files = new Map<string, string>();
    const dirs = new Set<string>();
    if (baseTree) {
      for (const e of this.db.flattenTree(baseTree, { includeTrees: true })) {
        if (e.type === 'tree') dirs.add(e.path);
        else files.set(e.path, e.sha);
      }
    }
    const built = buildCommit(this.db, {
      changes: normalized,
      tip,
      baseTree,
      base: { isFile: (p) => files.has(p), isDir: (p) => dirs.has(p), blobSha: (k) => files.get(k) },
      author: this.author,
      now: this.now(),
      message,
      ...(ifMatch ? { ifMatch } : {}),
    });
    if (built.commit && !this.db.compareAndSwapRef(this.ref, tip, built.commit))
      throw new Error('unreachable: ref moved during a synchronous write');
    return built.result;
  }

  async history(key: string, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const entries: HistoryEntry[] = [];
    // One entry past the page tells whether there is a next page, and where it starts.
    let sha = this.resolve(options.cursor) ?? undefined;
    const blobAt = (tree: string) => {
      const e = this.db.lookupPath(tree, key);
      return e && e.mode !== '040000' ? e.sha : undefined;
    };
    // First-parent walk, like `git log --first-parent -- <key>` on a linear section history.
    while (sha && entries.length <= limit) {
      const c = this.db.getCommit(sha);
      const parent = c.parents[0];
      const before = parent ? blobAt(this.db.getCommit(parent).tree) : undefined;
      if (blobAt(c.tree) !== before) {
        entries.push({
          version: sha,
          message: c.message,
          author: person(c.author),
          committer: person(c.committer),
          parents: c.parents,
        });
      }
      sha = parent;
    }
    return { ...historyPage(entries, limit), requests: 0 };
  }

  /**
   * Create `commits` on `onto` and move the ref from `from` to the last of them, forced, compare-and-swap
   * (see `RefStore.replaceHistory`; use `compactSection`).
   *
   * @example
   * const r = await store.replaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
   * r.moved; // false when another writer moved the ref meanwhile
   */
  async replaceHistory(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult> {
    checkReplaceHistory(options);
    for (const sha of [options.onto, ...options.commits.map((c) => c.tree)]) {
      if (sha !== null && !this.db.has(sha)) throw new InvalidVersion(sha, `${sha} is not an object of this store`);
    }
    const chain = replacementObjects(options);
    for (const o of chain) this.db.put('commit', o.body);
    const created = chain.map((o) => o.sha);
    const moved = this.db.compareAndSwapRef(this.ref, options.from, chainTip(options, created));
    // Commits cut off the section are no longer in it: forget every positive answer.
    if (moved) this.inSection.clear();
    return { created, moved, tip: this.db.readRef(this.ref) ?? null, requests: 0 };
  }

  /** The section's commits, newest first (see `RefStore.commits`). */
  async commits(options: HistoryOptions = {}): Promise<HistoryResult> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const entries = await sectionLog(this.db.readRef(this.ref) ?? null, (sha) => this.db.getCommit(sha), limit);
    return { entries, requests: 0 };
  }
}
