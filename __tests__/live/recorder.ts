/**
 * A transport that counts and records every exchange of a live session, in the format of
 * `@octokit/fixtures` (`normalized-fixture.json`: method, path, body, status, response, reqheaders,
 * headers), so a session recorded on real GitHub replays against the emulator (replay.ts). The token is
 * removed from everything recorded: the Authorization header is dropped and any occurrence of the token
 * in a URL, header or body is replaced by `<token>` before anything is kept.
 */
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/transport/types.js';

/** One recorded exchange (the @octokit/fixtures shape). */
export interface Exchange {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  response: unknown;
  reqheaders: Record<string, string>;
  headers: Record<string, string>;
}

/** Response headers worth keeping (the replay checks these; the rest is noise or per-request). */
const KEPT_HEADERS = ['content-type', 'etag', 'location', 'link', 'cache-control', 'x-ratelimit-resource'];

export interface Recorder extends HttpTransport {
  readonly exchanges: Exchange[];
  /** Requests sent so far (a store's request budget is asserted against this). */
  readonly count: number;
}

function json(bytes: Uint8Array | undefined): unknown {
  if (!bytes || bytes.length === 0) return '';
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Wrap `inner`; `apiUrl` is the API base the paths are recorded relative to.
 *
 * @example
 * const rec = recorder(fetchTransport(), 'https://api.github.com', token);
 * const store = new RemoteApiRefStore({ transport: rec, … });
 */
export function recorder(inner: HttpTransport, apiUrl: string, token: string): Recorder {
  const exchanges: Exchange[] = [];
  const base = new URL(apiUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const scrub = (text: string) => (token ? text.split(token).join('<token>') : text);
  let count = 0;
  return {
    exchanges,
    get count() {
      return count;
    },
    async request(req: HttpRequest): Promise<HttpResponse> {
      count++;
      const res = await inner.request(req);
      const url = new URL(req.url);
      const reqheaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (k.toLowerCase() !== 'authorization') reqheaders[k.toLowerCase()] = scrub(v);
      }
      const headers: Record<string, string> = {};
      for (const h of KEPT_HEADERS) if (res.headers[h] !== undefined) headers[h] = scrub(res.headers[h]!);
      const body = json(req.body);
      const exchange: Exchange = {
        method: req.method.toLowerCase(),
        path: scrub(`${url.pathname.slice(prefix.length)}${url.search}`),
        ...(body === '' ? {} : { body: JSON.parse(scrub(JSON.stringify(body))) }),
        status: res.status,
        response: JSON.parse(scrub(JSON.stringify(json(res.body)))),
        reqheaders,
        headers,
      };
      exchanges.push(exchange);
      return res;
    },
  };
}
