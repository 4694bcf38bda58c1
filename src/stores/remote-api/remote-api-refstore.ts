/**
 * RemoteApiRefStore: the primary RefStore, on one ref of a GitHub repository, reached only through
 * the Git Database REST API over a pluggable HTTP transport. See docs/remote-api.md.
 *
 * Reads:  ref (conditional, ETag) → commit → tree level(s) → blob, each object cached by SHA.
 * Writes: [blobs for binary/large values] → POST /git/trees (inline content, sha:null deletes, on
 *         base_tree) → POST /git/commits → PATCH /git/refs (force:false) or POST /git/refs.
 */

import { DEFAULT_CACHE_MAX_BYTES } from '../../cache/backend.js';
import { type CachedCommit, GitCache, tokenIdentity } from '../../cache/git-cache.js';
import { WriteRetry } from '../../core/backoff.js';
import { toBase64 } from '../../core/bytes.js';
import { assertPartsOptions, partsMessage } from '../../core/commit-parts.js';
import {
  AuthMissing,
  ConcurrentUpdate,
  DocDbError,
  InvalidConfig,
  InvalidKey,
  InvalidResponse,
  InvalidVersion,
  PreconditionFailed,
  TransportError,
  UpstreamUnavailable,
} from '../../core/errors.js';
import { isSha } from '../../core/git/objects.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import {
  assertNoPathConflicts,
  defaultCommitMessage,
  keyWriteToCommit,
  normalizeChanges,
  normalizeIfMatch,
  type PlannedTreeChange,
  planWrite,
} from '../../core/plan.js';
import type {
  Change,
  ChangeParts,
  ChangesOptions,
  ChangesResult,
  CommitOptions,
  CommitPartsOptions,
  GetOptions,
  GetResult,
  HistoryEntry,
  HistoryOptions,
  HistoryResult,
  KeyWriteOptions,
  ListEntry,
  ListOptions,
  ListResult,
  OperationMeta,
  Person,
  RateLimit,
  RefStore,
  WriteOptions,
  WriteResult,
} from '../../core/refstore.js';
import { assertValidVersion, checkChangesOptions, type VersionId } from '../../core/version.js';
import { GitHubClient, nextLink, type OpContext } from './client.js';
import { assertTokenShape, type RemoteApiRefStoreOptions, type ResolvedConfig, resolveConfig } from './config.js';
import { buildTreesLocally } from './local-trees.js';
import { isObject } from './shapes.js';
import {
  type ChangedFile,
  changedFilesAsTreeChanges,
  compareTips,
  reachesBack,
  touchesAny,
  touchesKeySet,
} from './stale-tip.js';
import { TreeUpload, type TreeUploadHost } from './tree-upload.js';
import { TreeWalker, type WalkMode } from './tree-walker.js';
import { assertInSection, changesBetween, type VersionsHost } from './versions.js';

/** What one compare told about a moved tip (see `catchUp`). */
interface Caught {
  commit: CachedCommit;
  /** A key of the write (or a directory above/below one) changed. */
  touched: boolean;
  /** Every level of the new tip's tree that differs from the old one is cached. */
  known: boolean;
}

/** Ref re-reads (each with the client's own retries) after a lost update reply before "unknown". */
const MAX_REREADS_AFTER_LOST_REPLY = 8;

type Normalized = ReturnType<typeof normalizeChanges>;

function assertMessage(message: unknown): void {
  if (message !== undefined && (typeof message !== 'string' || message.trim() === '')) {
    throw new InvalidConfig('message', 'commit message must be a non-empty string', { allowed: 'non-empty string' });
  }
}

/**
 * A RefStore on `refs/<root>/<section>` of a GitHub repository.
 *
 * @example
 * const store = new RemoteApiRefStore({
 *   transport: fetchTransport(),
 *   owner: 'octo', repo: 'data', ref: 'refs/docdb/documents',
 *   token: process.env.GITHUB_TOKEN,
 * });
 * const { version } = await store.put('github/repo/octo/hello.json', '{"a":1}');
 * const got = await store.get('github/repo/octo/hello.json'); // { value, version, blobSha, requests, rateLimit }
 */
export class RemoteApiRefStore implements RefStore {
  readonly ref: string;
  /** Validated configuration (read-only; contains no secrets beyond the configured token). */
  private readonly cfg: ResolvedConfig;
  private readonly client: GitHubClient;
  /** Object and ref-tip caches (exposed for diagnostics and tests). */
  readonly cache: GitCache;
  /** Ref path as used in URLs: `docdb/documents` for `refs/docdb/documents`, segments percent-encoded. */
  private readonly refPath: string;
  private repoChecked = false;
  private writeChain: Promise<unknown> = Promise.resolve();
  /** Trees and blobs read through the cache (see tree-walker.ts). */
  private readonly trees: TreeWalker;

  constructor(options: RemoteApiRefStoreOptions) {
    this.cfg = resolveConfig(options);
    this.ref = this.cfg.ref;
    this.client = new GitHubClient(this.cfg);
    this.cache = new GitCache(this.cfg.backend, `${this.cfg.apiBase}/${this.cfg.owner}/${this.cfg.repo}`);
    this.trees = new TreeWalker(this.client, this.cache, this.cfg.logger, (ctx, step, what, cause) =>
      this.bad(ctx, step, what, cause),
    );
    this.refPath = this.ref.slice('refs/'.length).split('/').map(encodeURIComponent).join('/');
  }

  /** `owner/repo` this store writes to. */
  get repository(): string {
    return `${this.cfg.owner}/${this.cfg.repo}`;
  }

  // ---------------------------------------------------------------- operation plumbing

