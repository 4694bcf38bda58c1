/** Reading GitHub's JSON answers defensively: shared shape checks of the remote-api store's modules. */
import type { CachedCommit } from '../../cache/git-cache.js';
import { isSha } from '../../core/git/objects.js';
import type { Person } from '../../core/refstore.js';

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
