/**
 * Re-planning a write whose cached tip went stale, without walking the new tree: one
 * `GET /compare/{old}...{new}` lists every file that changed in between (and the new tip's tree). When
 * none of them touches a key of the write (the key itself, a directory above it, or a path below it), the
 * plan made on the old tree is exactly the plan on the new one, and the new commit can be built on the new
 * tip's tree right away: ref read + compare + tree + commit + ref update = 5 requests, no orphan commit.
 * https://docs.github.com/rest/commits/commits#compare-two-commits (≤ 250 commits and ≤ 300 files per
 * answer: anything larger, diverged or malformed falls back to the full re-read).
 */
import type { CachedCommit } from '../../cache/git-cache.js';
import { isSha } from '../../core/git/objects.js';
import type { Person } from '../../core/refstore.js';
import type { GitHubClient, OpContext } from './client.js';

const MAX_FILES = 300;
const MAX_COMMITS = 250;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function person(v: unknown): Person | undefined {
  if (!isObject(v) || typeof v.name !== 'string' || typeof v.email !== 'string' || typeof v.date !== 'string') {
    return undefined;
  }
  return { name: v.name, email: v.email, date: v.date };
}

/** True when a changed file `f` can change what `key` is: the key itself, a directory above it, or a path below it. */
export function touches(f: string, key: string): boolean {
  return f === key || f.startsWith(`${key}/`) || key.startsWith(`${f}/`);
}

/**
 * The new tip's commit when no file changed between `oldTip` and `newTip` touches any of `keys`, else
 * undefined (the caller re-reads the new tree as before). Never throws for an unusable answer.
 *
 * @example
 * const c = await untouchedSince(client, ctx, cachedTip, tipNow, ['github/repo/octo/a.json']);
 * if (c) planOn(oldTree).buildOn(c.tree);
 */
export async function untouchedSince(
  client: GitHubClient,
  ctx: OpContext,
  oldTip: string,
  newTip: string,
  keys: readonly string[],
): Promise<CachedCommit | undefined> {
  const res = await client.send(ctx, {
    step: 'compare commits',
    method: 'GET',
    path: `/compare/${oldTip}...${newTip}`,
    retry: true,
    accept: [404, 422, 500],
  });
  if (res.status !== 200) return undefined;
  let j: unknown;
  try {
    j = res.json();
  } catch {
    return undefined;
  }
  if (!isObject(j) || j.status !== 'ahead' || !Array.isArray(j.files) || !Array.isArray(j.commits)) return undefined;
  if (j.files.length >= MAX_FILES || j.commits.length >= MAX_COMMITS || j.total_commits !== j.commits.length) {
    return undefined; // possibly cut: only a complete list of changed files proves anything
  }
  for (const f of j.files) {
    if (!isObject(f) || typeof f.filename !== 'string') return undefined;
    const names = typeof f.previous_filename === 'string' ? [f.filename, f.previous_filename] : [f.filename];
    for (const k of keys) for (const n of names) if (touches(n, k)) return undefined;
  }
  const last = j.commits.at(-1);
  if (!isObject(last) || last.sha !== newTip || !isObject(last.commit) || !Array.isArray(last.parents))
    return undefined;
  const c = last.commit;
  const tree = isObject(c.tree) ? c.tree.sha : undefined;
  const author = person(c.author);
  const committer = person(c.committer);
  const parents = last.parents.map((p) => (isObject(p) && isSha(p.sha) ? p.sha : undefined));
  if (!isSha(tree) || !author || !committer || parents.some((p) => p === undefined)) return undefined;
  return {
    sha: newTip,
    tree,
    parents: parents as string[],
    message: typeof c.message === 'string' ? c.message : '',
    author,
    committer,
  };
}