  private async begin(operation: string): Promise<OpContext> {
    let token = this.cfg.token;
    if (token === undefined && this.cfg.credentials) {
      let t: string | undefined | null;
      try {
        t = await this.cfg.credentials();
      } catch (e) {
        throw new AuthMissing(`${operation}: the credentials provider failed`, { operation }, { cause: e });
      }
      if (t !== undefined && t !== null && t !== '') {
        assertTokenShape(t, 'credentials');
        token = t;
      }
    }
    return { operation, token, tokenId: tokenIdentity(token), requests: 0 };
  }

  /** Rate limit from the last response any operation of this store saw. */
  private lastRateLimit: RateLimit | undefined;

  private meta(ctx: OpContext): OperationMeta {
    // An operation served entirely from cache reports the last rate limit this store saw.
    const rateLimit = ctx.rateLimit ?? this.lastRateLimit;
    if (ctx.rateLimit) this.lastRateLimit = ctx.rateLimit;
    return rateLimit ? { requests: ctx.requests, rateLimit } : { requests: ctx.requests };
  }

  /** Run an operation; as a last line of defence, scrub the token from any error message. */
  private async run<T>(operation: string, fn: (ctx: OpContext) => Promise<T>): Promise<T> {
    let ctx: OpContext | undefined;
    try {
      ctx = await this.begin(operation);
      return await fn(ctx);
    } catch (e) {
      const token = ctx?.token;
      if (token && e instanceof Error) {
        let x: unknown = e;
        for (let depth = 0; x instanceof Error && depth < 8; depth++, x = x.cause) {
          if (x.message.includes(token)) x.message = x.message.split(token).join('[REDACTED]');
          if (x.stack?.includes(token)) x.stack = x.stack.split(token).join('[REDACTED]');
        }
      }
      if (ctx?.rateLimit) this.lastRateLimit = ctx.rateLimit;
      if (e instanceof DocDbError && ctx) {
        (e.data as Record<string, unknown>).requests ??= ctx.requests;
      }
      throw e;
    }
  }

  private bad(ctx: OpContext, step: string, what: string, cause?: unknown): InvalidResponse {
    return new InvalidResponse(
      `${ctx.operation}: ${step} returned an unexpected body: ${what}`,
      { operation: ctx.operation, step },
      { cause },
    );
  }

  // ---------------------------------------------------------------- upstream reads

  /** GET the repository once per store to tell "ref missing" from "repository missing" (both 404). */
  private async ensureRepo(ctx: OpContext): Promise<void> {
    if (this.repoChecked) return;
    await this.client.send(ctx, { step: 'read repository', method: 'GET', path: '', retry: true });
    this.repoChecked = true;
  }

  /**
   * Read the ref tip (conditional when an ETag is cached). Returns null when the ref does not exist.
   */
  private async readRef(ctx: OpContext, checkRepo = true): Promise<string | null> {
    const cached = await this.cache.getRefTip(this.ref, ctx.tokenId);
    const headers: Record<string, string> = {};
    if (this.cfg.etag && cached?.etag) headers['if-none-match'] = cached.etag;
    const res = await this.client.send(ctx, {
      step: 'read ref',
      method: 'GET',
      path: `/git/ref/${this.refPath}`,
      headers,
      retry: true,
      accept: [304, 404],
    });
    if (res.status === 304) {
      if (!cached) throw this.bad(ctx, 'read ref', 'HTTP 304 to an unconditional request');
      this.sawTip(ctx.tokenId, cached.sha);
      return cached.sha;
    }
    if (res.status === 404) {
      await this.cache.deleteRefTip(this.ref, ctx.tokenId);
      // A write skips the check: its next request (create tree) 404s the same way on a missing repository.
      if (checkRepo) await this.ensureRepo(ctx);
      this.sawTip(ctx.tokenId, null);
      return null;
    }
    const j = res.json();
    if (!isObject(j)) throw this.bad(ctx, 'read ref', Array.isArray(j) ? 'a list instead of one ref' : 'not an object');
    const obj = j.object;
    if (j.ref !== this.ref || !isObject(obj) || !isSha(obj.sha)) {
      throw this.bad(ctx, 'read ref', `expected { ref: "${this.ref}", object: { sha } }`);
    }
    if (obj.type !== undefined && obj.type !== 'commit') {
      throw this.bad(ctx, 'read ref', `${this.ref} points at a ${String(obj.type)}, not a commit`);
    }
    const etag = res.headers.etag;
    await this.cache.setRefTip(this.ref, ctx.tokenId, etag ? { sha: obj.sha, etag } : { sha: obj.sha });
    this.sawTip(ctx.tokenId, obj.sha);
    return obj.sha;
  }

  private parsePerson(ctx: OpContext, step: string, v: unknown): Person {
    if (!isObject(v) || typeof v.name !== 'string' || typeof v.email !== 'string' || typeof v.date !== 'string') {
      throw this.bad(ctx, step, 'author/committer needs name, email and date');
    }
    return { name: v.name, email: v.email, date: v.date };
  }

  /** Parse a git commit body (`GET`/`POST /git/commits`). */
  private parseCommit(ctx: OpContext, step: string, j: unknown): CachedCommit {
    if (!isObject(j) || !isSha(j.sha) || !isObject(j.tree) || !isSha(j.tree.sha) || !Array.isArray(j.parents)) {
      throw this.bad(ctx, step, 'expected a commit with sha, tree.sha and parents');
    }
    const parents = j.parents.map((p) => {
      if (!isObject(p) || !isSha(p.sha)) throw this.bad(ctx, step, 'parents[].sha missing');
      return p.sha;
    });
    return {
      sha: j.sha,
      tree: j.tree.sha,
      parents,
      message: typeof j.message === 'string' ? j.message : '',
      author: this.parsePerson(ctx, step, j.author),
      committer: this.parsePerson(ctx, step, j.committer),
    };
  }

