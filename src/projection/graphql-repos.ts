/**
 * The `repository` source over GraphQL (`api: graphql`, the default): one query reads up to 100
 * repositories with description, default branch and their first 100 branch tips — by alias for listed
 * repositories, or `repositoryOwner.repositories` with cursors for `owner/*`. Branch lists longer than 100
 * continue with cursors, batched for many repositories in one query. Every query asks for `rateLimit`,
 * which feeds `min-rate-limit`. See https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api.
 *
 * Items are mapped to REST's field names (`full_name`, `default_branch`, `refs/heads/…` with
 * `object.sha`), so the `repository` reducer makes byte-identical documents over either API.
 */
import { AuthMissing, InvalidResponse, NotFound, RateLimited } from '../core/errors.js';
import type { ReadContext } from './read-context.js';
import { type FilterFields, matchesFilters } from './select.js';
import { SOURCE_OPERATION, sourceError } from './source-http.js';
import type { SourceItem, SourcePage } from './sources.js';
import type { SelectionFilters } from './spec/index.js';

/** Repositories per query (GitHub's `first` maximum). */
export const GRAPHQL_BATCH = 100;

const RATE_LIMIT = 'rateLimit { cost limit remaining resetAt used }';
const BRANCHES = 'refs(refPrefix: "refs/heads/", first: 100, orderBy: {field: ALPHABETICAL, direction: ASC})';
const BRANCH_PAGE = 'totalCount pageInfo { hasNextPage endCursor } nodes { name target { oid } }';

/** The fields docdb reads of a repository (one fragment for every query). */
export const REPOSITORY_FRAGMENT = `fragment DocdbRepository on Repository {
  databaseId
  name
  nameWithOwner
  owner { login }
  description
  isPrivate
  visibility
  isArchived
  isFork
  url
  createdAt
  updatedAt
  pushedAt
  defaultBranchRef { name }
  repositoryTopics(first: 20) { nodes { topic { name } } }
  ${BRANCHES} { ${BRANCH_PAGE} }
}`;

/**
 * The query for listed repositories: one alias per repository.
 *
 * @example
 * repositoriesQuery(2); // query DocdbRepositories($o0: String!, $n0: String!, $o1: String!, $n1: String!) { … }
 */
export function repositoriesQuery(count: number): string {
  const vars: string[] = [];
  const fields: string[] = [];
  for (let i = 0; i < count; i++) {
    vars.push(`$o${i}: String!`, `$n${i}: String!`);
    fields.push(`  r${i}: repository(owner: $o${i}, name: $n${i}) { ...DocdbRepository }`);
  }
  return `query DocdbRepositories(${vars.join(', ')}) {\n  ${RATE_LIMIT}\n${fields.join('\n')}\n}\n${REPOSITORY_FRAGMENT}`;
}

/** The query for one page of an owner's repositories (`owner/*`); filters GitHub can apply are arguments. */
export const OWNER_REPOSITORIES_QUERY = `query DocdbOwnerRepositories($login: String!, $first: Int!, $after: String, $isArchived: Boolean, $isFork: Boolean, $privacy: RepositoryPrivacy) {
  ${RATE_LIMIT}
  repositoryOwner(login: $login) {
    login
    repositories(first: $first, after: $after, ownerAffiliations: [OWNER], orderBy: {field: NAME, direction: ASC}, isArchived: $isArchived, isFork: $isFork, privacy: $privacy) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { ...DocdbRepository }
    }
  }
}
${REPOSITORY_FRAGMENT}`;

/** The query continuing the branch lists of several repositories past their first 100. */
export function branchesQuery(count: number): string {
  const vars: string[] = [];
  const fields: string[] = [];
  for (let i = 0; i < count; i++) {
    vars.push(`$o${i}: String!`, `$n${i}: String!`, `$c${i}: String!`);
    fields.push(
      `  r${i}: repository(owner: $o${i}, name: $n${i}) { refs(refPrefix: "refs/heads/", first: 100, after: $c${i}, orderBy: {field: ALPHABETICAL, direction: ASC}) { ${BRANCH_PAGE} } }`,
    );
  }
  return `query DocdbBranches(${vars.join(', ')}) {\n  ${RATE_LIMIT}\n${fields.join('\n')}\n}`;
}

interface BranchPage {
  totalCount?: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { name: string; target: { oid: string } | null }[];
}

interface RepositoryNode {
  databaseId: number | null;
  name: string;
  nameWithOwner: string;
  owner: { login: string };
  description: string | null;
  isPrivate: boolean;
  visibility: string;
  isArchived: boolean;
  isFork: boolean;
  url: string;
  createdAt: string;
  updatedAt: string;
  pushedAt: string | null;
  defaultBranchRef: { name: string } | null;
  repositoryTopics: { nodes: { topic: { name: string } }[] };
  refs: BranchPage | null;
}

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

interface GraphqlFailure {
  errors?: { type?: string; path?: (string | number)[]; message?: string }[];
  data?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  response?: unknown;
  status?: unknown;
}

/**
 * Run one query: check the GraphQL budget first, read `rateLimit` after. GraphQL reports problems with
 * HTTP 200 and `errors` next to partial `data` (Octokit throws a GraphqlResponseError for them):
 * NOT_FOUND for one alias becomes docdb's NotFound naming the repository, RATE_LIMITED becomes RateLimited.
 */
