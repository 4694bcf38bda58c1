/**
 * Catching up with a section that moved, without walking the new tree: one
 * `GET /compare/{old}...{new}` lists every file that changed in between and ends with the new tip's
 * commit (and so its tree). `new` may be the section's full ref name, so after a lost fast-forward race
 * the same request that tells the new tip also tells what it changed — it replaces the ref read.
 *
 * With the changed files in hand the store can:
 * - apply them to the old tree's cached levels ({@link changedFilesAsTreeChanges} + `buildTreesLocally`)
 *   and, when the computed root equals the new commit's tree, know the new tree without reading it;
 * - see that none of a write's keys was touched ({@link touchesAny}), so the plan made on the old tree
 *   is the plan on the new one.
 * Either way a retry costs compare + tree + commit + ref update = 4 requests.
 * https://docs.github.com/rest/commits/commits#compare-two-commits (≤ 250 commits and ≤ 300 files per
 * answer: anything larger, diverged or malformed is not used, and the caller re-reads as before).
 */
import type { CachedCommit } from '../../cache/git-cache.js';
import { isSha } from '../../core/git/objects.js';
import type { GitHubClient, OpContext } from './client.js';
import type { LocalTreeChange } from './local-trees.js';
import { isObject, listedCommit } from './shapes.js';

const MAX_FILES = 300;
const MAX_COMMITS = 250;

/** One file a compare lists (`sha`: its blob at the new tip; absent for removed files). */
export interface ChangedFile {
  filename: string;
  status: string;
  sha?: string;
  previousFilename?: string;
}

/** A usable compare answer: the new tip moved strictly ahead of the old one, every changed file listed. */
export interface Catchup {
  /** The new tip's commit (its tree is the one to build on). */
  commit: CachedCommit;
  /** Every commit from the old tip (excluded) to the new one, oldest first. */
  commits: CachedCommit[];
  files: ChangedFile[];
}

/** True when a changed file `f` can change what `key` is: the key itself, a directory above it, or a path below it. */
export function touches(f: string, key: string): boolean {
  return f === key || f.startsWith(`${key}/`) || key.startsWith(`${f}/`);
}

const _namesOf = (f: ChangedFile) =>
  f.previousFilename === undefined ? [f.filename] : [f.filename, f.previousFilename];

/** True when any changed file (or the old name of a renamed one) touches any of `keys`. */
export function touchesAny(files: readonly ChangedFile[], keys: readonly string[]): boolean {
  const set = new Set(keys);
  const dirs = new Set<string>();
  for (const k of keys) for (let i = k.indexOf('/'); i > 0; i = k.indexOf('/', i + 1)) dirs.add(k.slice(0, i));
  return touchesKeySet(
    files,
    (k) => set.has(k),
    (d) => dirs.has(d),
  );
}

/**
 * Whether the changed files touch a write whose keys are given as lookups (no scan of every key per file):
 * `has(key)` — a key of the write; `isDir(path)` — a directory of one.
 *
 * @example
 * touchesKeySet(files, (k) => desired.has(k), (p) => dirs.has(p));
 */
export function touchesKeySet(
  files: readonly ChangedFile[],
  has: (key: string) => boolean,
  isDir: (path: string) => boolean,
): boolean {
  for (const f of files) {
    for (const n of f.previousFilename === undefined ? [f.filename] : [f.filename, f.previousFilename]) {
      // The key itself or a directory of one; else a key that is a directory above the file.
      if (has(n) || isDir(n)) return true;
      for (let i = n.indexOf('/'); i > 0; i = n.indexOf('/', i + 1)) if (has(n.slice(0, i))) return true;
    }
  }
  return false;
}

/**
 * The changed files as tree changes (`sha: null` removes), for replaying them on the old tree. Modes are
 * not in a compare answer: docdb writes regular files (`100644`), and a file of another mode makes the
 * computed root differ from the real one, so the caller's root check rejects the replay. Undefined when
 * a file's status or blob is unusable.
 *
 * @example
 * const changes = changedFilesAsTreeChanges(c.files);
 * const built = changes && (await buildTreesLocally(getLevel, oldTree, changes));
 * if (built?.root === c.commit.tree) cacheLevels(built.levels);
 */