  private async getCommit(ctx: OpContext, sha: string, pinned = false): Promise<CachedCommit> {
    const hit = await this.cache.getCommit(sha);
    if (hit) return hit;
    const res = await this.client.send(ctx, {
      step: 'read commit',
      method: 'GET',
      path: `/git/commits/${sha}`,
      retry: true,
      accept: pinned ? [404, 422] : [],
    });
    if (res.status === 404 || res.status === 422) {
      throw new InvalidVersion(sha, `version ${sha} is not a commit of ${this.repository}`);
    }
    const c = this.parseCommit(ctx, 'read commit', res.json());
    if (c.sha !== sha) throw this.bad(ctx, 'read commit', `asked for ${sha}, got ${c.sha}`);
    await this.cache.putCommit(c);
    return c;
  }

  /** Ref tips this store learned itself (reads and its own writes), with when: see `trustCachedTipMs`. */
  private readonly tipSeen = new Map<string, { sha: string | null; at: number }>();

  /** `sha` null: the ref was seen absent (a write right after then creates it without reading it again). */
  private sawTip(tokenId: string, sha: string | null): void {
    this.tipSeen.set(tokenId, { sha, at: this.cfg.now() });
  }

  private recentlySeen(tokenId: string, sha: string | null): boolean {
    const seen = this.tipSeen.get(tokenId);
    return seen !== undefined && seen.sha === sha && this.cfg.now() - seen.at <= this.cfg.trustCachedTipMs;
  }

  // ---------------------------------------------------------------- RefStore reads

  async head(): Promise<VersionId | null> {
    return this.run('head', (ctx) => this.readRef(ctx));
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    if (options.version !== undefined) assertValidVersion(options.version);
    return this.run('get', async (ctx) => {
      const version = options.version ?? (await this.readRef(ctx));
      if (version === null) return null;
      if (options.version !== undefined) await assertInSection(this.versions, ctx, version);
      const commit = await this.getCommit(ctx, version, options.version !== undefined);
      const found = await this.trees.lookup(ctx, commit.tree, key, 'single');
      this.trees.lastRootTree = commit.tree;
      if (found.kind !== 'blob') return null;
      const value = await this.trees.blob(ctx, found.sha);
      return { key, value: value.slice(), version, blobSha: found.sha, ...this.meta(ctx) };
    });
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    if (options.version !== undefined) assertValidVersion(options.version);
    return this.run('list', async (ctx) => {
      const version = options.version ?? (await this.readRef(ctx));
      if (version === null) return { entries: [], version: null, ...this.meta(ctx) };
      if (options.version !== undefined) await assertInSection(this.versions, ctx, version);
      const commit = await this.getCommit(ctx, version, options.version !== undefined);
      const entries: ListEntry[] = [];
      // Start at the deepest directory the prefix names, so a prefix list reads only that subtree.
      const dir = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      let start: string | undefined = commit.tree;
      if (dir !== '') {
        const at = await this.trees.lookup(ctx, commit.tree, dir, 'bulk');
        start = at.kind === 'tree' ? at.sha : undefined;
      }
      if (start !== undefined) await this.trees.flatten(ctx, start, dir === '' ? '' : `${dir}/`, entries);
      this.trees.lastRootTree = commit.tree;
      const out = entries
        .filter((e) => e.key.startsWith(prefix))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return { entries: out, version, ...this.meta(ctx) };
    });
  }

  async history(key: string, options: HistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (limit !== Number.POSITIVE_INFINITY && (!Number.isInteger(limit) || limit < 0)) {
      throw new InvalidConfig('limit', `history limit must be a non-negative integer, got ${String(limit)}`, {
        allowed: 'integer >= 0',
      });
    }
    return this.run('history', async (ctx) => {
      const entries: HistoryEntry[] = [];
      if (limit === 0) return { entries, ...this.meta(ctx) };
      const perPage = String(Math.min(100, limit));
      let url: string | undefined;
      // `sha` takes the full ref name; if a host does not resolve it (404/422 while the ref exists),
      // fall back once to the tip commit SHA, which every host accepts.
      let start: string = this.ref;
      while (entries.length < limit) {
        const res = await this.client.send(ctx, {
          step: 'list commits',
          method: 'GET',
          ...(url === undefined ? { path: '/commits', query: { path: key, sha: start, per_page: perPage } } : { url }),
          retry: true,
          accept: url === undefined && start === this.ref ? [404, 422] : [],
        });
        if (res.status === 404 || res.status === 422) {
          // "No commit found for SHA: refs/…": the section does not exist yet (or the repo is missing).
          const tip = await this.readRef(ctx);
          if (tip === null) return { entries, ...this.meta(ctx) };
          start = tip;
          continue;
        }
        const list = res.json();
        if (!Array.isArray(list)) throw this.bad(ctx, 'list commits', 'expected an array of commits');
        for (const item of list) {
          if (entries.length >= limit) break;
          if (!isObject(item) || !isSha(item.sha) || !isObject(item.commit) || !Array.isArray(item.parents)) {
            throw this.bad(ctx, 'list commits', 'items need sha, commit and parents');
          }
          entries.push({
            version: item.sha,
            message: typeof item.commit.message === 'string' ? item.commit.message : '',
            author: this.parsePerson(ctx, 'list commits', item.commit.author),
            committer: this.parsePerson(ctx, 'list commits', item.commit.committer),
            parents: item.parents.map((p) => {
              if (!isObject(p) || !isSha(p.sha)) throw this.bad(ctx, 'list commits', 'parents[].sha missing');
              return p.sha;
            }),
          });
        }
        const next = nextLink(res.headers.link);
        if (!next || entries.length >= limit) break;
        let nextUrl: URL;
        try {
          nextUrl = new URL(next);
        } catch {
          throw this.bad(ctx, 'list commits', 'Link next is not an absolute URL');
        }
        if (nextUrl.origin !== this.cfg.apiOrigin) {
          // Following would send the token to another origin; a partial history is not an answer either.
          throw new InvalidResponse(
            `history: the next page link points to ${nextUrl.origin}, not the configured API origin ${this.cfg.apiOrigin}; refusing to follow it`,
            { operation: 'history', origin: nextUrl.origin },
          );
        }
        url = nextUrl.toString();
      }
      return { entries, ...this.meta(ctx) };
    });
  }

