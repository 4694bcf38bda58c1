/**
 * Git Database commits: `POST /git/commits` (author and committer default to the token's user, dated
 * now; GitHub signs a bot's commits when it chose the identity itself) and `GET /git/commits/{sha}`.
 * https://docs.github.com/rest/git/commits
 */
import { isSha, parseSignatureDate, type Signature } from '../../core/git/objects.js';
import { apiCommitIdentity } from '../commit-identity.js';
import { ApiError, invalidRequest, notFound } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { gitCommitShape } from '../shapes/commits.js';
import { repoApiUrl } from '../shapes/common.js';
import { checkProps, checkType, objectBody, requireKeys, shaParam } from '../validate.js';

const DOC = {
  createCommit: 'https://docs.github.com/rest/git/commits#create-a-commit',
  getCommit: 'https://docs.github.com/rest/git/commits#get-a-commit-object',
};

/** `author` / `committer` of the request body, or the fallback identity dated `now`. */
function signature(
  value: unknown,
  where: string,
  doc: string,
  fallback: { name: string; email: string },
  now: number,
): Signature {
  if (value === undefined) return { ...fallback, timestamp: Math.floor(now / 1000), timezone: '+0000' };
  checkType(value, 'object', `properties/${where}`, doc);
  const v = value as Record<string, unknown>;
  if (v.name === undefined || v.email === undefined) {
    throw invalidRequest(`"${v.name === undefined ? 'name' : 'email'}" wasn't supplied.`, doc);
  }
  checkProps(v, { name: 'string', email: 'string', date: 'string' }, doc, `properties/${where}/properties`);
  const when =
    v.date === undefined ? { timestamp: Math.floor(now / 1000), timezone: '+0000' } : dateOf(v.date, where, doc);
  if (/[<>\n\0]/.test(v.name as string) || /[<>\n\0]/.test(v.email as string)) {
    throw new ApiError(422, `${where}.name and ${where}.email must not contain "<", ">", NUL or newlines`, doc);
  }
  return { name: v.name as string, email: v.email as string, ...when };
}

function dateOf(date: unknown, where: string, doc: string): { timestamp: number; timezone: string } {
  try {
    return parseSignatureDate(date as string);
  } catch {
    throw invalidRequest(`For 'properties/${where}/properties/date', ${JSON.stringify(date)} is not a date-time.`, doc);
  }
}

function createCommit(ctx: RouteContext) {
  const doc = DOC.createCommit;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['message', 'tree'], doc);
  checkProps(
    body,
    { message: 'string', tree: 'string', parents: 'array', author: 'object', committer: 'object', signature: 'string' },
    doc,
  );
  const db = ctx.repo.db;
  const tree = (body.tree as string).toLowerCase();
  if (!isSha(tree) || db.typeOf(tree) !== 'tree') throw new ApiError(422, 'Tree SHA does not exist', doc);
  const parents = ((body.parents as unknown[] | undefined) ?? []).map((p, i) => {
    checkType(p, 'string', `properties/parents/items/${i}`, doc);
    const sha = (p as string).toLowerCase();
    if (!isSha(sha) || db.typeOf(sha) !== 'commit')
      throw new ApiError(422, 'Parent SHA does not exist or is not a commit object', doc);
    return sha;
  });
  const fallback = apiCommitIdentity(ctx.token?.user);
  const now = ctx.state.now();
  const author = signature(body.author, 'author', doc, fallback, now);
  const committer = body.committer === undefined ? author : signature(body.committer, 'committer', doc, fallback, now);
  const sha = db.putCommit({ tree, parents, author, committer, message: body.message as string });
  // GitHub signs API commits of installation tokens when it chooses the identity itself (no author,
  // committer or signature sent): https://docs.github.com/authentication/managing-commit-signature-verification/about-commit-signature-verification
  if (ctx.token?.bot && body.author === undefined && body.committer === undefined && body.signature === undefined) {
    ctx.repo.signedCommits ??= new Set();
    ctx.repo.signedCommits.add(sha);
  }
  return {
    status: 201,
    body: gitCommitShape(ctx.repo, sha, ctx.urls),
    headers: { Location: `${repoApiUrl(ctx.repo, ctx.urls)}/git/commits/${sha}` },
  };
}

function getCommit(ctx: RouteContext) {
  const sha = shaParam(ctx.params.commit_sha as string, DOC.getCommit);
  if (ctx.repo.db.typeOf(sha) !== 'commit') throw notFound(DOC.getCommit);
  return { status: 200, body: gitCommitShape(ctx.repo, sha, ctx.urls) };
}

const R = '/repos/{owner}/{repo}/git';

export const gitCommitRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: `${R}/commits`,
    operation: 'git/create-commit',
    doc: DOC.createCommit,
    write: true,
    emptyConflict: true,
    handler: createCommit,
  },
  {
    method: 'GET',
    path: `${R}/commits/{commit_sha}`,
    operation: 'git/get-commit',
    doc: DOC.getCommit,
    emptyConflict: true,
    handler: getCommit,
  },
];
