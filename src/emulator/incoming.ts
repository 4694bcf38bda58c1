/**
 * Reading a request the way the pipeline needs it: the method, the raw path and query (never
 * normalised, so `..` segments cannot reach another route), the URL bases for bodies, and the whole
 * body up to the size limit.
 */
import { concatBytes } from '../core/bytes.js';
import type { Urls } from './model.js';
import type { RequestLogEntry } from './traffic.js';

/** What an adapter knows beyond the Request (like Hono's `env`). */
export interface RequestEnv {
  /**
   * The request-target as the client sent it (path and query), unnormalised. A `Request` URL has
   * `..` segments resolved; the node adapter passes the raw target so a traversal never reaches
   * another route.
   */
  rawTarget?: string;
}

export interface Body {
  bytes: Uint8Array;
  tooLarge: boolean;
  size: number;
}

/** One request, read. */
export interface Incoming {
  request: Request;
  /** Upper-cased. */
  method: string;
  /** The raw path, without the query string. */
  path: string;
  /** The raw query string without `?` ('' when none). */
  queryString: string;
  query: URLSearchParams;
  /** `api` is the request's own origin, so URLs in bodies lead back to this emulator. */
  urls: Urls;
  body: Body;
}

/**
 * Read the request line and the body (keeping at most `maxBodyBytes`).
 *
 * @example
 * const incoming = await readIncoming(new Request('http://em.local/rate_limit'), {}, 1024);
 * incoming.path; // '/rate_limit'
 */
export async function readIncoming(request: Request, env: RequestEnv, maxBodyBytes: number): Promise<Incoming> {
  const url = new URL(request.url);
  const raw = env.rawTarget ?? `${url.pathname}${url.search}`;
  const qi = raw.indexOf('?');
  // The raw path is matched without normalisation, so `..` segments can never reach another route.
  const path = qi < 0 ? raw : raw.slice(0, qi);
  const queryString = qi < 0 ? '' : raw.slice(qi + 1);
  return {
    request,
    method: request.method.toUpperCase(),
    path,
    queryString,
    query: new URLSearchParams(queryString),
    urls: { api: url.origin, html: 'https://github.com' },
    body: await readBody(request, maxBodyBytes),
  };
}

/** Read the whole body, keeping at most `limit` bytes (the rest is drained so the reply can be read). */
async function readBody(request: Request, limit: number): Promise<Body> {
  if (!request.body) return { bytes: new Uint8Array(0), tooLarge: false, size: 0 };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLarge = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      tooLarge = true;
      chunks.length = 0;
    } else if (!tooLarge) chunks.push(value);
  }
  return { bytes: concatBytes(chunks), tooLarge, size };
}

/**
 * The request log entry of a request, before anything is known of its answer.
 *
 * @example
 * logEntryOf(incoming); // { method: 'GET', path: '/rate_limit', query: '', status: 0, … }
 */
export function logEntryOf(incoming: Incoming): RequestLogEntry {
  return {
    method: incoming.method,
    path: incoming.path,
    query: incoming.queryString,
    status: 0,
    costsBudget: false,
    authenticated: false,
  };
}
