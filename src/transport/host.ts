/**
 * `hostTransport`: delegates to a host-provided function (HostHttpTransport in the spec) — in the
 * browser client that is `hostCapabilities.transport.http`, which performs `fetch()` in the page or
 * extension and hands back the response bytes.
 */
import { DocDbError } from '../core/errors.js';
import { capBytes, limitFor, type ResponseCaps, resolveCaps } from './limits.js';
import { type HttpRequest, type HttpResponse, type HttpTransport, lowercaseHeaders, transportError } from './types.js';

/** What a host function may return: headers as a record or as `[name, value]` pairs; body as bytes, ArrayBuffer or text. */
export interface HostHttpResponse {
  status: number;
  headers?: Record<string, string> | Iterable<[string, string]>;
  body?: Uint8Array | ArrayBuffer | string | null;
}

/** The host's request function (`hostCapabilities.transport.http`). It rejects only when there is no response. */
export type HostHttpFunction = (req: HttpRequest) => Promise<HostHttpResponse>;

/**
 * Wrap a host function as a transport. The response is normalised (lowercase header names, body as
 * `Uint8Array`); a rejection becomes a `TransportError` (reason `network`, or `aborted` when the
 * request's signal fired). The host reads the body itself (it gets the request's `maxResponseBytes` and
 * should stop there); what it hands back is held to the same caps as every transport's: a success body
 * over the cap is `TransportError` (reason `too-large`), an error body is cut to `maxErrorBodyBytes`.
 *
 * @example
 * const transport = hostTransport(hostCapabilities.transport.http);
 */
export function hostTransport(fn: HostHttpFunction, caps: ResponseCaps = {}): HttpTransport {
  if (typeof fn !== 'function') throw new TypeError('hostTransport needs a function (hostCapabilities.transport.http)');
  const resolved = resolveCaps(caps);
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      let res: HostHttpResponse;
      try {
        res = await fn(req);
      } catch (e) {
        if (e instanceof DocDbError) throw e;
        throw transportError(req, req.signal?.aborted ? 'aborted' : 'network', e);
      }
      if (!res || typeof res.status !== 'number' || !Number.isInteger(res.status)) {
        throw transportError(req, 'network', new Error('host function returned no status'));
      }
      const raw = res.body;
      const body =
        raw == null
          ? new Uint8Array(0)
          : typeof raw === 'string'
            ? new TextEncoder().encode(raw)
            : raw instanceof Uint8Array
              ? raw
              : new Uint8Array(raw);
      return {
        status: res.status,
        headers: lowercaseHeaders(res.headers ?? {}),
        body: capBytes(body, res.status, req, limitFor(req, resolved), resolved.maxErrorBodyBytes),
      };
    },
  };
}
