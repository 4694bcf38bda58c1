/**
 * GitRefStore: a RefStore on one ref of a local git repository (bare or a working clone), through
 * the git command line. Reads go through one long-lived `git cat-file --batch`; a write stores its
 * objects in one git process and moves the ref with `git update-ref <ref> <new> <old>` (the
 * compare-and-swap). The working tree, the checkout's index and HEAD are never touched.
 * See docs/git-stores.md.
 */

import { commitWithRetry } from '../../core/commit-retry.js';
import { readAt } from '../../core/derive.js';
import { InvalidConfig, InvalidVersion } from '../../core/errors.js';
import { chainTip } from '../../core/git/replacement.js';
import { diffTrees } from '../../core/git/tree-diff.js';
import { KeyWritesThroughCommit } from '../../core/key-writes.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import { prepareCommit } from '../../core/plan.js';
import {
  type Change,
  type ChangesOptions,
  type ChangesResult,
  type CommitOptions,
  type GetOptions,
  type GetResult,
  type HistoryOptions,
  type HistoryResult,
  type KeyHistoryOptions,
  keyChanges,
  type ListOptions,
  type ListResult,
  type RefStore,
  type ReplaceHistoryOptions,
  type ReplaceHistoryResult,
  type WriteResult,
} from '../../core/refstore.js';
import { compactedOrNotInSection, historyPage, notInSection, sectionLog } from '../../core/section.js';
import { assertValidVersion, checkChangesOptions, type VersionId } from '../../core/version.js';
import { type GitStoreCommonOptions, type ResolvedCommon, resolveCommon } from './options.js';
import { keyHistory, listKeys } from './read.js';
import { GitRepository, type GitRepositoryOptions } from './repository.js';
import { buildCommit, storeReplacement } from './write.js';

export interface GitRefStoreOptions extends GitStoreCommonOptions {
  /** Path of the repository: a bare repository or a working clone. It must exist. */
  dir: string;
}

/**
 * A RefStore on a local git repository.
 *
 * @example
 * import { GitRefStore } from 'docdb/node';
 * const store = new GitRefStore({ dir: '/srv/data.git', ref: 'refs/docdb/documents' });
 * const { version } = await store.put('notes/hello.txt', 'hi');
 * (await store.get('notes/hello.txt'))?.version === version; // true
 * await store.close();
 */
export class GitRefStore extends KeyWritesThroughCommit implements RefStore {
  readonly ref: string;
  readonly dir: string;
  private readonly common: ResolvedCommon;
  /** `#private`: with a remote's token it holds the askpass environment (never shown by inspecting the store). */
  readonly #repoOptions: GitRepositoryOptions;
  private opening: Promise<GitRepository> | undefined;
  private closed = false;

