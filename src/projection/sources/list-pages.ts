/**
 * One REST list, page by page, conditionally (conditional-walk.ts): a 304 yields a `notModified` page and the
 * walk continues at the stored next page, `Link: rel="next"` is followed only inside the API, and failures
 * go through the one status mapping.
 * Shared by the per-repository lists (issues, pulls, releases) and `type: rest`.
 */
import { InvalidResponse } from '../../core/errors.js';
import { nextOnOrigin } from './api-url.js';
import { conditionalWalk } from './conditional-walk.js';
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
  const steps = conditionalWalk(ctx, {
    first: url,
    what: `GET ${errorPath} (${label})`,
    read: (data, headers) => {
      const { items, last } = toPage(data);
      return { value: items, next: last ? undefined : nextOnOrigin(ctx, headers.link, errorPath) };
    },
    fail: (e) => sourceError(e, label, errorPath),
  });
  for await (const step of steps) {
    const { key, page } = step;
    if (step.previous) yield { repository: label, page, items: [], conditional: { key, notModified: true } };
    else yield { repository: label, page, items: step.value, ...(step.conditional ? { conditional: { key } } : {}) };
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
