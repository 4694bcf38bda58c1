/** `per_page` / `page` handling and the RFC 8288 `Link` header GitHub sends on list endpoints. */
import { invalidRequest } from './http.js';
import type { RouteContext } from './route-context.js';

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
}

function positiveInt(ctx: RouteContext, name: string, fallback: number, doc: string): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw invalidRequest(`For '${name}', ${JSON.stringify(raw)} is not an integer.`, doc);
  return Number(raw);
}

/**
 * Slice `all` by `per_page` (default 30, at most 100 like GitHub) and `page` (default 1), and build the
 * `Link` header (first/prev/next/last) from the request URL so clients can follow it.
 *
 * @example
 * const page = paginate(ctx, ctx.repo.issues, doc);
 * return { status: 200, body: page.items.map(shape), headers: page.headers };
 */
export function paginate<T>(ctx: RouteContext, all: readonly T[], doc: string): Page<T> {
  const perPage = Math.min(100, Math.max(1, positiveInt(ctx, 'per_page', 30, doc)));
  const page = Math.max(1, positiveInt(ctx, 'page', 1, doc));
  const items = all.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (p: number, rel: string) => {
    const q = new URLSearchParams(ctx.query);
    q.set('per_page', String(perPage));
    q.set('page', String(p));
    return `<${ctx.urls.api}${ctx.path}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  return { items, headers: links.length > 0 ? { Link: links.join(', ') } : {} };
}
