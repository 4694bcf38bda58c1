/**
 * `fetchTransport`: the standard transport (StdHttpTransport in the spec) over the platform's
 * `fetch` — Node's global fetch or the browser's.
 */
import { TransportError } from '../core/errors.js';
import { joinChunks, limitFor, type ResponseCaps, readCapped, resolveCaps } from './limits.js';
import { type HttpRequest, type HttpResponse, type HttpTransport, lowercaseHeaders, transportError } from './types.js';

/**
 * Options of {@link fetchTransport}. `maxResponseBytes` (default 160 MiB) caps a success body unless the
 * request sets its own; `maxErrorBodyBytes` (default 8 KiB) is what is kept of any other answer's body.
 */
export interface FetchTransportOptions extends ResponseCaps {
  /** The fetch to use (default: `globalThis.fetch`, read at request time so tests can stub it). */
  fetch?: typeof globalThis.fetch;
  /** Abort a request (including reading its body) after this many milliseconds. Default 30 000; 0 = no timeout. */
  timeoutMs?: number;
}

/** Default per-request timeout of {@link fetchTransport}. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A transport over `fetch`. Every request is sent with `cache: "no-store"`: api.github.com answers
 * `Cache-Control: private, max-age=60`, so a browser's HTTP cache could otherwise serve a stale ref
 * tip; docdb does its own caching (ETag on the ref, immutable objects by SHA). Bodies are read under the
 * caps of limits.ts: a success body over `maxResponseBytes` is refused (`TransportError`, reason
 * `too-large`), an error body is cut at `maxErrorBodyBytes` and the rest never read.
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
  const caps = resolveCaps(options);
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
        const chunks = await readCapped(
          res.body,
          res.status,
          res.headers.get('content-length'),
          req,
          limitFor(req, caps),
          caps.maxErrorBodyBytes,
        );
        return {
          status: res.status,
          headers: lowercaseHeaders(res.headers as unknown as Iterable<[string, string]>),
          body: joinChunks(chunks),
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
