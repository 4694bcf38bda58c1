/**
 * `paginate`: the plain public form of reading every page of a list endpoint (the run's own readers use
 * list-pages.ts, which adds conditional reads and the budget). `Link: rel="next"` is followed only while it
 * stays on the API origin, so the token is never sent anywhere else (see ARCHITECTURE.md, "GitHub API facts").
 */
import { InvalidResponse } from '../../core/errors.js';
import { parseLinkHeader } from './source-error.js';
import type { SourceClient } from './types.js';

/**
 * GET every page of a list endpoint. Yields each page's array; follows `Link` rel="next" only while it
 * stays on the API origin.
 *
 * @example
 * for await (const page of paginate(octokit, 'GET /repos/{owner}/{repo}/releases', { owner: 'o', repo: 'r' })) console.log(page.length);
 */
export async function* paginate(
  client: SourceClient,
  route: string,
  params: Record<string, unknown>,
  apiUrl?: string,
): AsyncGenerator<unknown[]> {
  let res = await client.request(route, params);
  let origin: string | undefined = apiUrl ? new URL(apiUrl).origin : undefined;
  for (;;) {
    if (!Array.isArray(res.data)) {
      throw new InvalidResponse(`${route} did not return an array`, { route, status: res.status });
    }
    yield res.data;
    const next = parseLinkHeader(res.headers.link).next;
    if (!next) return;
    const nextOrigin = new URL(next).origin;
    origin ??= nextOrigin;
    if (nextOrigin !== origin) {
      throw new InvalidResponse(
        `pagination link of ${route} points at ${nextOrigin}, not the API origin ${origin}; refusing to follow it (the token must not leave the API origin)`,
        { route },
      );
    }
    res = await client.request({ method: 'GET', url: next });
  }
}
