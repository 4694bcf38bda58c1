/**
 * `GET /repos/{owner}/{repo}/compare/{base}...{head}`: the commits on head not on base and the files that
 * differ between their merge base and head. docdb's store uses it to re-plan a write whose cached tip went
 * stale without walking the new tree. https://docs.github.com/rest/commits/commits#compare-two-commits
 * Limits as GitHub documents them: up to 250 commits and 300 files in one answer.
 */
import { diffTrees } from '../../core/git/tree-diff.js';
import { ancestors, mergeBase } from '../commit-graph.js';
import { notFound } from '../http.js';
import type { RepoRecord } from '../model.js';
import { resolveCommitish } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { commitShape } from '../shapes/commits.js';
import { repoApiUrl } from '../shapes/common.js';
import { unifiedDiff } from '../unified-diff.js';

const DOC = 'https://docs.github.com/rest/commits/commits#compare-two-commits';
const MAX_COMMITS = 250;
const MAX_FILES = 300;

async function compare(ctx: RouteContext) {
  const basehead = ctx.params.basehead as string;
  const dots = basehead.indexOf('...');
  if (dots <= 0) throw notFound(DOC);
  const base = resolveCommitish(ctx.repo, basehead.slice(0, dots));
  const head = resolveCommitish(ctx.repo, basehead.slice(dots + 3));
  if (!base || !head) throw notFound(DOC);
  const repo = ctx.repo;
  const mb = mergeBase(repo, base, head) ?? base;
  const fromBase = ancestors(repo, base);
  const fromHead = ancestors(repo, head);
  const ahead = [...fromHead].filter((s) => !fromBase.has(s));
  const behindBy = [...fromBase].filter((s) => !fromHead.has(s)).length;
  const status = base === head ? 'identical' : behindBy === 0 ? 'ahead' : ahead.length === 0 ? 'behind' : 'diverged';
  const files = await changedFiles(ctx, mb, head);
  const repoUrl = repoApiUrl(repo, ctx.urls);
  const html = `${ctx.urls.html}/${repo.fullName}/compare/${basehead}`;
  return {
    status: 200,
    body: {
      url: `${repoUrl}/compare/${basehead}`,
      html_url: html,
      permalink_url: `${ctx.urls.html}/${repo.fullName}/compare/${base}...${head}`,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      base_commit: commitShape(repo, base, ctx.urls),
      merge_base_commit: commitShape(repo, mb, ctx.urls),
      status,
      ahead_by: ahead.length,
      behind_by: behindBy,
      total_commits: ahead.length,
      commits: commitPage(ctx, oldestFirst(repo, head, fromBase, ahead)).map((s) => commitShape(repo, s, ctx.urls)),
      // "The list of changed files is only shown on the first page of results" (GitHub's docs).
      ...(pageOf(ctx) === 1 ? { files: files.slice(0, MAX_FILES) } : {}),
    },
  };
}

/**
 * Oldest first, as GitHub lists them: along a linear history that is the first-parent chain reversed
 * (commits made within one second share a date, so dates alone cannot order them); otherwise by date.
 */
function oldestFirst(repo: RepoRecord, head: string, fromBase: Set<string>, ahead: string[]): string[] {
  const chain: string[] = [];
  for (let s: string | undefined = head; s !== undefined && !fromBase.has(s); s = repo.db.getCommit(s).parents[0]) {
    chain.push(s);
  }
  if (chain.length === ahead.length) return chain.reverse();
  return ahead
    .map((s) => ({ s, t: repo.db.getCommit(s).committer.timestamp }))
    .sort((a, b) => a.t - b.t || (a.s < b.s ? -1 : 1))
    .map((x) => x.s);
}

/** `page` (1-based) of a compare; `per_page` pages the commits only (default 250, GitHub's cap). */
function pageOf(ctx: RouteContext): number {
  const n = Number(ctx.query.get('page') ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

function commitPage(ctx: RouteContext, all: string[]): string[] {
  const asked = Number(ctx.query.get('per_page') ?? MAX_COMMITS);
  const per = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, MAX_COMMITS) : MAX_COMMITS;
  const start = (pageOf(ctx) - 1) * per;
  return all.slice(start, start + per);
}

/** The files that differ between the merge base and head, by name, each with its patch. */
async function changedFiles(ctx: RouteContext, mb: string, head: string) {
  const repo = ctx.repo;
  const repoUrl = repoApiUrl(repo, ctx.urls);
  const blob = (sha: string | undefined) => (sha === undefined ? undefined : repo.db.getBlob(sha));
  const entry = (filename: string, sha: string, fileStatus: string, previous?: string) => {
    const patch = unifiedDiff(blob(previous), fileStatus === 'removed' ? undefined : blob(sha));
    const additions = patch ? patch.split('\n').filter((l) => l.startsWith('+')).length : 0;
    const deletions = patch ? patch.split('\n').filter((l) => l.startsWith('-')).length : 0;
    return {
      sha,
      filename,
      status: fileStatus,
      additions,
      deletions,
      changes: additions + deletions,
      blob_url: `${ctx.urls.html}/${repo.fullName}/blob/${head}/${encodeURI(filename)}`,
      raw_url: `${ctx.urls.html}/${repo.fullName}/raw/${head}/${encodeURI(filename)}`,
      contents_url: `${repoUrl}/contents/${encodeURI(filename)}?ref=${head}`,
      ...(patch !== undefined ? { patch } : {}),
    };
  };
  // Only the subtrees that differ are walked (content addressing), not both whole trees.
  const tree = (c: string) => repo.db.getCommit(c).tree;
  const diff = await diffTrees(tree(mb), tree(head), (sha) => repo.db.getTree(sha));
  return [
    ...diff.added.map((k) => entry(k.key, k.blobSha as string, 'added')),
    ...diff.removed.map((k) => entry(k.key, k.previousBlobSha as string, 'removed', k.previousBlobSha)),
    ...diff.changed.map((k) => entry(k.key, k.blobSha as string, 'modified', k.previousBlobSha)),
  ].sort((x, y) => (x.filename < y.filename ? -1 : x.filename > y.filename ? 1 : 0));
}

export const compareRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/compare/{basehead+}',
    operation: 'repos/compare-commits-with-basehead',
    doc: DOC,
    emptyConflict: true,
    handler: compare,
  },
];
