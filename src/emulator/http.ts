/** Response values, GitHub-style errors and header constants shared by the emulator's routes. */

/** What a route handler returns; the server adds CORS, rate-limit, ETag and content-type headers. */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A body that is not JSON (the contents API's raw media type, an archive): sent as these bytes with this
   * content type, with an ETag like any 2xx answer. `body` is ignored when it is set.
   */
  raw?: { bytes: Uint8Array; contentType: string };
  /** SHAs of the blobs whose bytes the answer carries, for the request log (`RequestLogEntry.blobs`). */
  blobs?: string[];
}

/** `X-GitHub-Api-Version` values GitHub accepts (any other is 400); the one sent is echoed back as selected. */
export const SUPPORTED_API_VERSIONS: ReadonlySet<string> = new Set(['2022-11-28', '2026-03-10']);

/** GitHub's documentation root; error bodies point here when there is no better page. */
export const DOCS = 'https://docs.github.com/rest';

/**
 * A GitHub-style error answer: `{message, documentation_url, status}` (+ `errors` for validation
 * failures). GitHub has sent `status` as a string in error bodies since 2023.
 *
 * @example
 * throw new ApiError(422, 'Reference already exists', doc);
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly documentationUrl: string = DOCS,
    readonly errors?: unknown[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): Record<string, unknown> {
    return {
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
      documentation_url: this.documentationUrl,
      status: String(this.status),
    };
  }
}

/**
 * 404 "Not Found", GitHub's answer for anything missing or invisible to the caller.
 *
 * @example
 * if (!sha) throw notFound(DOC.getRef);
 */
export const notFound = (doc = DOCS): ApiError => new ApiError(404, 'Not Found', doc);

/**
 * 422 for a request body that fails the operation's JSON schema, in GitHub's "Invalid request." form.
 *
 * @example
 * throw invalidRequest('"sha" wasn\'t supplied.', doc);
 */
export const invalidRequest = (detail: string, doc = DOCS): ApiError =>
  new ApiError(422, `Invalid request.\n\n${detail}`, doc);

/** Headers api.github.com exposes to browsers (copied from a recorded response). */
export const EXPOSED_HEADERS =
  'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';

/** Request headers api.github.com allows in a CORS preflight. */
export const ALLOWED_HEADERS =
  'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, X-GitHub-OTP, X-Requested-With, User-Agent, GraphQL-Features, X-Github-Next-Global-ID, X-GitHub-Api-Version';

export const ALLOWED_METHODS = 'GET, POST, PATCH, PUT, DELETE';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Headers api.github.com sends on every response (CORS included), with a fresh request id.
 *
 * @example
 * new Response(body, { headers: { ...baseHeaders(), 'Content-Type': JSON_TYPE } });
 */
export function baseHeaders(): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    'Content-Security-Policy': "default-src 'none'",
    'Referrer-Policy': 'origin-when-cross-origin, strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'deny',
    'X-XSS-Protection': '0',
    'X-GitHub-Media-Type': 'github.v3; format=json',
    'X-GitHub-Api-Version-Selected': '2022-11-28',
    'X-GitHub-Request-Id': `0000:${Math.floor(Math.random() * 0xffffff)
      .toString(16)
      .toUpperCase()}`,
  };
}
