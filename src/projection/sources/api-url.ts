/**
 * Every URL a source sends the token to is confined to the API: the configured API origin, under its path
 * prefix (`/api/v3` on GitHub Enterprise Server), with no dot segments left after decoding. URLs come from
 * the spec (`rest` endpoints), from upstream answers (`Link` headers) and from the section's own state file
 * (a stored next-page URL) — all of them untrusted — so the check runs on every use, not once at parse time.
 */
import { InvalidResponse } from '../../core/errors.js';
import { parseLinkHeader } from '../../transport/headers.js';
import { hasDotSegment } from '../spec/index.js';

/** Where a URL that is refused would have gone, and why. */
export interface Refusal {
  reason: string;
}

/**
 * The API base URL of a run: the one given, else the client's own (Octokit keeps its `baseUrl` in
 * `request.endpoint.DEFAULTS`), so a client configured for GitHub Enterprise Server is never sent to
 * api.github.com by default.
 *
 * @example
 * apiBaseOf(octokit, undefined); // octokit's baseUrl, e.g. 'https://ghe.example/api/v3', else 'https://api.github.com'
 */
export function apiBaseOf(client: unknown, given: string | undefined): string {
  if (given) return given;
  const base = (client as { request?: { endpoint?: { DEFAULTS?: { baseUrl?: unknown } } } })?.request?.endpoint
    ?.DEFAULTS?.baseUrl;
  return typeof base === 'string' && base ? base : 'https://api.github.com';
}

/**
 * Resolve `pathOrUrl` (a path under the API base such as `/repos/o/r/issues?page=2`, or an absolute URL)
 * and confine it to the API. Returns the absolute URL to request and the path relative to the API base
 * (what is stored for the next run), or a refusal saying why.
 *
 * @example
 * confineToApi('https://ghe.example/api/v3', '/%2e%2e/%2e%2e/x'); // { reason: 'leaves the API path /api/v3' }
 * confineToApi('https://api.github.com', '/repos/o/r/issues?page=2'); // { url: 'https://api.github.com/repos/o/r/issues?page=2', path: '/repos/o/r/issues?page=2' }
 */
export function confineToApi(apiBase: string | undefined, pathOrUrl: string): { url: string; path: string } | Refusal {
  const base = new URL(apiBase ?? 'https://api.github.com');
  const prefix = base.pathname.replace(/\/+$/, '');
  // Dot segments are judged on the text as given: the URL parser would silently resolve them first.
  const rawPath = /^https?:\/\/[^/?#]*([^?#]*)/i.exec(pathOrUrl)?.[1] ?? pathOrUrl.replace(/[?#].*$/s, '');
  if (hasDotSegment(rawPath)) return { reason: 'has a "." or ".." path segment once decoded' };
  let u: URL;
  try {
    if (/^https?:\/\//i.test(pathOrUrl)) u = new URL(pathOrUrl);
    else if (pathOrUrl.startsWith('/')) u = new URL(`${base.origin}${prefix}${pathOrUrl}`);
    else return { reason: 'is neither a path starting with "/" nor an http(s) URL' };
  } catch {
    return { reason: 'is not a valid URL' };
  }
  if (u.origin !== base.origin) return { reason: `points at ${u.origin}, not the API origin ${base.origin}` };
  if (u.username || u.password) return { reason: 'carries credentials' };
  if (u.pathname !== prefix && !u.pathname.startsWith(`${prefix}/`)) {
    return { reason: `leaves the API path ${prefix || '/'}` };
  }
  const rest = u.pathname.slice(prefix.length);
  return { url: u.href, path: `${rest}${u.search}` };
}

/**
 * Whether `confineToApi` refused.
 *
 * @example
 * const r = confineToApi(apiUrl, next);
 * if (isRefusal(r)) log(`dropped: the next-page URL ${r.reason}`);
 */
export function isRefusal(r: { url: string; path: string } | Refusal): r is Refusal {
  return 'reason' in r;
}

/**
 * Whether `next` is another page of the endpoint `page` was read from: both stay inside the API and name
 * the same path, only the query (`page=`, `per_page=`, a cursor) may differ. A stored next-page URL must
 * pass this: one pointing at another endpoint — `/repos/octo/secret/releases` stored for a page of
 * `/repos/octo/app/releases` — would otherwise be read with the run's token.
 *
 * @example
 * sameEndpoint(api, '/repos/o/r/releases?per_page=100', '/repos/o/r/releases?per_page=100&page=2'); // true
 * sameEndpoint(api, '/repos/o/r/releases?per_page=100', '/repos/o/secret/releases?page=2'); // false
 */
export function sameEndpoint(apiBase: string | undefined, page: string, next: string): boolean {
  const a = confineToApi(apiBase, page);
  const b = confineToApi(apiBase, next);
  if (isRefusal(a) || isRefusal(b)) return false;
  return pathOnly(a.path) === pathOnly(b.path);
}

const pathOnly = (path: string) => path.split('?')[0];

/**
 * The absolute URL of a source request, confined to the API (see `confineToApi`); throws InvalidResponse
 * naming the reason when it is not.
 *
 * @example
 * apiRequestUrl({ apiUrl: 'https://api.github.com' }, '/orgs/o/repos?per_page=100');
 */
export function apiRequestUrl(ctx: { apiUrl?: string }, pathOrUrl: string): string {
  const r = confineToApi(ctx.apiUrl, pathOrUrl);
  if (isRefusal(r)) throw refused(pathOrUrl, r, 'a source request');
  return r.url;
}

/**
 * The `rel="next"` link of a response as a path relative to the API base, or undefined. A link that leaves
 * the API (another origin, outside the path prefix, dot segments) is refused: the token must never leave it.
 *
 * @example
 * nextOnOrigin({ apiUrl: 'https://api.github.com' }, '<https://api.github.com/repos/o/r/issues?page=2>; rel="next"', '/repos/o/r/issues'); // '/repos/o/r/issues?page=2'
 */
export function nextOnOrigin(ctx: { apiUrl?: string }, link: unknown, what: string): string | undefined {
  const next = parseLinkHeader(link).next;
  if (!next) return undefined;
  const r = confineToApi(ctx.apiUrl, next);
  if (isRefusal(r)) throw refused(what, r, 'the pagination link of');
  return r.path;
}

function refused(what: string, r: Refusal, context: string): InvalidResponse {
  return new InvalidResponse(
    `${context} ${what} ${r.reason}; refusing to follow it (the token must not leave the API)`,
    { path: what.split('?')[0], reason: r.reason },
  );
}
