/**
 * Walks over a repository's commit graph: `git log` order with history simplification by path (for
 * `GET /commits?path=`), the set of ancestors and the merge base (for `GET /compare/{base}...{head}`).
 * Imports only the data model.
 */

import { appendAll } from '../core/arrays.js';
import type { RepoRecord } from './model.js';

/**
 * Commits reachable from `start`, newest committer date first (git log's default order), keeping only
 * commits that change `path` when given. A merge identical at `path` to one parent follows only that
 * parent, as git's history simplification does.
 *
 * @example
 * history(repo, tip, 'docs/a.json'); // SHAs of the commits that changed docs/a.json, newest first
 */
export function history(repo: RepoRecord, start: string, path?: string): string[] {
  const db = repo.db;
  const entryAt = (commit: string) => {
    if (!path) return undefined;
    return db.lookupPath(db.getCommit(commit).tree, path)?.sha ?? null;
  };
  const out: string[] = [];
  const seen = new Set<string>([start]);
  const queue: { sha: string; time: number; order: number }[] = [];
  let order = 0;
  const push = (sha: string) => {
    if (!db.has(sha)) return;
    queue.push({ sha, time: db.getCommit(sha).committer.timestamp, order: order++ });
  };
  push(start);
  while (queue.length > 0) {
    queue.sort((a, b) => b.time - a.time || a.order - b.order);
    const { sha } = queue.shift() as { sha: string };
    const c = db.getCommit(sha);
    let parents = c.parents;
    if (path) {
      const mine = entryAt(sha);
      const same = c.parents.find((p) => db.has(p) && entryAt(p) === mine);
      if (same) parents = [same];
      else if (mine !== null || c.parents.length > 0) out.push(sha);
    } else {
      out.push(sha);
    }
    for (const p of parents) {
      if (!seen.has(p)) {
        seen.add(p);
        push(p);
      }
    }
  }
  return out;
}

/**
 * Commits reachable from `sha` (itself included), via every parent.
 *
 * @example
 * ancestors(repo, tip).has(base); // whether `base` is in tip's history
 */
export function ancestors(repo: RepoRecord, sha: string): Set<string> {
  const seen = new Set<string>();
  const stack = [sha];
  while (stack.length > 0) {
    const s = stack.pop() as string;
    if (seen.has(s) || repo.db.typeOf(s) !== 'commit') continue;
    seen.add(s);
    appendAll(stack, repo.db.getCommit(s).parents);
  }
  return seen;
}

/**
 * First commit reachable from `head` (breadth first) that `base` also reaches: git's merge base for linear
 * histories.
 *
 * @example
 * mergeBase(repo, mainTip, featureTip); // where feature branched off main
 */
export function mergeBase(repo: RepoRecord, base: string, head: string): string | undefined {
  const fromBase = ancestors(repo, base);
  const queue = [head];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const s = queue.shift() as string;
    if (seen.has(s)) continue;
    seen.add(s);
    if (fromBase.has(s)) return s;
    if (repo.db.typeOf(s) === 'commit') appendAll(queue, repo.db.getCommit(s).parents);
  }
  return undefined;
}
