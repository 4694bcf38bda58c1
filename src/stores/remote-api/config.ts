/** Validation and defaults of RemoteApiRefStore options. Every error names the field and what is allowed. */
import { type CacheBackend, DEFAULT_CACHE_MAX_BYTES, MemoryCacheBackend } from '../../cache/backend.js';
import { resolveWriteRetry, type WriteRetryOptions, type WriteRetryPolicy } from '../../core/backoff.js';
import { InvalidConfig } from '../../core/errors.js';
import { isSha } from '../../core/git/objects.js';
import { assertValidRefName } from '../../core/refname.js';
import type { HttpTransport } from '../../transport/types.js';
import { platformArchiveReader } from './archive-default.js';
import { type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS } from './archive-limits.js';
import type { ArchiveReader } from './archive-reads.js';
import { checkCommitDate, checkRepositoryId } from './given-facts.js';
import { resolveMutationSpacing } from './pacing.js';

// Write retries after lost races share one policy with the git stores (src/core/backoff.ts).
export { DEFAULT_RETRY_CONCURRENT_WRITES } from '../../core/backoff.js';
/** Default retries of an idempotent request on 5xx or a connection failure. */
export const DEFAULT_READ_RETRIES = 3;
/** Default longest secondary-rate-limit `Retry-After` (seconds) the store waits out before retrying. */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;
/** Inline `content` budget per `POST /git/trees` request (GitHub answers 502/422 above ~2 MB). */
export const DEFAULT_MAX_INLINE_BYTES = 1024 * 1024;
export const DEFAULT_API_URL = 'https://api.github.com';
export const DEFAULT_REF = 'refs/docdb/documents';
export const DEFAULT_USER_AGENT = 'docdb/0.1';
/**
 * How long a ref tip this store learned itself (its own write, or a ref read) is trusted for a write
 * without reading the ref first: 0, never. Every write then starts with the conditional ref read (a 304
 * when nothing moved, which costs no rate-limit budget), so what a write costs depends on what other
 * writers did, never on how long ago this store last looked: a tip another writer moved costs one compare
 * instead of an orphan commit, a rejected update and a rebase (issue 21).
 */
export const DEFAULT_TRUST_CACHED_TIP_MS = 0;

/** Log event (never contains a token, request headers or bodies). */
export interface RemoteApiLogEvent {
  level: 'debug' | 'info' | 'warn';
  message: string;
  data?: Record<string, unknown>;
}

export interface RemoteApiCacheOptions {
  /** `"memory"` (default) or a custom backend (e.g. IndexedDB). Share one backend between stores to share objects. */
  backend?: 'memory' | CacheBackend;
  /** Bound of the memory backend in bytes (default 64 MiB). Ignored for a custom backend. */
  maxBytes?: number;
  /** Conditional ref reads with `If-None-Match` (default true). */
  etag?: boolean;
}

