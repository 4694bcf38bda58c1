/**
 * The `repository` source over GraphQL (`api: graphql`, the default): one query reads up to 100
 * repositories with description, default branch and their first 100 branch tips — by alias for listed
 * repositories, or `repositoryOwner.repositories` with cursors for `owner/*`. Branch lists longer than 100
 * continue with cursors, batched for many repositories in one query (the queries: graphql-queries.ts; running
 * one, with the budget and GraphQL's errors: graphql-request.ts).
 *
 * Items are mapped to REST's field names (`full_name`, `default_branch`, `refs/heads/…` with
 * `object.sha`), so the `repository` reducer makes byte-identical documents over either API.
 */

import { appendAll } from '../../core/arrays.js';
import { NotFound } from '../../core/errors.js';
import type { SelectionFilters } from '../spec/index.js';
import {
  type BranchPage,
  branchesQuery,
  GRAPHQL_BATCH,
  OWNER_REPOSITORIES_QUERY,
  pointsFor,
  type RepositoryNode,
  repositoriesQuery,
} from './graphql-queries.js';
import { graphqlQuery } from './graphql-request.js';
import { DEFAULT_MAX_PAGES, PageWalk } from './page-walk.js';
import type { ReadContext } from './read-context.js';
import { splitRepository } from './repository-name.js';
import { type FilterFields, matchesFilters } from './select.js';
import { SOURCE_OPERATION } from './source-error.js';
import type { SourceItem, SourcePage } from './types.js';

/** REST's shape of a repository node, as the `repository` and `raw` reducers see it. */
function restShape(node: RepositoryNode): Record<string, unknown> & FilterFields {
  return {
    id: node.databaseId,
    name: node.name,
    full_name: node.nameWithOwner,
    owner: { login: node.owner.login },
    private: node.isPrivate,
    visibility: String(node.visibility).toLowerCase(),
    archived: node.isArchived,
    fork: node.isFork,
    description: node.description,
    default_branch: node.defaultBranchRef?.name ?? null,
    topics: node.repositoryTopics.nodes.map((t) => t.topic.name),
    html_url: node.url,
    created_at: node.createdAt,
    updated_at: node.updatedAt,
    pushed_at: node.pushedAt,
  };
}

function branchShapes(page: BranchPage | null): { ref: string; object: { sha: string; type: 'commit' } }[] {
  return (page?.nodes ?? [])
    .filter((b) => b.target)
    .map((b) => ({ ref: `refs/heads/${b.name}`, object: { sha: b.target!.oid, type: 'commit' as const } }));
}

/** Continue every branch list with more than 100 entries, several repositories per query. */
async function completeBranches(ctx: ReadContext, nodes: RepositoryNode[]): Promise<void> {
  const walks = new Map<RepositoryNode, PageWalk>();
  const walkOf = (n: RepositoryNode) =>
    walks.get(n) ??
    walks.set(n, new PageWalk(ctx.maxPages ?? DEFAULT_MAX_PAGES, `GraphQL branches of ${n.nameWithOwner}`)).get(n)!;
  let open = nodes.filter((n) => n.refs?.pageInfo.hasNextPage && n.refs.pageInfo.endCursor);
  for (const n of open) walkOf(n).visit('');
  while (open.length > 0) {
    const batch = open.slice(0, 50);
    // An endCursor seen before would read the same page again, forever.
    for (const n of batch) walkOf(n).visit(n.refs!.pageInfo.endCursor!);
    const variables: Record<string, unknown> = {};
    batch.forEach((n, i) => {
      const { owner, name } = splitRepository(n.nameWithOwner);
      variables[`o${i}`] = owner;
      variables[`n${i}`] = name;
      variables[`c${i}`] = n.refs!.pageInfo.endCursor;
    });
    const data = await graphqlQuery(
      ctx,
      branchesQuery(batch.length),
      variables,
      'GraphQL branch lists',
      pointsFor(batch.length),
    );
    batch.forEach((n, i) => {
      const page = (data[`r${i}`] as { refs: BranchPage } | null)?.refs;
      if (!page) {
        n.refs!.pageInfo = { hasNextPage: false, endCursor: null };
        return;
      }
      appendAll(n.refs!.nodes, page.nodes);
      n.refs!.pageInfo = page.pageInfo;
    });
    open = open.filter((n) => n.refs?.pageInfo.hasNextPage && n.refs.pageInfo.endCursor);
  }
}

