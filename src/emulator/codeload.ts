/**
 * The archive download site, codeload.github.com's part: a separate origin from the API. It serves
 * `GET /{owner}/{repo}/legacy.tar.gz/{commit}` and, as the real one:
 * - checks only its own credential: a private repository's archive needs the `?token=` the API's 302 handed
 *   out (unexpired, for that repository and commit); an `Authorization` header is never used (and is
 *   recorded in the request log as `sentAuthorization`, so tests can prove no client sent its API token);
 * - sends no CORS header to other origins (GitHub's own pages only), so a web page cannot read it;
 * - costs no API rate limit.
 */
import { archivePrefix, commitTarball } from './archive.js';
import type { Incoming } from './incoming.js';
import type { ResolvedOptions, ServedState } from './route-context.js';
import type { RequestLogEntry } from './traffic.js';

/**
 * True when the request is for the codeload site rather than the API.
 *
 * @example
 * if (isCodeloadRequest(options, request)) return serveCodeload(…);
 */
export function isCodeloadRequest(options: ResolvedOptions, request: Request): boolean {
  try {
    return new URL(request.url).origin === new URL(options.codeload.url).origin;
  } catch {
    return false;
  }
}

/**
 * Answer one codeload request and log it (the ticket in the query is not logged).
 *
 * @example
 * const res = await serveCodeload({ state, options, log }, incoming);
 */
export async function serveCodeload(
  deps: { state: ServedState; options: ResolvedOptions; log: RequestLogEntry[] },
  incoming: Incoming,
): Promise<Response> {
  const entry: RequestLogEntry = {
    method: incoming.method,
    path: incoming.path,
    query: '',
    status: 0,
    costsBudget: false,
    authenticated: false,
    operation: 'codeload/legacy.tar.gz',
    sentAuthorization: incoming.request.headers.has('authorization'),
  };
  const res = await answer(deps, incoming);
  entry.status = res.status;
  deps.log.push(entry);
  return res;
}

async function answer(deps: { state: ServedState; options: ResolvedOptions }, incoming: Incoming): Promise<Response> {
  const m = /^\/([^/]+)\/([^/]+)\/legacy\.tar\.gz\/([0-9a-f]{40})$/.exec(incoming.path);
  if (!m || (incoming.method !== 'GET' && incoming.method !== 'HEAD')) return notFound();
  const [, owner, name, commit] = m as unknown as [string, string, string, string];
  const repo = deps.state.findRepo(`${owner}/${name}`);
  if (repo?.db.typeOf(commit) !== 'commit') return notFound();
  if (repo.private && !ticketValid(deps, incoming.query.get('token'), repo.fullName, commit)) return notFound();
  const bytes = await commitTarball(repo.db, repo.owner.login, repo.name, commit);
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-gzip',
    'Content-Disposition': `attachment; filename=${archivePrefix(repo.owner.login, repo.name, commit).slice(0, -1)}.tar.gz`,
    'Content-Length': String(bytes.length),
  };
  // CORS only for GitHub's own pages: any other origin gets no Access-Control-Allow-Origin.
  if (incoming.request.headers.get('origin') === 'https://github.com') {
    headers['Access-Control-Allow-Origin'] = 'https://github.com';
  }
  const body = incoming.method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>);
  return new Response(body, { status: 200, headers });
}

function ticketValid(
  deps: { state: ServedState; options: ResolvedOptions },
  ticket: string | null,
  repo: string,
  commit: string,
): boolean {
  if (ticket === null) return false;
  const t = deps.options.codeload.tickets.get(ticket);
  return t !== undefined && t.repo === repo && t.commit === commit && t.expires > deps.state.now();
}

function notFound(): Response {
  return new Response('404: Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