  // ---------------------------------------------------------------- versions (see versions.ts)

  /** Commits proven to be in the section (commits are immutable: a positive answer is kept). */
  private readonly sectionCommits = new Set<string>();

  /** This store's readers, lent to versions.ts. */
  private get versions(): VersionsHost {
    return {
      ref: this.ref,
      apiOrigin: this.cfg.apiOrigin,
      send: (ctx, opts) => this.client.send(ctx, opts),
      readRef: (ctx) => this.readRef(ctx),
      cachedTip: async (ctx) => (await this.cache.getRefTip(this.ref, ctx.tokenId))?.sha,
      cachedCommit: (sha) => this.cache.getCommit(sha),
      putCommit: (c) => this.cache.putCommit(c),
      getCommit: (ctx, sha, pinned) => this.getCommit(ctx, sha, pinned),
      treeLevel: (ctx, sha) => this.trees.level(ctx, sha, 'bulk'),
      known: this.sectionCommits,
    };
  }

  /**
   * Keys added, changed and removed between two versions of the section. Cold, between adjacent
   * versions: 5 requests (ref, 2 commits, 2 recursive tree listings); warm: the ref read (a 304) plus
   * the tree levels that differ and are not cached yet.
   *
   * @example
   * const { added, changed, removed } = await store.changes({ from: v1 }); // v1 → tip
   */
  async changes(options: ChangesOptions): Promise<ChangesResult> {
    const prefix = checkChangesOptions(options);
    return this.run('changes', async (ctx) => {
      const r = await changesBetween(this.versions, ctx, { ...options, prefix });
      return { ...r, ...this.meta(ctx) };
    });
  }

  // ---------------------------------------------------------------- writes

  put(key: string, value: Uint8Array | string, options?: KeyWriteOptions): Promise<WriteResult> {
    return this.write('put', [{ op: 'put', key, value }], keyWriteToCommit(key, options));
  }

  delete(key: string, options?: KeyWriteOptions): Promise<WriteResult> {
    return this.write('delete', [{ op: 'delete', key }], keyWriteToCommit(key, options));
  }

  commit(changes: readonly Change[], options?: CommitOptions): Promise<WriteResult> {
    return this.write('commit', changes, options);
  }

  private async write(
    operation: string,
    changes: readonly Change[],
    options: CommitOptions = {},
  ): Promise<WriteResult> {
    const normalized = normalizeChanges(changes);
    const ifMatch = normalizeIfMatch(normalized, options.ifMatch);
    assertMessage(options.message);
    // Within the batch: a put key must not be a directory of another put key. Conflicts with the
    // tree at the tip are checked per attempt in `currentShas` (the tip may move between attempts).
    assertNoPathConflicts(normalized, { isFile: () => false, isDir: () => false });
    // Serialise writes of this instance: GitHub asks for serial writes, and racing ourselves only burns retries.
    const run = this.writeChain.then(() =>
      this.run(operation, (ctx) => this.writeLoop(ctx, normalized, options, ifMatch)),
    );
    this.writeChain = run.catch(() => {});
    return run;
  }

  private async currentShas(
    ctx: OpContext,
    rootTree: string | null,
    changes: Normalized,
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (rootTree === null) return out;
    const mode: WalkMode = changes.length > 1 ? 'bulk' : 'single';
    for (const c of changes) {
      const at = await this.trees.lookup(ctx, rootTree, c.key, mode);
      // A delete of a directory or of a path below a value deletes nothing: an absent key.
      if (c.op === 'put' && (at.kind === 'conflict' || at.kind === 'tree')) {
        throw new InvalidKey(
          c.key,
          'conflict',
          at.kind === 'tree'
            ? `cannot write ${JSON.stringify(c.key)}: it is a directory of other keys`
            : `cannot write ${JSON.stringify(c.key)}: ${JSON.stringify(at.at)} is a key, not a directory`,
        );
      }
      if (at.kind === 'blob') out.set(c.key, at.sha);
    }
    this.trees.lastRootTree = rootTree;
    return out;
  }

