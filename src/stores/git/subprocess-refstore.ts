/**
 * SubprocessGitRefStore: the section on any git remote (file://, ssh, https; a GitHub Enterprise
 * Server with the API off; other hosts), for environments without API access. It keeps a cache
 * repository: every read is one `git fetch` of the section ref (protocol v2 ref prefixes: it is the tip
 * check too, and downloads objects only when the tip moved; see remote.ts for why not `ls-remote`),
 * then reads through GitRefStore; writes commit on the fetched tip and push with
 * `--force-with-lease=<ref>:<expected>`, rebasing the same change onto the new tip after a lost race.
 * See docs/git-stores.md.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { commitWithRetry } from '../../core/commit-retry.js';
import { readAt } from '../../core/derive.js';
import { InvalidConfig, InvalidVersion } from '../../core/errors.js';
import { chainTip } from '../../core/git/replacement.js';
import { KeyWritesThroughCommit } from '../../core/key-writes.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import { prepareCommit } from '../../core/plan.js';
import type {
  Change,
  ChangesOptions,
  ChangesResult,
  CommitOptions,
  GetOptions,
  GetResult,
  HistoryOptions,
  HistoryResult,
  KeyHistoryOptions,
  ListOptions,
  ListResult,
  RefStore,
  ReplaceHistoryOptions,
  ReplaceHistoryResult,
  WriteResult,
} from '../../core/refstore.js';
import { assertValidVersion, checkChangesOptions, type VersionId } from '../../core/version.js';
import type { RemoteApiLogEvent } from '../remote-api/index.js';
import { gitEnvironment, redact, runGit } from './git-command.js';
import { GitRefStore } from './git-refstore.js';
import { type GitStoreCommonOptions, resolveCommon } from './options.js';
import {
  ambiguousRef,
  askpassPath,
  askpassSetup,
  assertValidRemote,
  DEFAULT_GIT_USERNAME,
  RemoteSection,
  type SectionState,
  writeAskpass,
} from './remote.js';
import type { GitRepository } from './repository.js';
import { buildCommit, storeReplacement } from './write.js';

export interface SubprocessGitRefStoreOptions extends GitStoreCommonOptions {
  /** The remote: `https://host/owner/repo.git`, `ssh://…`, `git@host:owner/repo.git`, `file://…` or a path. */
  remote: string;
  /**
   * Cache repository (created as a bare repository when missing). Default:
   * `$XDG_CACHE_HOME/docdb/git/<hash of remote>.git` (`~/.cache/…`).
   */
  dir?: string;
  /**
   * Token for https remotes, handed to git only through `GIT_ASKPASS` in its environment (never on a
   * command line); with a token, git's credential helpers are not asked and store nothing.
   * Without one, git's own credential helpers / `GIT_ASKPASS` / ssh keys are used.
   */
  token?: string;
  /** Username answered with the token (default `x-access-token`). */
  username?: string;
  /** Allow a token over plain http to a non-loopback host (default false). */
  allowInsecureHttp?: boolean;
  /** Diagnostics (fetches, pushes, retries). Never receives a token. */
  logger?: (event: RemoteApiLogEvent) => void;
}

/** Default cache repository for a remote. */
export function defaultCacheDir(remote: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'docdb', 'git', `${createHash('sha1').update(remote).digest('hex').slice(0, 16)}.git`);
}

/**
 * A RefStore on a git remote, through the git command line and a local cache repository.
 *
 * @example
 * import { SubprocessGitRefStore } from 'docdb/node';
 * const store = new SubprocessGitRefStore({ remote: 'https://ghe.example.com/org/data.git', token: process.env.GHE_TOKEN });
 * await store.put('notes/hello.txt', 'hi'); // fetch if needed, commit, push --force-with-lease
 * await store.close();
 */
