/** Reading GitHub's JSON answers defensively: shared shape checks of the remote-api store's modules. */
import type { CachedCommit } from '../../cache/git-cache.js';
import { InvalidResponse } from '../../core/errors.js';
import { isSha } from '../../core/git/objects.js';
import type { Person } from '../../core/refstore.js';
import type { OpContext } from './client.js';

/** A plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A commit's author or committer `{ name, email, date }`, or undefined when a field is missing. */
export function person(v: unknown): Person | undefined {
  if (!isObject(v) || typeof v.name !== 'string' || typeof v.email !== 'string' || typeof v.date !== 'string') {
    return undefined;
  }
  return { name: v.name, email: v.email, date: v.date };
}

/**
 * A commit as `GET /commits` and `GET /compare/…` list it (`{ sha, parents, commit: { tree, author, … } }`),
 * or undefined when it lacks a field.
 *
 * @example
 * const c = listedCommit(page[0]); // { sha, tree, parents, message, author, committer }
 */
export function listedCommit(item: unknown): CachedCommit | undefined {
  if (!isObject(item) || !isSha(item.sha) || !isObject(item.commit) || !Array.isArray(item.parents)) return undefined;
  const c = item.commit;
  const author = person(c.author);
  const committer = person(c.committer);
  if (!isObject(c.tree) || !isSha(c.tree.sha) || !author || !committer) return undefined;
  const parents: string[] = [];
  for (const p of item.parents) {
    if (!isObject(p) || !isSha(p.sha)) return undefined;
    parents.push(p.sha);
  }
  return {
    sha: item.sha,
    tree: c.tree.sha,
    parents,
    message: typeof c.message === 'string' ? c.message : '',
    author,
    committer,
  };
}

/**
 * The error for an answer whose body is not what GitHub documents, naming the operation and the step.
 *
 * @example
 * if (!isObject(j) || !isSha(j.sha)) throw badResponse(ctx, 'create blob', 'expected { sha }');
 */
export function badResponse(ctx: OpContext, step: string, what: string, cause?: unknown): InvalidResponse {
  return new InvalidResponse(
    `${ctx.operation}: ${step} returned an unexpected body: ${what}`,
    { operation: ctx.operation, step },
    { cause },
  );
}

/**
 * A commit's author or committer; `InvalidResponse` when a field is missing.
 *
 * @example
 * const author = parsePerson(ctx, 'list commits', item.commit.author);
 */
export function parsePerson(ctx: OpContext, step: string, v: unknown): Person {
  const p = person(v);
  if (!p) throw badResponse(ctx, step, 'author/committer needs name, email and date');
  return p;
}

/**
 * A git commit body as `GET`/`POST /git/commits` return it; `InvalidResponse` when it lacks a field.
 *
 * @example
 * const c = parseCommit(ctx, 'read commit', res.json()); // { sha, tree, parents, message, author, committer }
 */
export function parseCommit(ctx: OpContext, step: string, j: unknown): CachedCommit {
  if (!isObject(j) || !isSha(j.sha) || !isObject(j.tree) || !isSha(j.tree.sha) || !Array.isArray(j.parents)) {
    throw badResponse(ctx, step, 'expected a commit with sha, tree.sha and parents');
  }
  const parents = j.parents.map((p) => {
    if (!isObject(p) || !isSha(p.sha)) throw badResponse(ctx, step, 'parents[].sha missing');
    return p.sha;
  });
  return {
    sha: j.sha,
    tree: j.tree.sha,
    parents,
    message: typeof j.message === 'string' ? j.message : '',
    author: parsePerson(ctx, step, j.author),
    committer: parsePerson(ctx, step, j.committer),
  };
}