export interface RemoteApiRefStoreOptions {
  /** HTTP transport: fetchTransport(), octokitTransport(octokit), hostTransport(fn), or a fake. */
  transport: HttpTransport;
  /** API base URL (default `https://api.github.com`; GHES `https://HOST/api/v3`). */
  apiUrl?: string;
  /** Repository owner (user or organization login). */
  owner: string;
  /** Repository name. */
  repo: string;
  /** Section ref (default `refs/docdb/documents`). */
  ref?: string;
  /**
   * A commit the ref starts from while it does not exist (a shard ref branches from the section tip):
   * until then the store reads as if the ref pointed there, and its first write builds on it and creates
   * the ref ON that write's commit (`POST /git/refs`: no create-then-update). Default: none (an absent
   * ref is an empty section).
   */
  startAt?: string;
  /**
   * The repository's GraphQL node id (REST `node_id`), when the caller already knows it — a workflow's
   * event payload names its repository's: saves the one query `deleteRefs` and compaction make for it.
   */
  repositoryId?: string;
  /** Token sent as `Authorization: Bearer`. Omit for unauthenticated reads of public repositories. */
  token?: string;
  /** Async token provider (browser `hostCapabilities.credentials`), asked once per operation. Exclusive with `token`. */
  credentials?: () => Promise<string | undefined | null> | string | undefined | null;
  /**
   * Most retries after losing a fast-forward race (default 100). 0 = fail on the first conflict.
   * Retrying also stops when `writeRetryBudgetMs` has passed (src/core/backoff.ts).
   */
  retryConcurrentWrites?: number;
  /** Time budget for retries after lost races, in ms from the write's first attempt (default 60,000). */
  writeRetryBudgetMs?: WriteRetryOptions['writeRetryBudgetMs'];
  /** Base of the full-jitter exponential backoff between those retries, in ms (default 100, cap 2,000). */
  writeBackoffBaseMs?: WriteRetryOptions['writeBackoffBaseMs'];
  /** Clock in ms for the retry budget and the cached-tip age (inject in tests; default `Date.now`). */
  now?: () => number;
  /** Retries of idempotent requests on 5xx / connection failures (default 3). */
  readRetries?: number;
  /** Longest rate-limit wait (seconds) sat out before retrying (default 60); longer → `RateLimited`. */
  maxRetryAfterSeconds?: number;
  /**
   * Mutating requests of this process with the same token and API origin go one at a time, at least this
   * many ms apart (GitHub: "wait at least one second between each request"). Default 1,000 for GitHub's
   * API origins (api.github.com, api.SUBDOMAIN.ghe.com), 0 (no pacing) elsewhere. See pacing.ts.
   */
  mutationSpacingMs?: number;
  cache?: RemoteApiCacheOptions;
  /**
   * The date of every commit this store creates (with `author`, which puts it in the commit): the same
   * change on the same parent then makes the same commit SHA (a review preview written again is the same
   * commit). Default: the time of the write.
   */
  commitDate?: Date;
  /** User-Agent header (default `docdb/0.1`). GitHub rejects requests without one. */
  userAgent?: string;
  /** Allow `http://` to a non-loopback host (default false: the token would travel in clear text). */
  allowInsecureHttp?: boolean;
  /** Commit author/committer. Default: omitted, so GitHub uses the token's user. */
  author?: { name: string; email: string };
  /** Inline content budget per create-tree request in bytes (default 1 MiB). */
  maxInlineBytes?: number;
  /** Sleep used by backoff and Retry-After waits (inject in tests). */
  sleep?: (ms: number) => Promise<void>;
  /** Random source in [0,1) for backoff jitter (inject in tests). */
  random?: () => number;
  /** Diagnostics sink (retries, waits, lost replies). Never receives a token. */
  logger?: (event: RemoteApiLogEvent) => void;
  /**
   * Trust a ref tip this store saw within this many ms for a write, skipping its ref read (default 0:
   * never). Saves the 304 of a write when no one else writes; costs an orphan commit, a rejected update
   * and 4 more requests when another writer moved the tip in that window, and makes request counts depend
   * on elapsed time. Opt in only for a single writer that writes in quick bursts.
   */
  trustCachedTipMs?: number;
  /**
   * Bulk reads through GitHub's archive of the section's commit (`nodeArchiveReader()` from `docdb/node`).
   * Omitted: the platform's default — in Node, `import … from 'docdb'` resolves to the Node entry point,
   * which makes it `nodeArchiveReader()`; browsers have none (codeload sends no CORS header). `false`: no
   * archive, so bulk reads batch blobs through GraphQL (with a token) or the blobs endpoint.
   */
  archive?: ArchiveReader | false;
  /**
   * Caps on what an archive may hold (default 160 MiB of tar in all, 200,000 entries, 100 MiB per entry,
   * 120 s). A section over `maxBytes` or `maxEntries` is read in batches instead (a `warn` log event).
   */
  archiveLimits?: Partial<ArchiveLimits>;
  /**
   * Largest API answer read, in bytes (an integer ≥ 1024), sent as every request's `maxResponseBytes`.
   * Default: the transport's cap, 160 MiB for the built-in transports — room for GitHub's largest answer,
   * a 100 MiB blob as base64 JSON (docs/transports.md § Response size). A larger answer fails with
   * `TransportError` (reason `too-large`) and is not retried. Raise it only for a trusted `apiUrl`.
   */
  maxResponseBytes?: number;
}