  private async writeLoop(
    ctx: OpContext,
    changes: Normalized,
    options: WriteOptions,
    ifMatch?: ReadonlyMap<string, string | null>,
  ): Promise<WriteResult> {
    // The cached tip lets a warm write skip the ref read; PATCH force:false still guards correctness.
    const cached = await this.cache.getRefTip(this.ref, ctx.tokenId);
    // A section this store just saw absent is created without reading the ref again (POST /git/refs
    // fails if another writer created it meanwhile, and the write is then planned on that tip).
    const absent = !cached && this.recentlySeen(ctx.tokenId, null);
    let tip: string | null = cached ? cached.sha : absent ? null : await this.readRef(ctx, false);
    let confirmed = !cached && !absent;
    // Full-jitter backoff within a time budget (src/core/backoff.ts); blobs uploaded by an earlier
    // attempt are content-addressed, so a retry names them by SHA instead of sending them again.
    const retry = new WriteRetry(this.cfg.writeRetry, this.cfg.random, this.cfg.now);
    const uploaded = new Set<string>();
    // A tip this store did not see recently is confirmed first (a 304 when unchanged): building on a
    // stale tip would cost an orphan commit, a rejected update and a rebase.
    let rebased: { viewTree: string; base: CachedCommit } | undefined;
    const keys = changes.map((c) => c.key);
    const touchedBy = (files: readonly ChangedFile[]) => touchesAny(files, keys);
    if (cached && !this.recentlySeen(ctx.tokenId, cached.sha)) {
      const now = await this.readRef(ctx, false);
      confirmed = true;
      if (now !== null && tip !== null && now !== tip) {
        const caught = await this.catchUp(ctx, tip, now, touchedBy);
        rebased = caught && this.rebaseView(caught, (await this.cache.getCommit(tip))?.tree);
      }
      tip = now;
    }
    for (;;) {
      // After a compare proved none of our keys changed, plan on the cached old tree and build on the new one.
      const base = rebased ? rebased.base : tip === null ? null : await this.getCommit(ctx, tip);
      const view = rebased ? rebased.viewTree : base ? base.tree : null;
      const current = await this.currentShas(ctx, view, changes);
      rebased = undefined;
      let plan: ReturnType<typeof planWrite>;
      try {
        plan = planWrite(changes, (k) => current.get(k), ifMatch ? { ifMatch, version: tip } : undefined);
      } catch (e) {
        // A precondition that failed on a cached tip is judged again on the real tip before it is final
        // (passing on a stale tip is safe: the fast-forward-only ref update then fails and we re-plan).
        if (!(e instanceof PreconditionFailed) || confirmed) throw e;
        const now = await this.readRef(ctx);
        confirmed = true;
        if (now === tip) throw e;
        tip = now;
        continue;
      }
      if (plan.treeChanges.length === 0) {
        if (!confirmed) {
          // "Nothing to do" judged on a cached tip must be confirmed (a 304 when nothing moved).
          const now = await this.readRef(ctx);
          confirmed = true;
          if (now !== tip) {
            tip = now;
            continue;
          }
        }
        return {
          version: tip,
          previousVersion: tip,
          changed: false,
          written: [],
          deleted: [],
          unchanged: plan.unchanged,
          ...this.meta(ctx),
        };
      }
      this.assertCanWrite(ctx);
      const tree = await this.createTrees(ctx, base ? base.tree : null, plan.treeChanges, uploaded);
      await this.rememberOwnTrees(base ? base.tree : null, plan.treeChanges, tree);
      const commit = await this.createCommit(ctx, tree, tip, options.message ?? defaultCommitMessage(plan));
      const outcome = await this.updateRef(ctx, tip, commit, retry, touchedBy);
      if (outcome.ok) {
        return {
          version: commit,
          previousVersion: tip,
          changed: true,
          written: plan.written,
          deleted: plan.deleted,
          unchanged: plan.unchanged,
          ...this.meta(ctx),
        };
      }
      // Lost the fast-forward race: rebase the SAME change onto the new tip's tree.
      const other = outcome.tip;
      await this.afterLostRace(ctx, retry, confirmed, other);
      rebased = outcome.caught && this.rebaseView(outcome.caught, view ?? undefined);
      confirmed = true;
      tip = other;
    }
  }

  /**
   * Between attempts after a lost fast-forward: back off (or give up with `ConcurrentUpdate` when the
   * retry count or time budget is spent). A loss on an unconfirmed cached tip is not a race (the tip was
   * just stale): retried at once, free of the budget.
   */
  private async afterLostRace(ctx: OpContext, retry: WriteRetry, confirmed: boolean, other: string | null) {
    if (!confirmed) {
      this.cfg.logger?.({
        level: 'debug',
        message: `${ctx.operation}: the cached tip of ${this.ref} was stale (now ${other ?? '(deleted)'}); rebuilding on it`,
        data: { other },
      });
      return;
    }
    const wait = retry.next();
    if (wait === null) throw new ConcurrentUpdate(this.ref, other ?? '', retry.retries + 1);
    this.cfg.logger?.({
      level: 'info',
      message: `${ctx.operation}: ${this.ref} moved to ${other ?? '(deleted)'}; retrying on the new tip in ${wait} ms`,
      data: { attempt: retry.retries, other, wait },
    });
    await this.cfg.sleep(wait);
  }

  // ---------------------------------------------------------------- commits in parts

  /**
   * One commit whose changes arrive in parts (pages of a source, slices of a huge batch): each part is
   * planned against the tip's tree and its tree entries join the chain of create-tree requests as soon as
   * one is full, so only one part, one request's worth of content, and each key with its blob SHA are held
   * in memory. Costs what `commit` of all the parts costs. A lost race re-plans from the kept blob SHAs
   * (every blob is on GitHub by then): no value is sent twice. Prefer `commitInParts(store, parts)`.
   *
   * @example
   * async function* pages() { yield [{ op: 'put', key: 'a.json', value: '1' }]; yield [{ op: 'delete', key: 'b.json' }]; }
   * await store.commitParts(pages(), { message: 'backfill' });
   */
  commitParts(parts: ChangeParts, options: CommitPartsOptions = {}): Promise<WriteResult> {
    assertPartsOptions(options);
    if (typeof options.message !== 'function') assertMessage(options.message);
    const run = this.writeChain.then(() => this.run('commit', (ctx) => this.partsLoop(ctx, parts, options)));
    this.writeChain = run.catch(() => {});
    return run;
  }

