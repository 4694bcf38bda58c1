/** Options of GitHttpRefStore, validated up front (`InvalidConfig` naming the field, never echoing a token). */
import { type CacheBackend, MemoryCacheBackend } from '../../cache/backend.js';
import type { WriteRetryOptions } from '../../core/backoff.js';
import { InvalidConfig } from '../../core/errors.js';
import { fetchTransport } from '../../transport/fetch.js';
import type { HttpTransport } from '../../transport/types.js';
import { type ResolvedCommon, resolveCommon } from '../git/options.js';
import type { RemoteApiLogEvent } from '../remote-api/index.js';
import { assertCredentialShape, defaultUsername, parseRemote, type Remote } from './remote.js';

export interface GitHttpRefStoreOptions extends WriteRetryOptions {
  /** The repository's smart-HTTP URL: `https://host/owner/repo.git` (no credentials in it). */
  remote: string;
  /** Section ref (default `refs/docdb/documents`). */
  ref?: string;
  /** Token, sent as the HTTP Basic password to the remote's origin only; never cached or logged. */
  token?: string;
  /** Username sent with the token (default by host: `x-access-token`, `oauth2` on GitLab, … see docs). */
  username?: string;
  /** Allow plain http to a non-loopback host (default false). */
  allowInsecureHttp?: boolean;
  /** The HTTP transport (default `fetchTransport({ timeoutMs })`: global fetch in Node and browsers). */
  transport?: HttpTransport;
  /** Per-request timeout of the default transport in ms (default 30,000). */
  timeoutMs?: number;
  /** Where fetched and written objects are kept, by SHA (default a 64 MiB memory LRU; IndexedDB in browsers). */
  cache?: CacheBackend;
  /** Commit author and committer (default `docdb <docdb@users.noreply.github.com>`). */
  author?: { name: string; email: string };
  /** Clock in milliseconds for commit dates. */
  now?: () => number;
  /**
   * Largest fetch reply (a pack) accepted, in bytes (default 64 MiB: a refused reply costs about 3 × its
   * size while it is received and checked, so a hostile server stays within ~200 MiB; the default cache
   * holds 64 MiB of objects anyway). Raise it, with `cache` and `maxInflatedBytes`, for a larger section.
   */
  maxFetchBytes?: number;
  /**
   * Most bytes one fetched pack may expand to: the sum of the sizes of its objects, a delta counted at
   * its result's size, plus 1 KiB per object (default 256 MiB). Checked before anything is inflated for
   * real; an accepted pack holds about this much in memory while it is read (docs/git-stores.md).
   */
  maxInflatedBytes?: number;
  /** Most milliseconds reading one fetched pack may take, after its download (default 120,000). */
  maxParseMs?: number;
  /** Most history-deepening round trips one operation may make (default 24). */
  maxRoundTrips?: number;
  /** User-Agent in Node (browsers send their own); git hosts expect one starting with `git/`. */
  userAgent?: string;
  /** Diagnostics (requests, retries). Never receives the token. */
  logger?: (event: RemoteApiLogEvent) => void;
  /** Wait between write retries, given the shared backoff's delay in ms (inject in tests; default a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Random source in [0, 1) for the backoff's jitter (inject in tests; default Math.random). */
  random?: () => number;
}

/** The options in use — without the token, which only the HTTP client holds (in a private field). */
export interface ResolvedGitHttp {
  remote: Remote;
  common: ResolvedCommon;
  username: string;
  transport: HttpTransport;
  cache: CacheBackend;
  userAgent: string;
  limits: {
    maxAdvertisementBytes: number;
    maxFetchBytes: number;
    maxObjects: number;
    maxObjectBytes: number;
    maxInflatedBytes: number;
    maxParseMs: number;
    maxRounds: number;
  };
  logger: ((event: RemoteApiLogEvent) => void) | undefined;
  /** The retry loop's waits and jitter, when injected. */
  backoff: { sleep?: (ms: number) => Promise<void>; random?: () => number };
}

const MiB = 1024 * 1024;

function positiveInt(field: string, v: unknown, def: number, max: number): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
    throw new InvalidConfig(field, `${field} must be an integer from 1 to ${max}`, { allowed: `1..${max}` });
  }
  return v;
}

/**
 * Validate the options and fill in defaults.
 *
 * @example
 * resolveGitHttp({ remote: 'https://gitea.example.com/o/data.git', token }).username; // 'docdb'
 */
export function resolveGitHttp(o: GitHttpRefStoreOptions): ResolvedGitHttp {
  if (!o || typeof o !== 'object') {
    throw new InvalidConfig('options', 'GitHttpRefStore needs an options object', { allowed: '{ remote }' });
  }
  const remote = parseRemote(o.remote, o);
  if (o.token !== undefined) assertCredentialShape(o.token, 'token');
  if (o.username !== undefined) assertCredentialShape(o.username, 'username');
  if (o.cache !== undefined && typeof o.cache?.get !== 'function') {
    throw new InvalidConfig('cache', 'cache must be a cache backend (get, set, delete, entries)', {
      allowed: 'CacheBackend',
    });
  }
  if (o.transport !== undefined && typeof o.transport?.request !== 'function') {
    throw new InvalidConfig('transport', 'transport must have a request() method', { allowed: 'HttpTransport' });
  }
  for (const field of ['sleep', 'random', 'logger'] as const) {
    if (o[field] !== undefined && typeof o[field] !== 'function') {
      throw new InvalidConfig(field, `${field} must be a function`, { allowed: 'function' });
    }
  }
  const timeoutMs = positiveInt('timeoutMs', o.timeoutMs, 30_000, 3_600_000);
  const maxFetchBytes = positiveInt('maxFetchBytes', o.maxFetchBytes, 64 * MiB, 4096 * MiB);
  return {
    remote,
    common: resolveCommon(o),
    username: o.username ?? defaultUsername(new URL(remote.origin).hostname),
    transport: o.transport ?? fetchTransport({ timeoutMs }),
    cache: o.cache ?? new MemoryCacheBackend(),
    userAgent: o.userAgent ?? 'git/docdb',
    limits: {
      maxAdvertisementBytes: 16 * MiB,
      maxFetchBytes,
      maxObjects: 5_000_000,
      // The largest value any store accepts, plus room for a tree or commit of that order.
      maxObjectBytes: 128 * MiB,
      // An honest pack of small JSON documents expands ~8x, plus the 1 KiB charged per object (docs/git-stores.md).
      maxInflatedBytes: positiveInt('maxInflatedBytes', o.maxInflatedBytes, 256 * MiB, 65536 * MiB),
      maxParseMs: positiveInt('maxParseMs', o.maxParseMs, 120_000, 3_600_000),
      maxRounds: positiveInt('maxRoundTrips', o.maxRoundTrips, 24, 1000),
    },
    logger: o.logger,
    backoff: { ...(o.sleep ? { sleep: o.sleep } : {}), ...(o.random ? { random: o.random } : {}) },
  };
}
