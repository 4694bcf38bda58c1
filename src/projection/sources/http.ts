/**
 * `type: http` — JSON, NDJSON or CSV from URLs listed in the spec. The GitHub token is never sent (this
 * uses plain `fetch`, not Octokit); the only credential is the optional `header`, whose value comes from a
 * named environment variable (a workflow secret) and is sent only to the listed hosts. Every GET is bounded
 * (http-fetch.ts: timeout, deadline, size cap while reading, redirects only to hosts the spec allows, retries).
 */
import { InvalidConfig, InvalidResponse, NotFound } from '../../core/errors.js';
import { ACTION_INPUT_NAMES } from '../../core/input-names.js';
import type { SourceSpec } from '../spec/index.js';
import { type DataFormat, formatOfContentType, formatOfName, parseItems } from './formats.js';
import {
  DEFAULT_HTTP_DEADLINE_SECONDS,
  DEFAULT_HTTP_TIMEOUT_SECONDS,
  HTTP_RETRIES,
  type HttpAnswer,
  httpGet,
} from './http-fetch.js';
import type { ReadContext } from './read-context.js';
import { SOURCE_OPERATION } from './source-error.js';
import type { SourcePage } from './types.js';

type HttpSpec = Extract<SourceSpec, { type: 'http' }>;

export { MAX_HTTP_BYTES } from './http-fetch.js';

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
        `http source: environment variable ${source.header.env} (for the ${source.header.name} header) is not set; ${(ctx.inputNames ?? ACTION_INPUT_NAMES).example('secret-env', source.header.env)}`,
      );
    }
    headers[source.header.name.toLowerCase()] = `${source.header.prefix ?? ''}${value}`;
  }
  let page = 0;
  const timeoutMs = (source.timeout ?? DEFAULT_HTTP_TIMEOUT_SECONDS) * 1000;
  const deadlineMs = (source.deadline ?? DEFAULT_HTTP_DEADLINE_SECONDS) * 1000;
  for (const url of source.url) {
    const key = `GET ${url}`;
    const etag = ctx.book.etags(key)?.[0];
    const res = await httpGet(ctx, {
      url,
      headers: { ...headers, ...(etag ? { 'if-none-match': etag } : {}) },
      allowed,
      timeoutMs,
      deadlineMs,
    });
    page++;
    if (res.status === 304 && etag) {
      ctx.book.save(key, ctx.book.previous(key)!);
      yield { repository: url, page, items: [], conditional: { key, notModified: true } };
      continue;
    }
    assertOk(res, url);
    const list = parseItems(
      new TextDecoder().decode(res.body),
      formatOf(source, res, url),
      `http source ${url}`,
      source.items,
    );
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

function assertOk(res: HttpAnswer, url: string): void {
  if (res.status === 404)
    throw new NotFound(`http source: GET ${url} answered 404`, { url, operation: SOURCE_OPERATION });
  if (res.status < 200 || res.status > 299) {
    const retried = res.status === 429 || res.status >= 500 ? ` (after ${HTTP_RETRIES} retries)` : '';
    throw new InvalidResponse(`http source: GET ${url} answered ${res.status}${retried}`, {
      url,
      status: res.status,
      operation: SOURCE_OPERATION,
    });
  }
}

function formatOf(source: HttpSpec, res: HttpAnswer, url: string): DataFormat {
  return (
    source.format ??
    formatOfContentType(res.headers.get('content-type')) ??
    formatOfName(new URL(url).pathname) ??
    'json'
  );
}
