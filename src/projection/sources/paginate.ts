/**
 * `paginate`: the plain public form of reading every page of a list endpoint (the run's own readers use
 * list-pages.ts, which adds conditional reads and the budget). `Link: rel="next"` is followed only while it
 * stays inside the API (origin and path prefix, api-url.ts), so the token is never sent anywhere else, and
 * never back to a page already read or past `maxPages` (page-walk.ts).
 */
import { InvalidResponse } from '../../core/errors.js';
import { apiBaseOf, apiRequestUrl, nextOnOrigin } from './api-url.js';
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
  walk.visit('');
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
