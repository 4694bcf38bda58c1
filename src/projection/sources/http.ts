/**
 * `type: http` — JSON, NDJSON or CSV from URLs listed in the spec. The GitHub token is never sent (this
 * uses plain `fetch`, not Octokit); the only credential is the optional `header`, whose value comes from a
 * named environment variable (a workflow secret) and is sent only to the listed hosts. Redirects are
 * followed by hand, and only to a host the spec allows (a listed URL's host or `allow-hosts`).
 */
import { InvalidConfig, InvalidResponse, NotFound, TransportError } from '../../core/errors.js';
import { isLoopbackHost, type SourceSpec } from '../spec/index.js';
import { type DataFormat, formatOfContentType, formatOfName, parseItems } from './formats.js';
import type { ReadContext } from './read-context.js';
import { SOURCE_OPERATION } from './source-error.js';
import type { SourcePage } from './types.js';

type HttpSpec = Extract<SourceSpec, { type: 'http' }>;

/** Largest body accepted (bytes). */
export const MAX_HTTP_BYTES = 50 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * Every URL of an `http` source, one page per URL.
 *
 * @example
 * for await (const page of readHttp(ctx, { type: 'http', url: ['https://example.com/a.json'] })) …
 */
export async function* readHttp(ctx: ReadContext, source: HttpSpec): AsyncGenerator<SourcePage> {
  const allowed = new Set([...source.url.map((u) => new URL(u).host.toLowerCase()), ...(source['allow-hosts'] ?? [])]);
  const headers: Record<string, string> = {
    accept: 'application/json, application/x-ndjson, text/csv;q=0.9, */*;q=0.5',
  };
  if (source.header) {
    const value = ctx.env[source.header.env];
    if (value === undefined || value === '') {
      throw new InvalidConfig(
        'source.header.env',
        `http source: environment variable ${source.header.env} (for the ${source.header.name} header) is not set; pass the secret to the step, e.g. env: { ${source.header.env}: \${{ secrets.${source.header.env} }} }`,
      );
    }
    headers[source.header.name.toLowerCase()] = `${source.header.prefix ?? ''}${value}`;
  }
  let page = 0;
  for (const url of source.url) {
    const key = `GET ${url}`;
    const etag = ctx.book.etags(key)?.[0];
    const res = await fetchAllowed(ctx, url, { ...headers, ...(etag ? { 'if-none-match': etag } : {}) }, allowed);
    page++;
    if (res.status === 304 && etag) {
      ctx.book.save(key, ctx.book.previous(key)!);
      yield { repository: url, page, items: [], conditional: { key, notModified: true } };
      continue;
    }
    if (res.status === 404)
      throw new NotFound(`http source: GET ${url} answered 404`, { url, operation: SOURCE_OPERATION });
    if (res.status < 200 || res.status > 299) {
      throw new InvalidResponse(`http source: GET ${url} answered ${res.status}`, { url, status: res.status });
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > MAX_HTTP_BYTES) {
      throw new InvalidResponse(`http source: GET ${url} returned ${bytes.length} bytes, more than ${MAX_HTTP_BYTES}`, {
        url,
      });
    }
    const format: DataFormat =
      source.format ??
      formatOfContentType(res.headers.get('content-type')) ??
      formatOfName(new URL(url).pathname) ??
      'json';
    const list = parseItems(new TextDecoder().decode(bytes), format, `http source ${url}`, source.items);
    const newEtag = res.headers.get('etag');
    if (newEtag) ctx.book.save(key, { etags: [newEtag] });
    yield {
      repository: url,
      page,
      items: list.map((item, index) => ({ repository: '', vars: { url, index }, item, matches: true })),
      ...(newEtag ? { conditional: { key } } : {}),
    };
  }
}

/** GET with redirects followed only to allowed hosts (and plain http only to loopback). */
async function fetchAllowed(
  ctx: ReadContext,
  url: string,
  headers: Record<string, string>,
  allowed: Set<string>,
): Promise<Response> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let res: Response;
    try {
      res = await ctx.fetch(current, { method: 'GET', headers, redirect: 'manual' });
    } catch (e) {
      throw new TransportError(
        `http source: GET ${current} failed: ${(e as Error).message}`,
        { url: current },
        { cause: e },
      );
    }
    if (res.status < 300 || res.status > 399 || res.status === 304) return res;
    const location = res.headers.get('location');
    if (!location) return res;
    const next = new URL(location, current);
    if (!allowed.has(next.host.toLowerCase())) {
      throw new InvalidResponse(
        `http source: GET ${current} redirects to ${next.origin}, which the spec does not allow; add "${next.host}" to allow-hosts if it is trusted`,
        { url: current, location: next.origin },
      );
    }
    if (next.protocol !== 'https:' && !(next.protocol === 'http:' && isLoopbackHost(next.hostname))) {
      throw new InvalidResponse(`http source: GET ${current} redirects to plain http (${next.origin}); refusing`, {
        url: current,
      });
    }
    current = next.toString();
  }
  throw new InvalidResponse(`http source: GET ${url}: more than ${MAX_REDIRECTS} redirects`, { url });
}