export interface ResolvedConfig {
  transport: HttpTransport;
  apiBase: string;
  apiOrigin: string;
  owner: string;
  repo: string;
  ref: string;
  /** Where the absent ref starts (`RemoteApiRefStoreOptions.startAt`), lower-case. */
  startAt: string | undefined;
  /** `RemoteApiRefStoreOptions.repositoryId`, checked. */
  repositoryId: string | undefined;
  /** Non-enumerable (a getter over a closure), so inspecting or serialising the config never shows it. */
  readonly token: string | undefined;
  credentials: RemoteApiRefStoreOptions['credentials'];
  retryConcurrentWrites: number;
  /** Backoff and budget for retries after lost races. */
  writeRetry: WriteRetryPolicy;
  now: () => number;
  readRetries: number;
  maxRetryAfterSeconds: number;
  /** Spacing of mutating requests in ms (0: none). */
  mutationSpacingMs: number;
  backend: CacheBackend;
  etag: boolean;
  userAgent: string;
  author: { name: string; email: string } | undefined;
  /** `RemoteApiRefStoreOptions.commitDate` (undefined: the time of each write). */
  commitDate: Date | undefined;
  maxInlineBytes: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: ((event: RemoteApiLogEvent) => void) | undefined;
  trustCachedTipMs: number;
  archive: ArchiveReader | undefined;
  archiveLimits: ArchiveLimits;
  /** Every request's `maxResponseBytes`; undefined: the transport's own cap. */
  maxResponseBytes: number | undefined;
}

const OWNER_RE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,98}[A-Za-z0-9])?$/;
const REPO_RE = /^[A-Za-z0-9._-]{1,100}$/;

function fail(field: string, message: string, allowed: string): never {
  throw new InvalidConfig(field, message, { allowed });
}

function checkStartAt(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !isSha(v)) {
    fail('startAt', `startAt must be a commit SHA (40 hex digits), got ${JSON.stringify(v)}`, 'a 40-hex commit SHA');
  }
  return v.toLowerCase();
}

function count(field: string, v: unknown, def: number, max: number): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
    fail(field, `${field} must be an integer from 0 to ${max}, got ${JSON.stringify(v)}`, `integer 0..${max}`);
  }
  return v;
}

/** True for hosts that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** Reject a token that cannot be a header value (never echoing the token). */
export function assertTokenShape(token: unknown, field: string): asserts token is string {
  if (typeof token !== 'string' || token.length === 0) {
    fail(field, `${field} must be a non-empty string`, 'a GitHub token (PAT, GITHUB_TOKEN, installation token)');
  }
  if (/[\s\u0000-\u001f\u007f]/.test(token) || !/^[\x21-\x7e]+$/.test(token)) {
    fail(
      field,
      `${field} contains whitespace or characters that cannot be sent in a header (value not shown)`,
      'printable ASCII without spaces',
    );
  }
}

/**
 * Validate options up front; throws InvalidConfig naming the field.
 *
 * @example
 * const cfg = resolveConfig({ transport: fetchTransport(), owner: 'octo', repo: 'data' });
 * cfg.apiBase; // 'https://api.github.com'
 */
export function resolveConfig(options: RemoteApiRefStoreOptions): ResolvedConfig {
  if (!options || typeof options !== 'object') fail('options', 'RemoteApiRefStore needs an options object', 'object');
  const transport = checkTransport(options.transport);
  const url = checkApiUrl(options.apiUrl ?? DEFAULT_API_URL, options.allowInsecureHttp);
  const apiBase = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  checkRepository(options.owner, options.repo);
  const ref = options.ref ?? DEFAULT_REF;
  assertValidRefName(ref, 'ref');
  const startAt = checkStartAt(options.startAt);
  const repositoryId = checkRepositoryId(options.repositoryId);
  checkAuth(options);
  const cache = resolveCache(options.cache ?? {});
  const userAgent = checkUserAgent(options.userAgent ?? DEFAULT_USER_AGENT);
  checkAuthor(options.author);
  checkHooks(options);
  const writeRetry = resolveWriteRetry(options);
  const cfg = {
    transport,
    apiBase,
    apiOrigin: url.origin,
    owner: options.owner,
    repo: options.repo,
    ref,
    startAt,
    repositoryId,
    credentials: options.credentials,
    retryConcurrentWrites: writeRetry.maxRetries,
    writeRetry,
    ...resolveLimits(options),
    ...cache,
    userAgent,
    author: options.author ? { name: options.author.name, email: options.author.email } : undefined,
    commitDate: checkCommitDate(options.commitDate),
    ...resolveHooks(options),
    ...resolveArchive(options),
    maxResponseBytes: checkMaxResponseBytes(options.maxResponseBytes),
    mutationSpacingMs: resolveMutationSpacing(options.mutationSpacingMs, url.origin),
  };
  return withHiddenToken(cfg, options.token);
}

/**
 * Add `token` as a non-enumerable getter over a closure: the store's modules read `cfg.token`, while
 * util.inspect, JSON.stringify and object spreads of the config (or of the store and client holding
 * it) never show the token.
 */
