/**
 * `paginate`: the plain public form of reading every page of a list endpoint (the run's own readers use
 * list-pages.ts, which adds conditional reads and the budget). `Link: rel="next"` is followed only while it
 * stays inside the API (origin and path prefix, api-url.ts), so the token is never sent anywhere else, and
 * never back to a page already read or past `maxPages` (page-walk.ts).
 */
import { InvalidResponse } from '../../core/errors.js';
import { apiBaseOf, apiRequestUrl, confineToApi, isRefusal, nextOnOrigin } from './api-url.js';
import { DEFAULT_MAX_PAGES, PageWalk } from './page-walk.js';
import type { SourceClient } from './types.js';

/**
 * GET every page of a list endpoint. Yields each page's array.
 *
 * @example
 * for await (const page of paginate(octokit, 'GET /repos/{owner}/{repo}/releases', { owner: 'o', repo: 'r' })) console.log(page.length);
 */
export async function* paginate(
  client: SourceClient,
  route: string,
  params: Record<string, unknown>,
  apiUrl?: string,
  maxPages = DEFAULT_MAX_PAGES,
): AsyncGenerator<unknown[]> {
  const ctx = { apiUrl: apiBaseOf(client, apiUrl) };
  const walk = new PageWalk(maxPages, route);
  walk.visit(firstPage(client, route, params, ctx));
  let res = await client.request(route, params);
  for (;;) {
    if (!Array.isArray(res.data)) {
      throw new InvalidResponse(`${route} did not return an array`, { route, status: res.status });
    }
    yield res.data;
    const next = nextOnOrigin(ctx, res.headers.link, route);
    if (!next) return;
    walk.visit(next);
    res = await client.request({ method: 'GET', url: apiRequestUrl(ctx, next) });
  }
}

/**
 * The first page as a path under the API base, the form `Link` URLs are compared in — so a link back at the
 * first page is a loop at once, not one more read of it. Octokit expands the route (`request.endpoint`);
 * a client without it is known by the route text.
 */
function firstPage(client: SourceClient, route: string, params: Record<string, unknown>, ctx: { apiUrl: string }) {
  const endpoint = (client.request as { endpoint?: (r: string, p: Record<string, unknown>) => { url?: unknown } })
    .endpoint;
  const url = endpoint?.(route, params)?.url;
  const r = typeof url === 'string' ? confineToApi(ctx.apiUrl, url) : undefined;
  return r && !isRefusal(r) ? r.path : route;
}
