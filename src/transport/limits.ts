/**
 * Response-size caps every built-in transport applies while it reads a body (docs/transports.md § Response
 * size). GitHub is trusted, but an `apiUrl` can point at any server (GitHub Enterprise Server, a proxy, a
 * hostile host): without a cap a body that never ends grows until the timeout, and an error body is kept
 * whole although only its `message` is ever shown.
 * - A success body (2xx) larger than `maxResponseBytes` is refused with `TransportError` (reason
 *   `too-large`) as soon as it passes the cap (or at once when its `Content-Length` says so); nothing more
 *   is read.
 * - Any other answer (3xx, 304, 4xx, 5xx) keeps the first `maxErrorBodyBytes` of its body and the rest is
 *   cancelled: the status is what a caller maps to its typed error, and a message fits in the prefix.
 */
import { concatBytes } from '../core/bytes.js';
import { TransportError } from '../core/errors.js';
import { describeUrl, type HttpRequest } from './types.js';

const MiB = 1024 * 1024;

/**
 * Default cap on a success body: 160 MiB. GitHub's largest legitimate answers are
 * - a 100 MiB blob (its file limit) from `GET /git/blobs/{sha}`: base64 (×4/3) with a newline every 60
 *   characters, each written `\n` in JSON (×62/60): 144,470,474 bytes ≈ 137.8 MiB, plus a few hundred of JSON;
 * - the same file as a raw contents read (`application/vnd.github.raw`): 100 MiB;
 * - a recursive tree listing: GitHub stops it at 7 MB;
 * - a GraphQL batch of 100 blobs (GRAPHQL_BLOB_BATCH), each `text` cut at 512,000 bytes: 51.2 MB, so JSON
 *   escaping may triple it and it still fits.
 * 160 MiB leaves 16% above the largest of them.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 160 * MiB;

/**
 * Default bytes kept of an error body (any status outside 2xx): 8 KiB. GitHub's error bodies are a
 * `message`, a `documentation_url` and at most a short `errors` list — a few hundred bytes.
 */
export const DEFAULT_MAX_ERROR_BODY_BYTES = 8 * 1024;

/** Caps a transport applies when a request does not set its own `maxResponseBytes`. */
export interface ResponseCaps {
  /** Largest success (2xx) body, in bytes (default {@link DEFAULT_MAX_RESPONSE_BYTES}). */
  maxResponseBytes?: number;
  /** Bytes kept of any other answer's body; the rest is never read (default {@link DEFAULT_MAX_ERROR_BODY_BYTES}). */
  maxErrorBodyBytes?: number;
}

/** Caps with every default filled in. */
export type ResolvedCaps = Required<ResponseCaps>;

/**
 * Validate and complete transport caps; a bad value is a `TypeError` naming the option (as `timeoutMs`).
 *
 * @example
 * resolveCaps({ maxResponseBytes: 1 << 20 }); // { maxResponseBytes: 1048576, maxErrorBodyBytes: 8192 }
 */
export function resolveCaps(caps: ResponseCaps = {}): ResolvedCaps {
  return {
    maxResponseBytes: positive('maxResponseBytes', caps.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    maxErrorBodyBytes: positive('maxErrorBodyBytes', caps.maxErrorBodyBytes, DEFAULT_MAX_ERROR_BODY_BYTES),
  };
}

function positive(name: string, v: number | undefined, def: number): number {
  if (v === undefined) return def;
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new TypeError(`${name} must be a positive integer number of bytes, got ${String(v)}`);
  }
  return v;
}

/** True for an answer whose body is an error's (only its prefix is read): anything outside 2xx. */
export function isErrorStatus(status: number): boolean {
  return status < 200 || status > 299;
}

/** The cap that applies to one request: its own, else the transport's. */
export function limitFor(req: Pick<HttpRequest, 'maxResponseBytes'>, caps: ResolvedCaps): number {
  return req.maxResponseBytes ?? caps.maxResponseBytes;
}