  private async partsLoop(ctx: OpContext, parts: ChangeParts, options: CommitPartsOptions): Promise<WriteResult> {
    const cached = await this.cache.getRefTip(this.ref, ctx.tokenId);
    // As in writeLoop: a recently seen tip (or a section just seen absent) is written on without a ref read.
    let confirmed = !(cached ? this.recentlySeen(ctx.tokenId, cached.sha) : this.recentlySeen(ctx.tokenId, null));
    let tip: string | null = confirmed ? await this.readRef(ctx, false) : (cached?.sha ?? null);
    const base = tip === null ? null : await this.getCommit(ctx, tip);
    // Every key of the write with its blob SHA (null: delete); the directories of the put keys (a key may
    // not be one) and of every key (a file another writer puts there touches the write).
    const desired = new Map<string, string | null>();
    const dirs = new Set<string>();
    const keyDirs = new Set<string>();
    let plan: { written: string[]; deleted: string[] } = { written: [], deleted: [] };
    let upload: TreeUpload | undefined;
    for await (const part of parts) {
      if (!Array.isArray(part)) throw new TypeError('each part must be an array of changes');
      const changes = normalizeChanges(part);
      for (const c of changes) {
        if (desired.has(c.key)) {
          throw new InvalidKey(c.key, 'duplicate', `key ${JSON.stringify(c.key)} appears more than once in one commit`);
        }
      }
      assertNoPathConflicts(changes, { isFile: (p) => typeof desired.get(p) === 'string', isDir: (p) => dirs.has(p) });
      for (const c of changes) {
        desired.set(c.key, c.op === 'put' ? c.sha : null);
        for (let i = c.key.indexOf('/'); i > 0; i = c.key.indexOf('/', i + 1)) {
          keyDirs.add(c.key.slice(0, i));
          if (c.op === 'put') dirs.add(c.key.slice(0, i));
        }
      }
      const current = await this.currentShas(ctx, base ? base.tree : null, changes);
      const p = planWrite(changes, (k) => current.get(k));
      for (const k of p.written) plan.written.push(k);
      for (const k of p.deleted) plan.deleted.push(k);
      if (p.treeChanges.length === 0) continue;
      this.assertCanWrite(ctx);
      upload ??= this.treeUpload(ctx, base ? base.tree : null);
      await upload.add(p.treeChanges);
    }
    const touchedBy = (files: readonly ChangedFile[]) =>
      touchesKeySet(
        files,
        (k) => desired.has(k),
        (d) => keyDirs.has(d),
      );
    const custom = partsMessage(options);
    assertMessage(custom);
    const retry = new WriteRetry(this.cfg.writeRetry, this.cfg.random, this.cfg.now);
    let baseTree = base ? base.tree : null;
    let tree = upload ? await upload.finish() : null;
    const result = (version: string | null, previous: string | null, changed: boolean) => ({
      version,
      previousVersion: previous,
      changed,
      written: changed ? plan.written : [],
      deleted: changed ? plan.deleted : [],
      unchanged: desired.size - (changed ? plan.written.length + plan.deleted.length : 0),
      ...this.meta(ctx),
    });
    for (;;) {
      if (tree === null) {
        if (!confirmed) {
          // "Nothing to do" judged on a cached tip must be confirmed (a 304 when nothing moved).
          const now = await this.readRef(ctx);
          confirmed = true;
          if (now !== tip) {
            tip = now;
            ({ plan, tree, baseTree } = await this.replanBySha(ctx, tip, desired));
            continue;
          }
        }
        return result(tip, tip, false);
      }
      // The new levels, computed from the kept blob SHAs and checked against GitHub's root.
      await this.rememberOwnTrees(baseTree, this.entriesBySha(plan, desired), tree);
      const message = custom ?? defaultCommitMessage({ ...plan, treeChanges: [], unchanged: 0 });
      const commit = await this.createCommit(ctx, tree, tip, message);
      const outcome = await this.updateRef(ctx, tip, commit, retry, touchedBy);
      if (outcome.ok) return result(commit, tip, true);
      await this.afterLostRace(ctx, retry, confirmed, outcome.tip);
      confirmed = true;
      const caught = outcome.caught;
      if (caught && !caught.known && !caught.touched) {
        // None of our keys changed: the same entries (by blob SHA) go onto the new tip's tree.
        tip = outcome.tip;
        baseTree = caught.commit.tree;
        const up = this.treeUpload(ctx, baseTree);
        await up.add(this.entriesBySha(plan, desired));
        tree = await up.finish();
        continue;
      }
      tip = outcome.tip;
      ({ plan, tree, baseTree } = await this.replanBySha(ctx, tip, desired));
    }
  }

  private entriesBySha(
    plan: { written: string[]; deleted: string[] },
    desired: ReadonlyMap<string, string | null>,
  ): PlannedTreeChange[] {
    return [
      ...plan.written.map((k) => ({ path: k, mode: '100644' as const, sha: desired.get(k) as string })),
      ...plan.deleted.map((k) => ({ path: k, mode: '100644' as const, sha: null })),
    ];
  }

  /**
   * Plan a commit-in-parts again on the tip `tip` from the kept blob SHAs, and send its trees (entries
   * by SHA: every blob was uploaded by the first attempt or is in the old tree). `tree` null: nothing to do.
   */
  private async replanBySha(
    ctx: OpContext,
    tip: string | null,
    desired: ReadonlyMap<string, string | null>,
  ): Promise<{ plan: { written: string[]; deleted: string[] }; tree: string | null; baseTree: string | null }> {
    const base = tip === null ? null : await this.getCommit(ctx, tip);
    const baseTree = base ? base.tree : null;
    const keys = [...desired].map(([key, sha]) =>
      sha === null ? { op: 'delete' as const, key } : { op: 'put' as const, key },
    );
    const current = await this.currentShas(ctx, baseTree, keys as Normalized);
    const plan = { written: [] as string[], deleted: [] as string[] };
    const up = this.treeUpload(ctx, baseTree);
    const entries: { path: string; mode: '100644'; sha: string | null }[] = [];
    for (const [key, sha] of desired) {
      const now = current.get(key);
      if (sha === null ? now === undefined : now === sha) continue;
      entries.push({ path: key, mode: '100644', sha });
      (sha === null ? plan.deleted : plan.written).push(key);
    }
    if (entries.length === 0) return { plan, tree: null, baseTree };
    this.assertCanWrite(ctx);
    await up.add(entries);
    return { plan, tree: await up.finish(), baseTree };
  }

