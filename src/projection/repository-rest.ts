/**
 * The `repository` source over REST (`api: rest`, and GitHub Enterprise Server versions without the
 * GraphQL fields used): `GET /repos/{owner}/{repo}` and the branch list `GET /repos/{owner}/{repo}/git/
 * matching-refs/heads` — two requests per repository, both conditional (`If-None-Match`) when the previous
 * run's ETags are known: two 304s mean the repository's document is unchanged and cost no budget.
 */

import { apiRequestUrl, nextOnOrigin } from './api-url.js';
import { conditionalGet } from './conditional.js';
import type { ReadContext } from './read-context.js';
import { sourceError } from './source-http.js';
import type { SourcePage } from './sources.js';

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
  const i = repository.indexOf('/');
  const [owner, name] = [repository.slice(0, i), repository.slice(i + 1)];
  const repoPath = `/repos/${owner}/${name}`;
  const refsPath = `${repoPath}/git/matching-refs/heads?per_page=${ctx.perPage}`;
  const key = `GET ${repoPath}`;
  const etags = ctx.book.etags(key);
  const get = (path: string, etag: string | undefined) =>
    conditionalGet(ctx.client, { method: 'GET', url: apiRequestUrl(ctx, path) }, {}, etag);

  let repo = await get(repoPath, etags?.[0]).catch((e) => {
    throw sourceError(e, repository, repoPath);
  });
  // An empty repository has no branches: GitHub answers 409 "Git Repository is empty." to the ref list.
  const readRefs = (etag: string | undefined) =>
    get(refsPath, etag).catch((e) => {
      if (status(e) === 409)
        return { status: 200 as const, data: [], headers: {} as Record<string, unknown>, etag: undefined };
      throw sourceError(e, repository, `${repoPath}/git/matching-refs/heads`);
    });
  let refs = await readRefs(etags?.[1]);
  if (repo.status === 304 && refs.status === 304) {
    ctx.book.save(key, ctx.book.previous(key)!);
    yield { repository, page: 1, items: [], conditional: { key, notModified: true } };
    return;
  }
  // One side changed: the unchanged side's body is needed too, so ask again without a condition.
  if (repo.status === 304) repo = await get(repoPath, undefined);
  if (refs.status === 304) refs = await readRefs(undefined);
  if (repo.status !== 200 || refs.status !== 200) throw new Error('unreachable: unconditional GET answered 304');

  const branches: unknown[] = [];
  let pageData: unknown = refs.data;
  let next = nextOnOrigin(ctx, refs.headers.link, refsPath);
  const singlePage = next === undefined;
  for (;;) {
    // matching-refs is a plain prefix match: `heads` would also return e.g. `refs/heads-old/x`.
    for (const b of Array.isArray(pageData) ? pageData : []) {
      if (String((b as { ref?: unknown })?.ref ?? '').startsWith('refs/heads/')) branches.push(b);
    }
    if (!next) break;
    const more = await get(next, undefined).catch((e) => {
      throw sourceError(e, repository, `${repoPath}/git/matching-refs/heads`);
    });
    if (more.status !== 200) break;
    pageData = more.data;
    next = nextOnOrigin(ctx, more.headers.link, refsPath);
  }
  // Conditional only while the branch list fits one page (its ETag then covers every branch).
  if (singlePage && repo.etag && refs.etag) ctx.book.save(key, { etags: [repo.etag, refs.etag] });

  const data = repo.data as Record<string, unknown>;
  const fullName = typeof data.full_name === 'string' ? data.full_name : repository;
  const j = fullName.indexOf('/');
  yield {
    repository,
    page: 1,
    items: [
      {
        repository,
        vars: {
          owner: fullName.slice(0, j),
          name: fullName.slice(j + 1),
          repo: fullName,
          defaultBranch: String(data.default_branch ?? ''),
        },
        item: { repository: data, branches },
        matches: true,
      },
    ],
    ...(singlePage && repo.etag && refs.etag ? { conditional: { key } } : {}),
  };
}
