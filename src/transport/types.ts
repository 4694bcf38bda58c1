/**
 * The HTTP transport seam. A transport moves bytes and nothing else: it never interprets a status
 * code (304, 4xx and 5xx all come back as responses) and rejects only when there is no HTTP response
 * at all (connection refused/reset, timeout, abort). Status codes are mapped to typed errors in ONE
 * place above it (`src/stores/remote-api/status.ts`).
 */
import { TransportError } from '../core/errors.js';

/** One HTTP request. Header names may be in any case; transports send them as given. */
export interface HttpRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  signal?: AbortSignal;
  /**
   * `'manual'`: hand a redirect (3xx) back as the response instead of following it, so the caller
   * decides where its credentials may go (a browser gives an opaque redirect: status 0). Default `'follow'`.
   */
  redirect?: 'follow' | 'manual';
  /**
   * Reject with `TransportError` (reason `too-large`) once a success (2xx) body exceeds this many bytes;
   * default: the transport's own cap (160 MiB unless configured; src/transport/limits.ts). The body of
   * any other status is cut at the transport's `maxErrorBodyBytes` (default 8 KiB) instead.
   */
  maxResponseBytes?: number;
}

/** One HTTP response. Header names are lowercase; repeated headers are joined with ", ". */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The one operation a transport offers. */
export interface HttpTransport {
  request(req: HttpRequest): Promise<HttpResponse>;
}

/** Why a transport failed without a response (`TransportError.data.reason`). */
export type TransportFailure = 'network' | 'timeout' | 'aborted' | 'too-large';

/** Methods whose retry cannot change server state (RFC 9110 §9.2.2, minus DELETE/PUT which we never retry blindly). */
export function isSafeMethod(method: string): boolean {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD' || m === 'OPTIONS';
}

/** URL without query or fragment, for messages (the query may carry a key path; never a token). */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}

/** Build the TransportError every built-in transport rejects with (`too-large`: `tooLargeError` in limits.ts). */
export function transportError(
  req: HttpRequest,
  reason: Exclude<TransportFailure, 'too-large'>,
  cause: unknown,
): TransportError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const what =
    reason === 'timeout' ? 'timed out' : reason === 'aborted' ? 'was aborted' : `failed without a response (${why})`;
  return new TransportError(
    `${req.method.toUpperCase()} ${describeUrl(req.url)} ${what}`,
    { method: req.method.toUpperCase(), url: describeUrl(req.url), reason },
    { cause },
  );
}

/** Lowercase every header name (joining duplicates with ", "). */
export function lowercaseHeaders(
  headers: Record<string, string | number | string[] | undefined> | Iterable<[string, string]>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (k: string, v: unknown) => {
    if (v === undefined || v === null) return;
    const name = k.toLowerCase();
    const value = Array.isArray(v) ? v.join(', ') : String(v);
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  };
  if (Symbol.iterator in headers) {
    for (const [k, v] of headers as Iterable<[string, string]>) add(k, v);
  } else {
    for (const [k, v] of Object.entries(headers)) add(k, v);
  }
  return out;
}
