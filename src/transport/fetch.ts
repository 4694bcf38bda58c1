/**
 * `fetchTransport`: the standard transport (StdHttpTransport in the spec) over the platform's
 * `fetch` — Node's global fetch or the browser's.
 */
import { concatBytes } from '../core/bytes.js';
import { TransportError } from '../core/errors.js';
import { type HttpRequest, type HttpResponse, type HttpTransport, lowercaseHeaders, transportError } from './types.js';

export interface FetchTransportOptions {
  /** The fetch to use (default: `globalThis.fetch`, read at request time so tests can stub it). */
  fetch?: typeof globalThis.fetch;
  /** Abort a request (including reading its body) after this many milliseconds. Default 30 000; 0 = no timeout. */
  timeoutMs?: number;
}

/** Default per-request timeout of {@link fetchTransport}. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The response body, or null as soon as it grows past `max` bytes (the rest is never read: the
 * stream is cancelled). Without a limit, the whole body.
 */
async function readBody(res: Response, max: number | undefined): Promise<Uint8Array | null> {
  if (max === undefined || !res.body) return new Uint8Array(await res.arrayBuffer());
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body.cancel().catch(() => {});
    return null;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/**
 * A transport over `fetch`. Every request is sent with `cache: "no-store"`: api.github.com answers
 * `Cache-Control: private, max-age=60`, so a browser's HTTP cache could otherwise serve a stale ref
 * tip; docdb does its own caching (ETag on the ref, immutable objects by SHA).
 *
 * @example
 * const transport = fetchTransport({ timeoutMs: 10_000 });
 * const res = await transport.request({ method: 'GET', url: 'https://api.github.com/zen', headers: {} });
 * res.status; // 200
 */
export function fetchTransport(options: FetchTransportOptions = {}): HttpTransport {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new TypeError(`timeoutMs must be a non-negative number of milliseconds, got ${String(options.timeoutMs)}`);
  }
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const fetchFn = options.fetch ?? globalThis.fetch;
      if (typeof fetchFn !== 'function') {
        throw new TransportError('no fetch implementation: pass fetchTransport({ fetch })', { reason: 'network' });
      }
      const controller = new AbortController();
      let timedOut = false;
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              timedOut = true;
              controller.abort();
            }, timeoutMs)
          : undefined;
      const onAbort = () => controller.abort();
      if (req.signal) {
        if (req.signal.aborted) controller.abort();
        else req.signal.addEventListener('abort', onAbort, { once: true });
      }
      try {
        const init: RequestInit = {
          method: req.method,
          headers: req.headers,
          signal: controller.signal,
          cache: 'no-store',
          redirect: req.redirect ?? 'follow',
        };
        if (req.body !== undefined) init.body = req.body as unknown as BodyInit;
        const res = await fetchFn(req.url, init);
        const body = await readBody(res, req.maxResponseBytes);
        if (body === null) throw transportError(req, 'too-large', new Error('response too large'));
        return {
          status: res.status,
          headers: lowercaseHeaders(res.headers as unknown as Iterable<[string, string]>),
          body,
        };
      } catch (e) {
        if (e instanceof TransportError) throw e;
        throw transportError(req, timedOut ? 'timeout' : req.signal?.aborted ? 'aborted' : 'network', e);
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
