/**
 * What tests see of the emulator's traffic: the request log, the answer record handed to `onResponse`,
 * and the faults a test scripts. Imports nothing of the emulator (the public types in ./types.ts and the
 * request pipeline both build on it).
 */

/** One answer as `onResponse` sees it. */
export interface ResponseRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  /** OpenAPI operationId when the route is known. */
  operation?: string;
  /** Name of the injected fault that produced (or, for `drop-reply`, dropped) the answer. */
  fault?: Fault['kind'];
  /** True when the body was written by a test, not by the emulator (`status` faults with `body`, `malformed-json`). */
  injectedBody: boolean;
  headers: Record<string, string>;
  /** The body as sent (undefined for 204, 304, HEAD and bodiless faults). */
  body?: string;
}

export interface RequestLogEntry {
  method: string;
  /** Path without the query string, e.g. `/repos/o/r/git/ref/heads/main`. */
  path: string;
  /** Query string without the leading `?` ('' when none). */
  query: string;
  status: number;
  /** False for 304s of authorized requests, `GET /rate_limit`, preflights, rejected credentials, faults. */
  costsBudget: boolean;
  /** Whether a valid token was sent (the token itself is never recorded). */
  authenticated: boolean;
  /** OpenAPI operationId when the route is known, e.g. `git/get-ref`. */
  operation?: string;
  /** Name of the injected fault that answered the request, if any. */
  fault?: Fault['kind'];
  /**
   * Codeload (archive download) requests only: whether any `Authorization` header arrived. Always false
   * for a correct client — the API token must never leave the API origin.
   */
  sentAuthorization?: boolean;
  /**
   * A content-creating request as ./rations.ts counts them (every mutating REST request, every GraphQL
   * mutation), whether or not the limits are on; one a limit refused (`limited`) created nothing.
   */
  contentCreating?: boolean;
  /** The secondary rate limit that refused the request (`secondaryLimits` on; ./rations.ts), if any. */
  limited?: SecondaryLimitKind;
  /**
   * True when the caller sent it before a `retry-after` the emulator gave it had passed (a client that
   * honours GitHub's answers never does; `secondaryLimits` on).
   */
  insideRetryAfter?: boolean;
  /**
   * SHAs of the blobs whose bytes the answer carried (`GET /git/blobs/{sha}`, a file of the contents API,
   * GraphQL `Blob.text`); absent when none. A test checks with it which documents a client really read,
   * whichever route it read them by (a GraphQL body is not in this log). An archive download (codeload)
   * carries a whole commit and is not itemized.
   */
  blobs?: string[];
}

/** Which secondary rate limit refused a request (./rations.ts). */
export type SecondaryLimitKind = 'concurrent' | 'rest-points' | 'graphql-points' | 'content-minute' | 'content-hour';

export type Fault = {
  method?: string;
  /** String prefix of, or RegExp tested against, the path without the query. */
  path?: string | RegExp;
  /** How many matching requests to affect (default 1). */
  times?: number;
  /** Let this many matching requests through first (default 0). */
  skip?: number;
} & (
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'secondary-rate-limit'; status?: 403 | 429; retryAfter: number }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'malformed-json' }
  | { kind: 'drop-reply' }
);