function withHiddenToken<T extends object>(
  cfg: T,
  token: string | undefined,
): T & { readonly token: string | undefined } {
  return Object.defineProperty(cfg, 'token', { get: () => token, enumerable: false }) as T & {
    readonly token: string | undefined;
  };
}

/**
 * The archive reader (a function; `false` for none; omitted, the platform's default from its entry point,
 * archive-default.ts) and its caps (positive integers), naming the field on a bad value.
 */
function resolveArchive(options: RemoteApiRefStoreOptions): Pick<ResolvedConfig, 'archive' | 'archiveLimits'> {
  const given = options.archive;
  if (given !== undefined && given !== false && typeof given !== 'function') {
    fail(
      'archive',
      `archive must be an archive reader function (nodeArchiveReader()) or false, got ${typeof given}`,
      'nodeArchiveReader(), false',
    );
  }
  const limits = { ...DEFAULT_ARCHIVE_LIMITS };
  for (const [k, v] of Object.entries(options.archiveLimits ?? {})) {
    if (!(k in limits)) fail(`archiveLimits.${k}`, `unknown archive limit ${k}`, Object.keys(limits).join(', '));
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      fail(
        `archiveLimits.${k}`,
        `archiveLimits.${k} must be a positive integer, got ${JSON.stringify(v)}`,
        'integer ≥ 1',
      );
    }
    limits[k as keyof ArchiveLimits] = v;
  }
  return { archive: given === false ? undefined : (given ?? platformArchiveReader()), archiveLimits: limits };
}

/** The store's response-size cap: undefined (the transport's), or an integer of at least 1 KiB. */
function checkMaxResponseBytes(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1024) {
    fail(
      'maxResponseBytes',
      `maxResponseBytes must be an integer number of bytes of at least 1024, got ${JSON.stringify(v)}`,
      'integer ≥ 1024 (default: the transport cap, 167772160 = 160 MiB)',
    );
  }
  return v;
}

function checkTransport(t: HttpTransport): HttpTransport {
  if (!t || typeof t.request !== 'function') {
    fail('transport', 'transport must be an HttpTransport (an object with request())', 'fetchTransport() etc.');
  }
  return t;
}

/** An absolute http(s) URL without credentials, query or fragment; plain http only to a loopback host. */
function checkApiUrl(apiUrlRaw: unknown, allowInsecureHttp: boolean | undefined): URL {
  let url: URL;
  try {
    if (typeof apiUrlRaw !== 'string') throw new Error('not a string');
    url = new URL(apiUrlRaw);
  } catch {
    fail(
      'apiUrl',
      `apiUrl ${JSON.stringify(apiUrlRaw)} is not an absolute URL`,
      'https://api.github.com or https://HOST/api/v3',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    fail('apiUrl', `apiUrl must use https: (or http: for loopback), got ${url.protocol}`, 'http(s) URL');
  }
  if (url.username || url.password) fail('apiUrl', 'apiUrl must not contain credentials', 'URL without user:password@');
  if (url.search || url.hash) fail('apiUrl', 'apiUrl must not have a query or fragment', 'URL without ? or #');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && allowInsecureHttp !== true) {
    fail(
      'apiUrl',
      `apiUrl ${url.origin} uses plain http to a non-loopback host; use https, or set allowInsecureHttp: true`,
      'https URL, or http to localhost/127.0.0.1/::1',
    );
  }
  return url;
}

/** Owner and repository names as GitHub allows them (they go into every URL). */
function checkRepository(owner: unknown, repo: unknown): void {
  if (typeof owner !== 'string' || !OWNER_RE.test(owner)) {
    fail(
      'owner',
      `owner ${JSON.stringify(owner)} is not a valid GitHub login`,
      'letters, digits, "-" and "_", not starting or ending with "-" or "_", at most 100 characters',
    );
  }
  if (
    typeof repo !== 'string' ||
    !REPO_RE.test(repo) ||
    repo === '.' ||
    repo === '..' ||
    repo.toLowerCase().endsWith('.git')
  ) {
    fail(
      'repo',
      `repo ${JSON.stringify(repo)} is not a valid repository name`,
      'letters, digits, ".", "-" and "_" (1-100 characters), not "." or "..", without a ".git" suffix',
    );
  }
}