export function changedFilesAsTreeChanges(files: readonly ChangedFile[]): LocalTreeChange[] | undefined {
  const out: LocalTreeChange[] = [];
  for (const f of files) {
    if (f.status === 'removed') out.push({ path: f.filename, mode: '100644', sha: null });
    else if (f.status === 'added' || f.status === 'modified' || f.status === 'changed' || f.status === 'renamed') {
      if (!isSha(f.sha)) return undefined;
      if (f.status === 'renamed' && f.previousFilename !== undefined) {
        out.push({ path: f.previousFilename, mode: '100644', sha: null });
      }
      out.push({ path: f.filename, mode: '100644', sha: f.sha });
    } else return undefined;
  }
  return out;
}

/**
 * Compare `oldTip` with `head` (a commit SHA, or the section's full ref name to read the tip in the same
 * request). `{ unusable: status }` unless the answer is complete and `head` is strictly ahead of `oldTip`
 * (404/422: the host does not resolve `head`); never throws for an unusable answer (only for errors the
 * client raises, e.g. a lost connection).
 *
 * @example
 * const c = await compareTips(client, ctx, ourTip, 'refs/docdb/documents');
 * if ('commit' in c && !touchesAny(c.files, keys)) planOn(oldTree).buildOn(c.commit.tree);
 */
export async function compareTips(
  client: GitHubClient,
  ctx: OpContext,
  oldTip: string,
  head: string,
): Promise<Catchup | { unusable: number }> {
  const unusable = { unusable: 200 };
  const j = await compareAnswer(client, ctx, oldTip, head);
  if (typeof j === 'number') return { unusable: j };
  if (j.status !== 'ahead' || !Array.isArray(j.files) || !Array.isArray(j.commits)) return unusable;
  if (j.files.length >= MAX_FILES || j.commits.length >= MAX_COMMITS || j.total_commits !== j.commits.length) {
    return unusable; // possibly cut: only a complete list of changed files proves anything
  }
  const files: ChangedFile[] = [];
  for (const f of j.files) {
    if (!isObject(f) || typeof f.filename !== 'string' || typeof f.status !== 'string') return unusable;
    files.push({
      filename: f.filename,
      status: f.status,
      ...(typeof f.sha === 'string' ? { sha: f.sha } : {}),
      ...(typeof f.previous_filename === 'string' ? { previousFilename: f.previous_filename } : {}),
    });
  }
  // docdb's history is linear: the commits must form one first-parent chain from `oldTip`. Following the
  // chain (rather than trusting the list order, which is by date and ties within a second) finds the tip.
  const byParent = new Map<string, CachedCommit>();
  for (const item of j.commits) {
    const c = listedCommit(item);
    if (c?.parents.length !== 1 || byParent.has(c.parents[0] as string)) return unusable;
    byParent.set(c.parents[0] as string, c);
  }
  const commits: CachedCommit[] = [];
  for (let at = byParent.get(oldTip); at !== undefined && commits.length < byParent.size; at = byParent.get(at.sha)) {
    commits.push(at);
  }
  const commit = commits.at(-1);
  if (commit === undefined || commits.length !== j.commits.length) return unusable;
  if (isSha(head) && commit.sha !== head) return unusable;
  return { commit, commits, files };
}

/** The JSON object of `GET /compare/{base}...{head}`, or the HTTP status when there is none to use. */
async function compareAnswer(
  client: GitHubClient,
  ctx: OpContext,
  base: string,
  head: string,
): Promise<Record<string, unknown> | number> {
  const res = await client.send(ctx, {
    step: 'compare commits',
    method: 'GET',
    path: `/compare/${base}...${head}`,
    retry: true,
    accept: [404, 422, 500],
  });
  if (res.status !== 200) return res.status;
  try {
    const j = res.json();
    return isObject(j) ? j : 200;
  } catch {
    return 200;
  }
}

/**
 * Whether `ancestor` is in the history of `tip`, in one compare at any distance: true when `tip` is
 * ahead of (or equal to) it, false when they diverged or `tip` is behind; undefined when the answer is
 * unusable (the caller walks parents instead).
 *
 * @example
 * if (await reachesBack(client, ctx, ourCommit, tipNow)) reportApplied();
 */
export async function reachesBack(
  client: GitHubClient,
  ctx: OpContext,
  ancestor: string,
  tip: string,
): Promise<boolean | undefined> {
  const j = await compareAnswer(client, ctx, ancestor, tip);
  if (typeof j === 'number') return undefined;
  if (j.status === 'ahead' || j.status === 'identical') return true;
  if (j.status === 'diverged' || j.status === 'behind') return false;
  return undefined;
}