/**
 * The `TransportError` (reason `too-large`) for a body over `limit`; its message says the limit and how to
 * raise it. `declared`: the `Content-Length` that gave it away before any byte was read.
 *
 * @example
 * throw tooLargeError({ method: 'GET', url }, DEFAULT_MAX_RESPONSE_BYTES);
 */
export function tooLargeError(
  req: Pick<HttpRequest, 'method' | 'url' | 'maxResponseBytes'>,
  limit: number,
  declared?: number,
): TransportError {
  const method = req.method.toUpperCase();
  const url = describeUrl(req.url);
  const size = declared === undefined ? `more than ${limit} bytes` : `${declared} bytes (Content-Length)`;
  const own = req.maxResponseBytes !== undefined;
  const hint = own
    ? `the limit set for this request (maxResponseBytes: ${limit})`
    : `the transport's response-size limit (maxResponseBytes: ${limit}, ${formatMiB(limit)}); if this server is trusted to send more, raise maxResponseBytes (an option of fetchTransport, octokitTransport, createOctokit and RemoteApiRefStore)`;
  return new TransportError(
    `${method} ${url} answered ${size}, over ${hint}`,
    { method, url, reason: 'too-large', limit, ...(declared !== undefined ? { declared } : {}) },
    { cause: new Error('response too large') },
  );
}

function formatMiB(n: number): string {
  return n >= MiB ? `${+(n / MiB).toFixed(1)} MiB` : `${n} bytes`;
}

/**
 * Read a response body under the caps: for a success status, every chunk up to `limit` (over it:
 * `tooLargeError`, the stream cancelled); for any other status, the first `errorLimit` bytes (the rest
 * cancelled). Chunks are returned as read, so a caller can rebuild a stream without a copy.
 *
 * @example
 * const chunks = await readCapped(res.body, res.status, res.headers.get('content-length'), req, 1 << 20, 8192);
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  status: number,
  contentLength: string | null,
  req: Pick<HttpRequest, 'method' | 'url' | 'maxResponseBytes'>,
  limit: number,
  errorLimit: number,
): Promise<Uint8Array[]> {
  if (!body) return [];
  const error = isErrorStatus(status);
  const declared = Number(contentLength ?? Number.NaN);
  if (!error && declared > limit) {
    stop(body.cancel());
    throw tooLargeError(req, limit, declared);
  }
  const max = error ? Math.min(errorLimit, limit) : limit;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    if (total + value.length > max) {
      // Stop reading here: the server may be writing forever.
      stop(reader.cancel());
      if (!error) throw tooLargeError(req, limit);
      chunks.push(value.subarray(0, max - total));
      return chunks;
    }
    total += value.length;
    chunks.push(value);
  }
}

/**
 * Cancel without waiting: the cancel of one branch of a tee'd body (`Response.clone()`) settles only once
 * the other branch is cancelled too, which may be never.
 */
function stop(cancel: Promise<void>): void {
  cancel.catch(() => {});
}

/**
 * A body that is already in memory (a host function's) held to the same caps: over `limit` on success is
 * `tooLargeError`; an error body is cut to `errorLimit`.
 *
 * @example
 * const body = capBytes(bytes, 500, req, caps.maxResponseBytes, caps.maxErrorBodyBytes);
 */
export function capBytes(
  bytes: Uint8Array,
  status: number,
  req: Pick<HttpRequest, 'method' | 'url' | 'maxResponseBytes'>,
  limit: number,
  errorLimit: number,
): Uint8Array {
  if (!isErrorStatus(status)) {
    if (bytes.length > limit) throw tooLargeError(req, limit);
    return bytes;
  }
  const max = Math.min(errorLimit, limit);
  return bytes.length > max ? bytes.subarray(0, max) : bytes;
}

/** Join the chunks {@link readCapped} returned. */
export const joinChunks = (chunks: Uint8Array[]): Uint8Array =>
  chunks.length === 1 ? (chunks[0] as Uint8Array) : concatBytes(chunks);
