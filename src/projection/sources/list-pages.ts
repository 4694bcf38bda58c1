/**
 * One REST list, page by page, conditionally: each page URL is asked with `If-None-Match` when the previous
 * run's ETag is known (a 304 yields a `notModified` page and the walk continues at the stored next page),
 * `Link: rel="next"` is followed only on the API origin, and failures go through the one status mapping.
 * Shared by the per-repository lists (issues, pulls, releases) and `type: rest`.
 */
import { InvalidResponse } from '../../core/errors.js';
import { apiRequestUrl, nextOnOrigin } from './api-url.js';
import { conditionalGet } from './conditional-get.js';
import { DEFAULT_MAX_PAGES, PageWalk } from './page-walk.js';
import type { ReadContext } from './read-context.js';
import { splitRepository } from './repository-name.js';
import { sourceError } from './source-error.js';
import type { SourceItem, SourcePage } from './types.js';

export interface ListPage {
  items: SourceItem[];
  /** Stop after this page (e.g. the pulls list reached the watermark). */
  last?: boolean;
}

/**
 * Every page of the list at `url` (a path with query, relative to the API base).
 *
 * @example
 * yield* readListPages(ctx, '/repos/o/r/releases?per_page=100', 'o/r', (data) => ({ items: toItems(data) }));
 */
export async function* readListPages(
  ctx: ReadContext,
  url: string,
  label: string,
  toPage: (data: unknown) => ListPage,
): AsyncGenerator<SourcePage> {
  const errorPath = url.split('?')[0]!;
  const walk = new PageWalk(ctx.maxPages ?? DEFAULT_MAX_PAGES, `GET ${errorPath} (${label})`);
  let next: string | undefined = url;
  let page = 0;
  while (next) {
    const current: string = next;
    walk.visit(current);
    const key = `GET ${current}`;
    const res = await conditionalGet(
      ctx.client,
      { method: 'GET', url: apiRequestUrl(ctx, current) },
      {},
      ctx.book.etags(key)?.[0],
    ).catch((e) => {
      throw sourceError(e, label, errorPath);
    });
    page++;
    if (res.status === 304) {
      const prev = ctx.book.previous(key)!;
      ctx.book.save(key, prev);
      yield { repository: label, page, items: [], conditional: { key, notModified: true } };
      next = prev.next;
      continue;
    }
    const { items, last } = toPage(res.data);
    next = last ? undefined : nextOnOrigin(ctx, res.headers.link, errorPath);
    if (res.etag) ctx.book.save(key, { etags: [res.etag], ...(next ? { next } : {}) });
    yield { repository: label, page, items, ...(res.etag ? { conditional: { key } } : {}) };
  }
}

/**
 * One list endpoint of a repository (`/repos/{owner}/{repo}/<list>`), page by page: each page is turned into
 * items by `toItems` and yielded before the next page is requested (bounded memory); `last: true` stops early.
 * `params` become the query string in their order (it is part of the endpoint key the ETags are stored under).
 *
 * @example
 * yield* readRepositoryList(ctx, 'releases', { per_page: 100 }, 'o/r', (data) => ({ items: toItems(data) }));
 */
export function readRepositoryList(
  ctx: ReadContext,
  list: 'issues' | 'pulls' | 'releases',
  params: Record<string, unknown>,
  repository: string,
  toItems: (data: Record<string, unknown>[]) => ListPage,
): AsyncGenerator<SourcePage> {
  const { owner, name } = splitRepository(repository);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) query.set(k, String(v));
  const path = `/repos/${owner}/${name}/${list}`;
  return readListPages(ctx, `${path}?${query}`, repository, (data) => {
    if (!Array.isArray(data)) throw new InvalidResponse(`GET ${path} did not return an array`, { path });
    return toItems(data as Record<string, unknown>[]);
  });
}

/**
 * The query of a list read by update time (issues, pulls). An incremental run (with a watermark) asks for
 * every state, so items that left the filter (e.g. got closed while `state: open`) are seen and pruned.
 *
 * @example
 * byUpdateParams(ctx, 'open', undefined, 'asc'); // { state: 'open', sort: 'updated', direction: 'asc', per_page: 100 }
 */
export function byUpdateParams(
  ctx: ReadContext,
  state: string,
  watermark: string | undefined,
  direction: 'asc' | 'desc',
): Record<string, unknown> {
  return { state: watermark ? 'all' : state, sort: 'updated', direction, per_page: ctx.perPage };
}