/** A token or a credentials provider (not both), each of a usable shape. */
function checkAuth(options: RemoteApiRefStoreOptions): void {
  if (options.token !== undefined && options.credentials !== undefined) {
    fail('token', 'give either token or credentials, not both', 'token XOR credentials');
  }
  if (options.token !== undefined) assertTokenShape(options.token, 'token');
  if (options.credentials !== undefined && typeof options.credentials !== 'function') {
    fail('credentials', 'credentials must be a function returning a token (or a promise of one)', 'function');
  }
}

/** The cache backend (a bounded memory backend unless one is given) and whether ref reads are conditional. */
function resolveCache(cache: RemoteApiCacheOptions): Pick<ResolvedConfig, 'backend' | 'etag'> {
  if (typeof cache !== 'object' || cache === null)
    fail('cache', 'cache must be an object', '{ backend, maxBytes, etag }');
  const maxBytes = count('cache.maxBytes', cache.maxBytes, DEFAULT_CACHE_MAX_BYTES, Number.MAX_SAFE_INTEGER);
  let backend: CacheBackend;
  if (cache.backend === undefined || cache.backend === 'memory') backend = new MemoryCacheBackend({ maxBytes });
  else if (isCacheBackend(cache.backend)) backend = cache.backend;
  else fail('cache.backend', 'cache.backend must be "memory" or a CacheBackend', '"memory" | CacheBackend');
  if (cache.etag !== undefined && typeof cache.etag !== 'boolean') {
    fail('cache.etag', 'cache.etag must be a boolean', 'true | false');
  }
  return { backend, etag: cache.etag ?? true };
}

function isCacheBackend(b: unknown): b is CacheBackend {
  const c = b as Partial<CacheBackend> | null;
  return (
    typeof b === 'object' &&
    c !== null &&
    typeof c.get === 'function' &&
    typeof c.set === 'function' &&
    typeof c.delete === 'function' &&
    typeof c.entries === 'function'
  );
}

/** GitHub rejects requests without a User-Agent; a newline would split the header. */
function checkUserAgent(userAgent: unknown): string {
  if (typeof userAgent !== 'string' || userAgent.trim() === '' || /[\r\n]/.test(userAgent)) {
    fail('userAgent', 'userAgent must be a non-empty single-line string', 'e.g. "my-app/1.0"');
  }
  return userAgent;
}

/** A commit identity git can encode (`Name <email>`). */
function checkAuthor(author: RemoteApiRefStoreOptions['author']): void {
  if (author === undefined) return;
  if (!author || typeof author.name !== 'string' || !author.name.trim() || /[<>\n]/.test(author.name)) {
    fail('author.name', 'author.name must be a non-empty string without <, > or newlines', 'a name');
  }
  if (typeof author.email !== 'string' || !/^[^\s<>@]+@[^\s<>@]+$/.test(author.email)) {
    fail('author.email', 'author.email must look like an e-mail address', 'name@example.com');
  }
}

/** The injected functions (clock, sleep, randomness, logger), when given, must be functions. */
function checkHooks(options: RemoteApiRefStoreOptions): void {
  for (const field of ['sleep', 'random', 'logger', 'now'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'function') {
      fail(field, `${field} must be a function`, 'function');
    }
  }
}

/** Retry counts and size budgets, each a bounded integer. */
function resolveLimits(
  options: RemoteApiRefStoreOptions,
): Pick<ResolvedConfig, 'readRetries' | 'maxRetryAfterSeconds' | 'maxInlineBytes' | 'trustCachedTipMs'> {
  return {
    readRetries: count('readRetries', options.readRetries, DEFAULT_READ_RETRIES, 100),
    maxRetryAfterSeconds: count(
      'maxRetryAfterSeconds',
      options.maxRetryAfterSeconds,
      DEFAULT_MAX_RETRY_AFTER_SECONDS,
      86_400,
    ),
    maxInlineBytes: count('maxInlineBytes', options.maxInlineBytes, DEFAULT_MAX_INLINE_BYTES, 50 * 1024 * 1024) || 1,
    trustCachedTipMs: count(
      'trustCachedTipMs',
      options.trustCachedTipMs,
      DEFAULT_TRUST_CACHED_TIP_MS,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}

/** The injected functions, or the real clock, timers and randomness. */
function resolveHooks(options: RemoteApiRefStoreOptions): Pick<ResolvedConfig, 'now' | 'sleep' | 'random' | 'logger'> {
  return {
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: options.random ?? Math.random,
    logger: options.logger,
  };
}