  /**
   * One compare from `oldTip` to `head` (a SHA, or the ref name to read the tip in the same request): the
   * new tip's commit, and whether any of `keys` changed. The changed files are replayed on the cached old
   * tree; when that yields the new commit's tree exactly, every new level is cached (`known`), so
   * re-planning on the new tip costs no request. Undefined when the answer is unusable.
   */
  private async catchUp(
    ctx: OpContext,
    oldTip: string,
    head: string,
    touchedBy: (files: readonly ChangedFile[]) => boolean,
  ): Promise<Caught | undefined> {
    const c = await compareTips(this.client, ctx, oldTip, head);
    if (!('commit' in c)) {
      if (c.unusable === 404 || c.unusable === 422) this.compareByRef = false;
      return undefined;
    }
    // Every commit in between is cached: reads at those versions, and the proof that they are commits of
    // the section (versions.ts walks cached first parents), cost no request later.
    for (const commit of c.commits) await this.cache.putCommit(commit);
    const old = await this.cache.getCommit(oldTip);
    const replay = changedFilesAsTreeChanges(c.files);
    let known = false;
    if (old && replay) {
      const built = await buildTreesLocally((sha) => this.cache.getTree(sha), old.tree, replay);
      if (built?.root === c.commit.tree) {
        for (const [sha, level] of built.levels) await this.cache.putTree(sha, level);
        known = true;
      }
    }
    return { commit: c.commit, touched: touchedBy(c.files), known };
  }

  /**
   * After a catch-up whose new tree is not cached but which touched none of the write's keys: plan on the
   * old tree (`viewTree`, cached) and build on the new one — the plan is the same on both.
   */
  private rebaseView(
    caught: Caught,
    viewTree: string | undefined,
  ): { viewTree: string; base: CachedCommit } | undefined {
    if (caught.known || caught.touched || viewTree === undefined) return undefined;
    return { viewTree, base: caught.commit };
  }

  /** False once the host refused a compare against the section's ref name (then the ref is read instead). */
  private compareByRef = true;

  /** GitHub never accepts anonymous writes: fail before sending any (a no-op write still succeeds). */
  private assertCanWrite(ctx: OpContext): void {
    if (ctx.token !== undefined) return;
    throw new AuthMissing(
      `${ctx.operation}: writing to ${this.repository} needs a token with contents: write; configure token or credentials`,
      { operation: ctx.operation },
    );
  }

  /** A chained create-tree upload on `baseTree` (see tree-upload.ts). */
  private treeUpload(ctx: OpContext, baseTree: string | null, uploaded?: Set<string>): TreeUpload {
    const host: TreeUploadHost = {
      maxInlineBytes: this.cfg.maxInlineBytes,
      createBlob: (bytes, sha) => this.createBlob(ctx, bytes, sha),
      createTree: async (body) => {
        const res = await this.client.send(ctx, {
          step: 'create tree',
          method: 'POST',
          path: '/git/trees',
          body,
          retry: true, // content-addressed: repeating it yields the same tree
        });
        const j = res.json();
        if (!isObject(j) || !isSha(j.sha)) throw this.bad(ctx, 'create tree', 'expected { sha }');
        // The reply lists the new root level: cache it so a read after our write skips that request.
        if (Array.isArray(j.tree) && j.truncated !== true) await this.trees.cacheListing(j.sha, j.tree, false);
        return j.sha;
      },
    };
    return new TreeUpload(host, baseTree, uploaded);
  }

  private async createTrees(
    ctx: OpContext,
    baseTree: string | null,
    changes: PlannedTreeChange[],
    uploaded?: Set<string>,
  ): Promise<string> {
    const up = this.treeUpload(ctx, baseTree, uploaded);
    await up.add(changes);
    return (await up.finish()) as string;
  }

  /**
   * Compute the trees of our own write locally; when the root matches GitHub's reply, cache every new
   * level and every blob written, so the next read or no-op write needs only the ref read.
   */
  private async rememberOwnTrees(baseTree: string | null, changes: PlannedTreeChange[], replied: string) {
    const built = await buildTreesLocally((sha) => this.cache.getTree(sha), baseTree, changes);
    if (built?.root !== replied) {
      if (built) {
        this.cfg.logger?.({
          level: 'warn',
          message: `${this.ref}: the tree computed locally (${built.root}) differs from GitHub's (${replied}); not caching it`,
          data: { local: built.root, upstream: replied },
        });
      }
      return;
    }
    for (const [sha, level] of built.levels) await this.cache.putTree(sha, level);
    // Blobs written are cached up to a quarter of the memory cache's bound: enough for every interactive
    // write, while a 100,000-document batch does not copy its whole payload into a cache it would thrash.
    let budget = DEFAULT_CACHE_MAX_BYTES / 4;
    for (const c of changes) {
      if (c.sha === null || !c.content || c.content.length > budget) continue;
      budget -= c.content.length;
      await this.cache.putBlob(c.sha, c.content.slice());
    }
    this.trees.lastRootTree = replied;
  }

  private async createBlob(ctx: OpContext, bytes: Uint8Array, expected: string): Promise<string> {
    const b64 = toBase64(bytes);
    const res = await this.client.send(ctx, {
      step: 'create blob',
      method: 'POST',
      path: '/git/blobs',
      body: { content: b64, encoding: 'base64' },
      retry: true,
    });
    const j = res.json();
    if (!isObject(j) || !isSha(j.sha)) throw this.bad(ctx, 'create blob', 'expected { sha }');
    if (j.sha !== expected) throw this.bad(ctx, 'create blob', `blob SHA ${j.sha} differs from the local ${expected}`);
    return j.sha;
  }