  constructor(options: GitRefStoreOptions & { repository?: Omit<GitRepositoryOptions, 'dir' | 'git' | 'env'> }) {
    super();
    if (!options || typeof options !== 'object') {
      throw new InvalidConfig('options', 'GitRefStore needs an options object', { allowed: '{ dir, ref }' });
    }
    if (typeof options.dir !== 'string' || options.dir === '') {
      throw new InvalidConfig('dir', 'dir must be the path of a git repository (bare or a working clone)', {
        allowed: 'a directory path',
      });
    }
    this.common = resolveCommon(options);
    this.ref = this.common.ref;
    this.dir = options.dir;
    this.#repoOptions = {
      ...options.repository,
      dir: options.dir,
      git: this.common.git,
      ...(this.common.env ? { env: this.common.env } : {}),
    };
  }

  /**
   * The opened repository (found on first use).
   * @internal shared with SubprocessGitRefStore
   */
  repository(): Promise<GitRepository> {
    if (this.closed) return Promise.reject(new InvalidConfig('store', 'this GitRefStore was closed'));
    this.opening ??= GitRepository.open(this.#repoOptions).catch((e) => {
      this.opening = undefined;
      throw e;
    });
    return this.opening;
  }

  /** Process id of the `git cat-file --batch` reader, when one runs (diagnostics). */
  async readerPid(): Promise<number | undefined> {
    return (await this.repository()).reader.pid;
  }

  async head(): Promise<VersionId | null> {
    return (await this.repository()).resolveRef(this.ref);
  }

  /** The commit to read: `version` (checked to be a commit) or the tip. */
  private async resolve(version: VersionId | undefined): Promise<{ repo: GitRepository; version: VersionId | null }> {
    if (version !== undefined) assertValidVersion(version);
    const repo = await this.repository();
    if (version === undefined) return { repo, version: await repo.resolveRef(this.ref) };
    await repo.readCommit(version);
    await this.assertInSection(repo, version, await repo.resolveRef(this.ref));
    return { repo, version };
  }

  /** Commits proven to be in the section (a positive answer never changes while the section moves forward). */
  private readonly inSection = new Set<string>();

  /** `InvalidVersion` unless `version` is reachable from `tip` (`git merge-base --is-ancestor`, one process; cached). */
  private async assertInSection(repo: GitRepository, version: VersionId, tip: VersionId | null): Promise<void> {
    if (this.inSection.has(version) || version === tip) return;
    if (tip !== null) {
      const r = await repo.run(['merge-base', '--is-ancestor', version, tip], { okCodes: [1] });
      if (r.code === 0) {
        this.inSection.add(version);
        return;
      }
    }
    const log = await sectionLog(tip, (sha) => repo.readCommit(sha), Number.POSITIVE_INFINITY);
    throw compactedOrNotInSection(version, this.ref, log);
  }

  /**
   * Keys added, changed and removed between two versions of the section (see RefStore.changes).
   *
   * @example
   * const { added, modified, removed } = await store.changes({ from: v1 }); // v1 → tip
   */
  async changes(options: ChangesOptions): Promise<ChangesResult> {
    const prefix = checkChangesOptions(options);
    const repo = await this.repository();
    const tip = await repo.resolveRef(this.ref);
    const to = options.to ?? tip;
    if (to === null) throw notInSection(options.from, this.ref);
    await repo.readCommit(options.from);
    await repo.readCommit(to);
    await this.assertInSection(repo, to, tip);
    await this.assertInSection(repo, options.from, tip);
    if (options.from !== to) {
      const r = await repo.run(['merge-base', '--is-ancestor', options.from, to], { okCodes: [1] });
      if (r.code !== 0) {
        throw new InvalidVersion(
          options.from,
          `from ${options.from} is not an ancestor of to ${to}; pass the older version as from`,
        );
      }
    }
    const d = await diffTrees(
      (await repo.readCommit(options.from)).tree,
      (await repo.readCommit(to)).tree,
      async (sha) => (await repo.readTree(sha)).entries,
      prefix,
    );
    return { from: options.from, to, ...keyChanges(d), requests: 0 };
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    const { repo, version } = await this.resolve(options.version);
    if (!version) return null;
    // `<commit>:<path>` resolves the path inside git: one read, no tree walk here.
    const o = await repo.read(`${version}:${key}`);
    if (o?.type !== 'blob') return null;
    const value = new Uint8Array(o.body.buffer, o.body.byteOffset, o.body.length);
    return { key, value, version, blobSha: o.sha, requests: 0 };
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    const { repo, version } = await this.resolve(options.version);
    if (!version) return { entries: [], version: null, requests: 0 };
    return { entries: await listKeys(repo, version, prefix), version, requests: 0 };
  }

  async commit(changes: readonly Change[], options: CommitOptions = {}): Promise<WriteResult> {
    const { changes: normalized, ifMatch } = prepareCommit(changes, options);
    const repo = await this.repository();
    return commitWithRetry({
      ref: this.ref,
      retry: this.common.retry,
      readTip: () => repo.resolveRef(this.ref),
      build: (tip, derived) =>
        buildCommit(repo, tip, [...normalized, ...derived], this.common.identity, options.message, ifMatch),
      derive: { hook: options.derive, own: normalized, read: (tip) => readAt(this, tip) },
      publish: (tip, commit) => repo.updateRef(this.ref, commit, tip),
    });
  }

  async history(key: string, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const { repo, version: start } = await this.resolve(options.cursor);
    if (!start) return { entries: [], requests: 0 };
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    // `git log <start> -- <key>`: a page starts at any commit; one entry past it says where the next starts.
    return { ...historyPage(await keyHistory(repo, start, key, limit + 1), limit), requests: 0 };
  }

  /** The section's commits, newest first (see `RefStore.commits`), read through the `cat-file` process. */
  async commits(options: HistoryOptions = {}): Promise<HistoryResult> {
    const repo = await this.repository();
    const tip = await repo.resolveRef(this.ref);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    return { entries: await sectionLog(tip ?? null, (sha) => repo.readCommit(sha), limit), requests: 0 };
  }

  /**
   * Create `commits` on `onto` and move the ref from `from` to the last of them with
   * `git update-ref <ref> <new> <from>` — git's compare-and-swap, which allows a non-fast-forward move
   * (see `RefStore.replaceHistory`; use `compactSection`).
   *
   * @example
   * const r = await store.replaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
   */
  async replaceHistory(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult> {
    const repo = await this.repository();
    const created = await storeReplacement(repo, options);
    const moved = await repo.updateRef(this.ref, chainTip(options, created), options.from);
    if (moved) this.forgetSection();
    return { created, moved, tip: await repo.resolveRef(this.ref), requests: 0 };
  }

  /**
   * Forget which commits were proven to be in the section (after history was replaced, some are not).
   * @internal shared with SubprocessGitRefStore
   */
  forgetSection(): void {
    this.inSection.clear();
  }

  /** Stop the `cat-file` process. Idempotent; later operations reject. */
  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = undefined;
    if (opening) await (await opening.catch(() => undefined))?.close();
  }
}
