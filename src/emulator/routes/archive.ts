/**
 * `GET /repos/{owner}/{repo}/tarball/{ref}`: GitHub answers 302 to codeload.github.com, a separate origin
 * (https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar). For a private repository
 * the redirect URL carries its own short-lived credential (`?token=`), so the client needs no
 * Authorization header there — and must never send its API token to that origin. The archive itself is
 * served by ../codeload.ts.
 */
import { ApiError } from '../http.js';
import { resolveCommitish } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';

const DOC = 'https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar';
/** How long a redirect's download credential stays valid (GitHub's last a few minutes). */
export const ARCHIVE_TICKET_MS = 5 * 60 * 1000;

function tarball(ctx: RouteContext) {
  const asked = ctx.params.ref ?? '';
  const ref = asked === '' ? ctx.repo.defaultBranch : asked;
  const commit = resolveCommitish(ctx.repo, ref);
  if (!commit) throw new ApiError(404, 'Not Found', DOC);
  const site = ctx.options.codeload;
  let location = `${site.url}/${ctx.repo.owner.login}/${ctx.repo.name}/legacy.tar.gz/${commit}`;
  if (ctx.repo.private) {
    const ticket = randomTicket();
    site.tickets.set(ticket, { repo: ctx.repo.fullName, commit, expires: ctx.state.now() + ARCHIVE_TICKET_MS });
    location += `?token=${ticket}`;
  }
  return { status: 302, headers: { Location: location } };
}

function randomTicket(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return `A${Array.from(bytes, (b) => b.toString(36).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}

export const archiveRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/tarball/{ref*}',
    operation: 'repos/download-tarball-archive',
    doc: DOC,
    emptyConflict: true,
    handler: tarball,
  },
];