  private async createCommit(ctx: OpContext, tree: string, parent: string | null, message: string): Promise<string> {
    const body: Record<string, unknown> = { message, tree, parents: parent ? [parent] : [] };
    if (this.cfg.author) {
      const date = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      body.author = { ...this.cfg.author, date };
      body.committer = { ...this.cfg.author, date };
    }
    const res = await this.client.send(ctx, {
      step: 'create commit',
      method: 'POST',
      path: '/git/commits',
      body,
      retry: true, // an extra unreferenced commit object is harmless
    });
    const c = this.parseCommit(ctx, 'create commit', res.json());
    if (c.tree !== tree) throw this.bad(ctx, 'create commit', `commit tree ${c.tree} is not ${tree}`);
    await this.cache.putCommit(c);
    return c.sha;
  }

  /**
   * Advance the ref from `parent` to `commit` (fast-forward only; `POST /git/refs` when `parent` is
   * null). `{ ok: false, tip }` when another writer won. After a 422 or a lost reply (no response or
   * 5xx) the ref is re-read, and only what it shows decides: our commit → applied; the ref unmoved →
   * not applied (a lost reply is sent again, up to `readRetries` times); anything else → a lost race,
   * unless a reply was lost earlier and the new tip descends from our commit (applied, then built on).
   */
  private async updateRef(
    ctx: OpContext,
    parent: string | null,
    commit: string,
    retry?: WriteRetry,
    touchedBy: (files: readonly ChangedFile[]) => boolean = () => true,
  ): Promise<{ ok: true } | { ok: false; tip: string | null; caught?: Caught }> {
    const request =
      parent === null
        ? { step: 'create ref', method: 'POST' as const, path: '/git/refs', body: { ref: this.ref, sha: commit } }
        : {
            step: 'update ref',
            method: 'PATCH' as const,
            path: `/git/refs/${this.refPath}`,
            body: { sha: commit, force: false },
          };
    let lost = 0; // replies lost so far: from then on our update may have been applied at any time
    for (;;) {
      let noReply: DocDbError | undefined;
      try {
        const res = await this.client.send(ctx, { ...request, retry: false, accept: [422] });
        if (res.status !== 422) {
          await this.cache.setRefTip(this.ref, ctx.tokenId, { sha: commit });
          this.sawTip(ctx.tokenId, commit);
          return { ok: true };
        }
        // 422: not a fast forward / reference already exists / reference does not exist.
      } catch (e) {
        if (!(e instanceof TransportError || e instanceof UpstreamUnavailable)) throw e;
        noReply = e;
        lost++;
        this.cfg.logger?.({
          level: 'warn',
          message: `${ctx.operation}: no reply to the ref update; re-reading ${this.ref}`,
          data: { commit },
        });
      }
      let now: string | null = null;
      // Unconditional: after an update attempt a cached ETag proves nothing about our write.
      await this.cache.deleteRefTip(this.ref, ctx.tokenId);
      if (!noReply && lost === 0 && parent !== null && this.compareByRef) {
        // A plain lost race: one compare against the ref name tells the new tip and what it changed
        // (instead of a ref read, then the new tip's commit and tree levels).
        const caught = await this.catchUp(ctx, parent, `refs/${this.refPath}`, touchedBy);
        if (caught) {
          await this.cache.setRefTip(this.ref, ctx.tokenId, { sha: caught.commit.sha });
          this.sawTip(ctx.tokenId, caught.commit.sha);
          return { ok: false, tip: caught.commit.sha, caught };
        }
      }
      for (let reread = 0; ; reread++) {
        try {
          now = await this.readRef(ctx);
          break;
        } catch (e) {
          if (lost === 0) throw e;
          // The outcome is knowable as soon as the ref can be read: keep trying (backing off) while the
          // write's retry budget lasts, rather than report "unknown" after one failed read.
          const transient = e instanceof TransportError || e instanceof UpstreamUnavailable;
          if (transient && retry?.withinBudget() && reread < MAX_REREADS_AFTER_LOST_REPLY) {
            await this.cfg.sleep(this.client.backoffMs(Math.min(reread, 4)));
            continue;
          }
          throw new TransportError(
            `${ctx.operation}: the ref update got no reply and re-reading ${this.ref} failed; the write of ${commit} may or may not have been applied`,
            { operation: ctx.operation, commit, outcome: 'unknown' },
            { cause: e },
          );
        }
      }
      if (now === commit) return { ok: true };
      if (now !== parent) {
        if (lost > 0 && now !== null && (await this.descendsFrom(ctx, now, commit, parent))) return { ok: true };
        return { ok: false, tip: now };
      }
      // The ref did not move, so our update was not applied.
      if (!noReply) {
        throw new InvalidResponse(
          `${ctx.operation}: ${request.step} ${this.ref} was rejected (HTTP 422) although the ref did not move`,
          { operation: ctx.operation, step: request.step, status: 422 },
        );
      }
      if (lost > this.cfg.readRetries) throw noReply;
      await this.cfg.sleep(this.client.backoffMs(lost - 1));
    }
  }

  /**
   * True when `ancestor` is in the history of `tip` (docdb's history is linear): one compare at any
   * distance; if its answer is unusable, a walk of first parents that stops at `stop` (the commit
   * `ancestor` was built on: reaching it first means `ancestor` is not there) or after 20 commits.
   */
  private async descendsFrom(ctx: OpContext, tip: string, ancestor: string, stop: string | null): Promise<boolean> {
    const answer = await reachesBack(this.client, ctx, ancestor, tip);
    if (answer !== undefined) return answer;
    let sha: string | undefined = tip;
    for (let i = 0; i < 20 && sha !== undefined && sha !== stop; i++) {
      if (sha === ancestor) return true;
      sha = (await this.getCommit(ctx, sha)).parents[0];
    }
    return false;
  }

  /** Every cache entry (diagnostics; used by the token-hygiene test). */
  async dumpCache(): Promise<[string, unknown][]> {
    return [...(await this.cfg.backend.entries())];
  }
}