function toItem(node: RepositoryNode): SourceItem {
  const repository = restShape(node);
  const { owner, name } = splitRepository(node.nameWithOwner);
  return {
    repository: node.nameWithOwner,
    vars: { owner, name, repo: node.nameWithOwner, defaultBranch: String(repository.default_branch ?? '') },
    item: { repository, branches: branchShapes(node.refs) },
    matches: true,
  };
}

/**
 * Listed repositories, up to 100 per query.
 *
 * @example
 * for await (const page of graphqlRepositories(ctx, ['octo/a', 'octo/b'])) console.log(page.items.length);
 */
export async function* graphqlRepositories(ctx: ReadContext, names: readonly string[]): AsyncGenerator<SourcePage> {
  const batchSize = Math.min(GRAPHQL_BATCH, ctx.perPage);
  let page = 0;
  for (let start = 0; start < names.length; start += batchSize) {
    const batch = names.slice(start, start + batchSize);
    const variables: Record<string, unknown> = {};
    const aliases: Record<string, string> = {};
    batch.forEach((full, i) => {
      const { owner, name } = splitRepository(full);
      variables[`o${i}`] = owner;
      variables[`n${i}`] = name;
      aliases[`r${i}`] = full;
    });
    const label = batch.length === 1 ? batch[0]! : `${batch[0]} … ${batch.at(-1)}`;
    // Per repository: its branch list and its topics (two connections).
    const points = pointsFor(2 * batch.length);
    const data = await graphqlQuery(
      ctx,
      repositoriesQuery(batch.length),
      variables,
      `GraphQL repositories ${label}`,
      points,
      aliases,
    );
    const nodes = batch.map((full, i) => {
      const node = data[`r${i}`] as RepositoryNode | null;
      if (!node)
        throw new NotFound(`source repository ${full} not found (GraphQL returned null)`, { repository: full });
      return node;
    });
    await completeBranches(ctx, nodes);
    yield { repository: label, page: ++page, items: nodes.map(toItem) };
  }
}

/**
 * Every repository of an owner (`owner/*`), 100 per query, filtered.
 *
 * @example
 * for await (const page of graphqlOwnerRepositories(ctx, 'octo-org', { archived: false })) console.log(page.items.length);
 */
export async function* graphqlOwnerRepositories(
  ctx: ReadContext,
  owner: string,
  filters: SelectionFilters,
): AsyncGenerator<SourcePage> {
  const variables: Record<string, unknown> = { login: owner, first: Math.min(GRAPHQL_BATCH, ctx.perPage) };
  // Let GitHub filter what it can; the same filters run again on the answer (matchesFilters).
  if (filters.archived === false || filters.archived === 'only') variables.isArchived = filters.archived === 'only';
  if (filters.forks === false || filters.forks === 'only') variables.isFork = filters.forks === 'only';
  if (filters.visibility === 'public' || filters.visibility === 'private') {
    variables.privacy = filters.visibility.toUpperCase();
  }
  let after: string | null = null;
  let page = 0;
  const walk = new PageWalk(ctx.maxPages ?? DEFAULT_MAX_PAGES, `GraphQL repositories of ${owner}/*`);
  do {
    walk.visit(after ?? '');
    const data = await graphqlQuery(
      ctx,
      OWNER_REPOSITORIES_QUERY,
      { ...variables, after },
      `GraphQL repositories of ${owner}/*${page ? ` page ${page + 1}` : ''}`,
      pointsFor(1 + 2 * Number(variables.first)),
    );
    const ownerNode = data.repositoryOwner as {
      repositories: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: RepositoryNode[] };
    } | null;
    if (!ownerNode) {
      throw new NotFound(
        `"${owner}/*": no organisation or user "${owner}" (GraphQL repositoryOwner is null); check the owner in the projection spec`,
        { owner, operation: SOURCE_OPERATION },
      );
    }
    const conn = ownerNode.repositories;
    const nodes = conn.nodes.filter((n) => matchesFilters(restShape(n), filters));
    await completeBranches(ctx, nodes);
    yield { repository: `${owner}/*`, page: ++page, items: nodes.map(toItem) };
    after = conn.pageInfo.hasNextPage ? conn.pageInfo.endCursor : null;
  } while (after);
}
