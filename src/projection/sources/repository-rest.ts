/**
 * The `repository` source over REST (`api: rest`, and GitHub Enterprise Server versions without the
 * GraphQL fields used): `GET /repos/{owner}/{repo}` and the branch list `GET /repos/{owner}/{repo}/git/
 * matching-refs/heads` — two requests per repository, both conditional (`If-None-Match`) when the previous
 * run's ETags are known: two 304s mean the repository's document is unchanged and cost no budget.
 */

import { apiRequestUrl, nextOnOrigin } from './api-url.js';
import { type ConditionalResult, conditionalGet } from './conditional-get.js';
import { DEFAULT_MAX_PAGES, PageWalk } from './page-walk.js';
import type { ReadContext } from './read-context.js';
import { splitRepository } from './repository-name.js';
import { sourceError } from './source-error.js';
import type { SourceItem, SourcePage } from './types.js';

type Answer = Extract<ConditionalResult, { status: 200 }>;

/** The two endpoints of one repository, and how to GET either (conditionally when an ETag is given). */
interface RepositoryReads {
  repository: string;
  repoPath: string;
  refsPath: string;
  get(path: string, etag: string | undefined): Promise<ConditionalResult>;
  /** The branch list; an empty repository has none (GitHub answers 409 "Git Repository is empty."). */
  readRefs(etag: string | undefined): Promise<ConditionalResult>;
}

function status(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/**
 * One repository: its description and every branch (refs under `refs/heads/`). A page with
 * `notModified` means both answers were 304 and the previous documents stand.
 *
 * @example
 * for await (const page of restRepository(ctx, 'octo/hello')) console.log(page.items[0]?.vars.defaultBranch);
 */
export async function* restRepository(ctx: ReadContext, repository: string): AsyncGenerator<SourcePage> {
  const reads = repositoryReads(ctx, repository);
  const key = `GET ${reads.repoPath}`;
  const both = await readBoth(ctx, reads, key);
  if (!both) {
    ctx.book.save(key, ctx.book.previous(key)!);
    yield { repository, page: 1, items: [], conditional: { key, notModified: true } };
    return;
  }
  const { repo, refs } = both;
  const { branches, singlePage } = await allBranches(ctx, reads, refs);
  // Conditional only while the branch list fits one page (its ETag then covers every branch).
  if (singlePage && repo.etag && refs.etag) ctx.book.save(key, { etags: [repo.etag, refs.etag] });
  yield {
    repository,
    page: 1,
    items: [repositoryItem(repository, repo.data as Record<string, unknown>, branches)],
    ...(singlePage && repo.etag && refs.etag ? { conditional: { key } } : {}),
  };
}

function repositoryReads(ctx: ReadContext, repository: string): RepositoryReads {
  const { owner, name } = splitRepository(repository);
  const repoPath = `/repos/${owner}/${name}`;
  const refsPath = `${repoPath}/git/matching-refs/heads?per_page=${ctx.perPage}`;
  const get = (path: string, etag: string | undefined) =>
    conditionalGet(ctx.client, { method: 'GET', url: apiRequestUrl(ctx, path) }, {}, etag);
  const readRefs = (etag: string | undefined) =>
    get(refsPath, etag).catch((e) => {
      if (status(e) === 409)
        return { status: 200 as const, data: [], headers: {} as Record<string, unknown>, etag: undefined };
      throw sourceError(e, repository, `${repoPath}/git/matching-refs/heads`);
    });
  return { repository, repoPath, refsPath, get, readRefs };
}

/**
 * Both answers, asked conditionally with the previous run's ETags; undefined when both were 304. When only
 * one side changed, the unchanged side's body is needed too, so it is asked again without a condition.
 */
async function readBoth(
  ctx: ReadContext,
  reads: RepositoryReads,
  key: string,
): Promise<{ repo: Answer; refs: Answer } | undefined> {
  const etags = ctx.book.etags(key);
  let repo = await reads.get(reads.repoPath, etags?.[0]).catch((e) => {
    throw sourceError(e, reads.repository, reads.repoPath);
  });
  let refs = await reads.readRefs(etags?.[1]);
  if (repo.status === 304 && refs.status === 304) return undefined;
  if (repo.status === 304) repo = await reads.get(reads.repoPath, undefined);
  if (refs.status === 304) refs = await reads.readRefs(undefined);
  if (repo.status !== 200 || refs.status !== 200) throw new Error('unreachable: unconditional GET answered 304');
  return { repo, refs };
}

/** Every branch of the list, following its pages on the API origin; `singlePage` when it fit one page. */
async function allBranches(
  ctx: ReadContext,
  reads: RepositoryReads,
  refs: Answer,
): Promise<{ branches: unknown[]; singlePage: boolean }> {
  const branches: unknown[] = [];
  let pageData: unknown = refs.data;
  let next = nextOnOrigin(ctx, refs.headers.link, reads.refsPath);
  const singlePage = next === undefined;
  const walk = new PageWalk(ctx.maxPages ?? DEFAULT_MAX_PAGES, `branches of ${reads.repository}`);
  walk.visit(reads.refsPath);
  for (;;) {
    // matching-refs is a plain prefix match: `heads` would also return e.g. `refs/heads-old/x`.
    for (const b of Array.isArray(pageData) ? pageData : []) {
      if (String((b as { ref?: unknown })?.ref ?? '').startsWith('refs/heads/')) branches.push(b);
    }
    if (!next) break;
    walk.visit(next);
    const more = await reads.get(next, undefined).catch((e) => {
      throw sourceError(e, reads.repository, `${reads.repoPath}/git/matching-refs/heads`);
    });
    if (more.status !== 200) break;
    pageData = more.data;
    next = nextOnOrigin(ctx, more.headers.link, reads.refsPath);
  }
  return { branches, singlePage };
}

/** The one item of a repository: `{ repository, branches }`, named by GitHub's own spelling of the name. */
function repositoryItem(repository: string, data: Record<string, unknown>, branches: unknown[]): SourceItem {
  const fullName = typeof data.full_name === 'string' ? data.full_name : repository;
  const { owner, name } = splitRepository(fullName);
  return {
    repository,
    vars: { owner, name, repo: fullName, defaultBranch: String(data.default_branch ?? '') },
    item: { repository: data, branches },
    matches: true,
  };
}