/**
 * Points a query costs: one request per connection per parent node, divided by 100, rounded, at least 1
 * (https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call).
 */
export function pointsFor(connectionRequests: number): number {
  return Math.max(1, Math.round(connectionRequests / 100));
}

async function query(
  ctx: ReadContext,
  text: string,
  variables: Record<string, unknown>,
  what: string,
  points: number,
  aliasNames: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  if (!ctx.client.graphql) {
    throw new InvalidResponse(`${what}: the client has no graphql(); use api: rest`, { operation: SOURCE_OPERATION });
  }
  ctx.budget.check('graphql', what, points);
  let data: Record<string, unknown>;
  try {
    data = (await ctx.client.graphql(text, variables)) as Record<string, unknown>;
  } catch (e) {
    const f = e as GraphqlFailure;
    // Octokit's GraphqlResponseError has `errors`; plugin-throttling's "GraphQL Rate Limit Exceeded" has the
    // answer on `response` (HTTP 200, `errors` in its body).
    const response = f?.response as
      | { data?: { errors?: GraphqlFailure['errors'] }; headers?: Record<string, unknown> }
      | undefined;
    const errors = Array.isArray(f?.errors) ? f.errors : response?.data?.errors;
    if (!Array.isArray(errors)) {
      const mapped = sourceError(e, what, '/graphql');
      if (mapped instanceof AuthMissing) {
        // REST reads public repositories anonymously; GitHub's GraphQL API never does.
        throw new AuthMissing(
          `${what}: GitHub's GraphQL API needs a token. Set the "token" input, or "api: rest" on the source to read public repositories without one`,
          { ...mapped.data },
          { cause: e },
        );
      }
      throw mapped;
    }
    const headers = f.headers ?? response?.headers;
    ctx.budget.observeHeaders(headers);
    const limited = errors.find((x) => x.type === 'RATE_LIMITED');
    if (limited) {
      const reset = Number(headers?.['x-ratelimit-reset'] ?? 0) || undefined;
      throw new RateLimited(`${what}: GitHub GraphQL rate limit exceeded: ${limited.message ?? ''}`.trim(), {
        ...(reset ? { reset } : {}),
        operation: SOURCE_OPERATION,
      });
    }
    const missing = errors.find((x) => x.type === 'NOT_FOUND');
    if (missing) {
      const alias = String(missing.path?.[0] ?? '');
      const repository = aliasNames[alias] ?? String(variables.login ?? what);
      throw new NotFound(
        `source repository ${repository} not found (GraphQL: ${missing.message ?? 'NOT_FOUND'}): check the name in the projection spec, and that the token can read it (private repositories of another owner need a token with access; the workflow's GITHUB_TOKEN only sees its own repository)`,
        { operation: SOURCE_OPERATION, repository },
      );
    }
    const messages = errors.map((x) => `${x.type ? `${x.type}: ` : ''}${x.message ?? ''}`).join('; ');
    throw new InvalidResponse(
      `${what}: GitHub's GraphQL API answered with errors: ${messages}. If this is a GitHub Enterprise Server without these fields, set "api: rest" on the source`,
      { operation: SOURCE_OPERATION, errors },
    );
  }
  const rl = data?.rateLimit as { remaining?: number; limit?: number; resetAt?: string } | undefined;
  if (rl && typeof rl.remaining === 'number') {
    ctx.budget.observe('graphql', {
      remaining: rl.remaining,
      limit: Number(rl.limit ?? 0),
      reset: rl.resetAt ? Math.floor(Date.parse(rl.resetAt) / 1000) : 0,
    });
  }
  return data;
}

function split(full: string): [string, string] {
  const i = full.indexOf('/');
  return [full.slice(0, i), full.slice(i + 1)];
}

/** Continue every branch list with more than 100 entries, several repositories per query. */
async function completeBranches(ctx: ReadContext, nodes: RepositoryNode[]): Promise<void> {
  let open = nodes.filter((n) => n.refs?.pageInfo.hasNextPage && n.refs.pageInfo.endCursor);
  while (open.length > 0) {
    const batch = open.slice(0, 50);
    const variables: Record<string, unknown> = {};
    batch.forEach((n, i) => {
      [variables[`o${i}`], variables[`n${i}`]] = split(n.nameWithOwner);
      variables[`c${i}`] = n.refs!.pageInfo.endCursor;
    });
    const data = await query(
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
      n.refs!.nodes.push(...page.nodes);
      n.refs!.pageInfo = page.pageInfo;
    });
    open = open.filter((n) => n.refs?.pageInfo.hasNextPage && n.refs.pageInfo.endCursor);
  }
}

function toItem(node: RepositoryNode): SourceItem {
  const repository = restShape(node);
  const [owner, name] = split(node.nameWithOwner);
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
      [variables[`o${i}`], variables[`n${i}`]] = split(full);
      aliases[`r${i}`] = full;
    });
    const label = batch.length === 1 ? batch[0]! : `${batch[0]} … ${batch.at(-1)}`;
    // Per repository: its branch list and its topics (two connections).
    const points = pointsFor(2 * batch.length);
    const data = await query(
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

/** Every repository of an owner (`owner/*`), 100 per query, filtered. */
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
  do {
    const data = await query(
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
