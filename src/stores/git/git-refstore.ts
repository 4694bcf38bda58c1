/**
 * GitRefStore: a RefStore on one ref of a local git repository (bare or a working clone), through
 * the git command line. Reads go through one long-lived `git cat-file --batch`; a write stores its
 * objects in one git process and moves the ref with `git update-ref <ref> <new> <old>` (the
 * compare-and-swap). The working tree, the checkout's index and HEAD are never touched.
 * See docs/git-stores.md.
 */
import { InvalidConfig } from '../../core/errors.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import { normalizeChanges } from '../../core/plan.js';
import type {
  Change,
  GetOptions,
  GetResult,
  HistoryOptions,
  HistoryResult,
  ListOptions,
  ListResult,
  RefStore,
  WriteOptions,
  WriteResult,
} from '../../core/refstore.js';
import { assertValidVersion, type VersionId } from '../../core/version.js';
import { assertMessage, type GitStoreCommonOptions, type ResolvedCommon, resolveCommon } from './options.js';
import { keyHistory, listKeys } from './read.js';
import { GitRepository, type GitRepositoryOptions } from './repository.js';
import { buildCommit, commitWithRetry } from './write.js';

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
export class GitRefStore implements RefStore {
  readonly ref: string;
  readonly dir: string;
  private readonly common: ResolvedCommon;
  private readonly repoOptions: GitRepositoryOptions;
  private opening: Promise<GitRepository> | undefined;
  private closed = false;

  constructor(options: GitRefStoreOptions & { repository?: Omit<GitRepositoryOptions, 'dir' | 'git' | 'env'> }) {
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
    this.repoOptions = {
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
    this.opening ??= GitRepository.open(this.repoOptions).catch((e) => {
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
    return { repo, version };
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

  put(key: string, value: Uint8Array | string, options?: WriteOptions): Promise<WriteResult> {
    return this.commit([{ op: 'put', key, value }], options);
  }

  delete(key: string, options?: WriteOptions): Promise<WriteResult> {
    return this.commit([{ op: 'delete', key }], options);
  }

  async commit(changes: readonly Change[], options: WriteOptions = {}): Promise<WriteResult> {
    const normalized = normalizeChanges(changes);
    assertMessage(options);
    const repo = await this.repository();
    return commitWithRetry({
      ref: this.ref,
      retry: this.common.retry,
      readTip: () => repo.resolveRef(this.ref),
      build: (tip) => buildCommit(repo, tip, normalized, this.common.identity, options.message),
      publish: (tip, commit) => repo.updateRef(this.ref, commit, tip),
    });
  }

  async history(key: string, options: HistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const repo = await this.repository();
    const tip = await repo.resolveRef(this.ref);
    if (!tip) return { entries: [], requests: 0 };
    return { entries: await keyHistory(repo, tip, key, options.limit ?? Number.POSITIVE_INFINITY), requests: 0 };
  }

  /** Stop the `cat-file` process. Idempotent; later operations reject. */
  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = undefined;
    if (opening) await (await opening.catch(() => undefined))?.close();
  }
}