export class SubprocessGitRefStore extends KeyWritesThroughCommit implements RefStore {
  readonly ref: string;
  readonly remote: string;
  /** The cache repository. */
  readonly dir: string;
  /** The store on the cache repository (a new one after the cache was dropped: a closed one stays closed). */
  private inner: GitRefStore;
  private readonly newInner: () => GitRefStore;
  private readonly common: ReturnType<typeof resolveCommon>;
  /** The token, when given (`#private`: never shown by inspecting the store). */
  readonly #secrets: string[];
  private readonly logger: ((event: RemoteApiLogEvent) => void) | undefined;
  private ready: Promise<{ repo: GitRepository; remote: RemoteSection }> | undefined;
  /**
   * True from creating the cache directory until its first fetch succeeds: a first fetch that fails
   * (no such remote, an unreachable host, refused credentials) removes it again.
   */
  private createdCache = false;
  /** The GIT_ASKPASS script, when a token is given. */
  private readonly askpass: string | undefined;

  constructor(options: SubprocessGitRefStoreOptions) {
    super();
    if (!options || typeof options !== 'object') {
      throw new InvalidConfig('options', 'SubprocessGitRefStore needs an options object', { allowed: '{ remote }' });
    }
    if (options.token !== undefined && (typeof options.token !== 'string' || !/^[\x21-\x7e]+$/.test(options.token))) {
      throw new InvalidConfig('token', 'token must be a non-empty string of printable ASCII (value not shown)', {
        allowed: 'a token',
      });
    }
    this.remote = assertValidRemote(options.remote, options);
    this.common = resolveCommon(options);
    this.ref = this.common.ref;
    if (options.dir !== undefined && (typeof options.dir !== 'string' || options.dir === '')) {
      throw new InvalidConfig('dir', 'dir must be a directory path for the cache repository', { allowed: 'a path' });
    }
    this.dir = resolve(options.dir ?? defaultCacheDir(this.remote, options.env ?? process.env));
    this.#secrets = options.token ? [options.token] : [];
    this.logger = options.logger;
    this.askpass = options.token ? askpassPath(this.dir) : undefined;
    const creds = askpassSetup(options.token, options.username ?? DEFAULT_GIT_USERNAME, this.askpass ?? '');
    this.newInner = () =>
      new GitRefStore({
        ...options,
        dir: this.dir,
        repository: { config: creds.config, extraEnv: creds.env, secrets: this.#secrets },
      });
    this.inner = this.newInner();
  }

  private log(level: RemoteApiLogEvent['level'], message: string, data: Record<string, unknown> = {}): void {
    this.logger?.({ level, message: redact(message, this.#secrets), data: { remote: this.safeRemote, ...data } });
  }

  private get safeRemote(): string {
    return redact(this.remote, this.#secrets);
  }

  /** Create the cache repository when missing, then open it. */
  private open(): Promise<{ repo: GitRepository; remote: RemoteSection }> {
    this.ready ??= (async () => {
      if (!existsSync(this.dir) || readdirSync(this.dir).length === 0) {
        this.createdCache = !existsSync(this.dir);
        mkdirSync(this.dir, { recursive: true });
        const command = { git: this.common.git, globalArgs: [], env: gitEnvironment(this.common.env), secrets: [] };
        await runGit(command, ['init', '-q', '--bare', this.dir]);
      }
      const repo = await this.inner.repository();
      if (this.askpass) writeAskpass(this.askpass);
      return { repo, remote: new RemoteSection(repo, this.remote, this.ref, this.#secrets) };
    })().catch((e) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  /**
   * Bring the cache's section ref to the remote tip with one `git fetch` (remote.ts: protocol v2 ref
   * prefixes, objects only when the tip moved). Returns the tip and the refs shadowing it for a push.
   */
  private async syncState(): Promise<SectionState> {
    const { remote } = await this.open();
    this.log('debug', `fetching ${this.ref}`, { ref: this.ref });
    try {
      const state = await remote.fetchSection();
      this.createdCache = false; // it holds this remote's section now: a later failure keeps it
      return state;
    } catch (e) {
      // A remote that is missing or cannot be reached leaves behind no cache repository this store created for it.
      if (this.createdCache) this.dropCache();
      throw e;
    }
  }

  private async sync(): Promise<VersionId | null> {
    return (await this.syncState()).tip;
  }

  /** The tip to write on: refuses while a remote ref shadows the section for `git push`. */
  private async writableTip(): Promise<VersionId | null> {
    const state = await this.syncState();
    if (state.shadows.length > 0) throw ambiguousRef(this.safeRemote, this.ref, state.shadows);
    return state.tip;
  }

  private dropCache(): void {
    const dropped = this.inner;
    this.inner = this.newInner(); // the next operation starts afresh: a new cache, a new reader
    dropped.close().catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
    this.ready = undefined;
    this.createdCache = false;
  }

  /** The remote tip (one fetch of the section ref). */
  async head(): Promise<VersionId | null> {
    return this.sync();
  }

  /** A version to read at: the given one (fetched when the cache lacks it) or the synced tip. */
  private async readAt(version: VersionId | undefined): Promise<VersionId | null> {
    if (version === undefined) return this.sync();
    assertValidVersion(version);
    const { repo } = await this.open();
    if (!(await repo.hasCommit(version))) await this.sync();
    return version;
  }

  /**
   * Read at a pinned version through the cache repository. The inner store checks the version is in
   * the section against the cache's copy of the ref; when that copy is behind the remote, sync once
   * and check again before answering `InvalidVersion`.
   */
  private async pinned<T>(_version: VersionId, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof InvalidVersion)) throw e;
      await this.sync();
      return read();
    }
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    const version = await this.readAt(options.version);
    if (!version) return null;
    return this.pinned(version, () => this.inner.get(key, { version }));
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    const version = await this.readAt(options.version);
    if (!version) return { entries: [], version: null, requests: 0 };
    return this.pinned(version, () => this.inner.list({ prefix, version }));
  }

  /**
   * Keys added, changed and removed between two versions (see RefStore.changes); syncs the section
   * first, so versions up to the remote tip are known.
   */
  async changes(options: ChangesOptions): Promise<ChangesResult> {
    checkChangesOptions(options); // before the fetch
    await this.sync();
    return this.inner.changes(options);
  }

  async commit(changes: readonly Change[], options: CommitOptions = {}): Promise<WriteResult> {
    const { changes: normalized, ifMatch } = prepareCommit(changes, options);
    const { repo, remote } = await this.open();
    let attempt = 0;
    return commitWithRetry({
      ref: this.ref,
      retry: this.common.retry,
      readTip: () => this.writableTip(),
      build: (tip, derived) =>
        buildCommit(repo, tip, [...normalized, ...derived], this.common.identity, options.message, ifMatch),
      derive: { hook: options.derive, own: normalized, read: (tip) => readAt(this.inner, tip) },
      publish: async (tip, commit) => {
        attempt++;
        const landed = await remote.push(commit, tip);
        if (landed)
          await repo.updateRef(this.ref, commit, tip); // the cache follows; a miss only costs a later fetch
        else this.log('info', `${this.ref} moved on the remote; rebasing and retrying`, { attempt });
        return landed;
      },
    });
  }

  /**
   * Create `commits` on `onto` in the cache repository and push the last of them with
   * `--force-with-lease=<ref>:<from>` — the remote's compare-and-swap, which allows a non-fast-forward
   * move (see `RefStore.replaceHistory`; use `compactSection`).
   *
   * @example
   * const r = await store.replaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
   */
  async replaceHistory(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult> {
    const cached = await this.writableTip();
    const { repo, remote } = await this.open();
    const created = await storeReplacement(repo, options);
    const target = chainTip(options, created);
    await options.pace?.();
    const moved = await remote.push(target, options.from);
    if (moved) {
      await repo.updateRef(this.ref, target, cached); // the cache follows; a miss only costs a later fetch
      this.inner.forgetSection();
    }
    return { created, moved, tip: moved ? target : await this.sync(), requests: 0 };
  }

  async history(key: string, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    await this.sync();
    return this.inner.history(key, options);
  }

  /** The section's commits, newest first (see `RefStore.commits`), after fetching the remote's tip. */
  async commits(options: HistoryOptions = {}): Promise<HistoryResult> {
    await this.sync();
    return this.inner.commits(options);
  }

  /** Stop the cache's `cat-file` process. */
  close(): Promise<void> {
    return this.inner.close();
  }
}
