/**
 * `POST /git/commits` exactly once per commit that lands. Creating a commit is not idempotent the way
 * creating a tree or a blob is: without an `author`, GitHub stamps the commit with its own clock (and, for
 * a bot, signs it), so the same request sent twice makes two different commits. A request whose reply was
 * lost (connection reset, timeout, 5xx) may or may not have created its commit, and is therefore never
 * simply sent again (RFC 9110 §9.2.2):
 * - with `author` configured the body is fixed (the date is set once, here), so the commit's SHA is
 *   computed locally and one `GET /git/commits/{sha}` tells whether the lost request took effect: found →
 *   that commit is used; 404 → it did not, and the same body is sent again (should the first still land
 *   late, it is the very same object);
 * - without `author` nothing can tell, so the write stops with the ref untouched (`outcome:
 *   "not-applied"`: retrying the write is safe; GitHub may hold one unreferenced commit object).
 * https://docs.github.com/rest/git/commits#create-a-commit
 */
import type { CachedCommit } from '../../cache/git-cache.js';
import { type DocDbError, TransportError, UpstreamUnavailable } from '../../core/errors.js';
import { encodeCommit, hashObject, type Signature } from '../../core/git/objects.js';
import type { GitHubClient, OpContext } from './client.js';
import type { ResolvedConfig } from './config.js';
import { badResponse, parseCommit } from './shapes.js';

/** The body of one create-commit request, and the commit's SHA when the body fixes every field. */
export interface CommitRequest {
  body: Record<string, unknown>;
  /** Computed from the body (only with an explicit author and date): how a lost reply is resolved. */
  sha?: string;
}

export interface CommitCreateDeps {
  cfg: Pick<ResolvedConfig, 'author' | 'readRetries' | 'sleep' | 'logger'>;
  client: Pick<GitHubClient, 'send' | 'backoffMs'>;
}

/**
 * The request for the commit of `tree` on `parent` (none: the section's first commit). With an author,
 * author and committer carry `date` (whole seconds, UTC), which makes the commit's SHA known in advance.
 *
 * @example
 * const req = commitRequest('4b82…', null, 'docdb: put a.json', { name: 'Ada', email: 'ada@example.com' }, new Date());
 * req.sha; // the SHA GitHub will answer with
 */
export function commitRequest(
  tree: string,
  parent: string | null,
  message: string,
  author: { name: string; email: string } | undefined,
  now: Date,
): CommitRequest {
  const parents = parent ? [parent] : [];
  const body: Record<string, unknown> = { message, tree, parents };
  if (!author) return { body };
  const seconds = Math.floor(now.getTime() / 1000);
  const date = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  body.author = { ...author, date };
  body.committer = { ...author, date };
  const sig: Signature = { name: author.name, email: author.email, timestamp: seconds, timezone: '+0000' };
  const sha = hashObject('commit', encodeCommit({ tree, parents, author: sig, committer: sig, message }));
  return { body, sha };
}

/**
 * Send `req` once; after a lost reply, resolve it as the module header says. The created commit.
 *
 * @example
 * const commit = await createCommitOnce(deps, ctx, commitRequest(tree, tip, message, cfg.author, new Date()));
 */
export async function createCommitOnce(
  deps: CommitCreateDeps,
  ctx: OpContext,
  req: CommitRequest,
): Promise<CachedCommit> {
  for (let lost = 0; ; lost++) {
    const sent = await send(deps, ctx, req);
    if (!(sent instanceof Error)) return sent;
    if (req.sha === undefined) {
      throw notApplied(
        ctx,
        sent,
        'it is not sent again: without a configured `author` GitHub dates the commit itself, so a second request would make a second commit and nothing tells whether the first one made one (configure `author` to let the store check)',
      );
    }
    const found = await lookUp(deps, ctx, req.sha);
    if (found) return found;
    // 404: the lost request did not create the commit; the same body is sent again.
    if (lost >= deps.cfg.readRetries) {
      throw notApplied(ctx, sent, `${lost + 1} attempts got no reply, and the commit does not exist`);
    }
    deps.cfg.logger?.({
      level: 'warn',
      message: `${ctx.operation}: create commit got no reply and the commit does not exist; sending it again`,
      data: { commit: req.sha, attempt: lost + 1 },
    });
    await deps.cfg.sleep(deps.client.backoffMs(lost));
  }
}

/** One attempt: the commit, or the error when the reply was lost (no response or 5xx). */
async function send(deps: CommitCreateDeps, ctx: OpContext, req: CommitRequest): Promise<CachedCommit | DocDbError> {
  try {
    const res = await deps.client.send(ctx, {
      step: 'create commit',
      method: 'POST',
      path: '/git/commits',
      body: req.body,
      retry: false, // never re-sent blindly: see the module header
    });
    return parseCommit(ctx, 'create commit', res.json());
  } catch (e) {
    if (e instanceof TransportError || e instanceof UpstreamUnavailable) return e;
    throw e;
  }
}

/** `GET /git/commits/{sha}`: the commit when it exists, undefined on 404. */
async function lookUp(deps: CommitCreateDeps, ctx: OpContext, sha: string): Promise<CachedCommit | undefined> {
  const res = await deps.client.send(ctx, {
    step: 'read commit',
    method: 'GET',
    path: `/git/commits/${sha}`,
    retry: true,
    accept: [404],
  });
  if (res.status === 404) return undefined;
  const c = parseCommit(ctx, 'read commit', res.json());
  if (c.sha !== sha) throw badResponse(ctx, 'read commit', `commit ${c.sha} is not ${sha}`);
  return c;
}

/** The write stops before its ref update: nothing changed in the section, retrying is safe. */
function notApplied(ctx: OpContext, e: DocDbError, why: string): DocDbError {
  const message =
    `${ctx.operation}: create commit (POST /git/commits) got no reply (${e.message}); ${why}. ` +
    'The section was not changed: the write can be retried.';
  const data = { ...e.data, operation: ctx.operation, step: 'create commit', outcome: 'not-applied' };
  return e instanceof UpstreamUnavailable
    ? new UpstreamUnavailable(message, data, { cause: e })
    : new TransportError(message, data, { cause: e });
}
