/**
 * The GraphQL documents the `repository` source sends (checked against GitHub's schema by the emulator's
 * tests), the shapes they answer with, and what each costs in rate-limit points. Every query asks for
 * `rateLimit`, which feeds `min-rate-limit`.
 * See https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api.
 */

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

/**
 * The query continuing the branch lists of several repositories past their first 100.
 *
 * @example
 * branchesQuery(1); // query DocdbBranches($o0: String!, $n0: String!, $c0: String!) { … }
 */
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

export interface BranchPage {
  totalCount?: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { name: string; target: { oid: string } | null }[];
}

export interface RepositoryNode {
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

/**
 * Points a query costs: one request per connection per parent node, divided by 100, rounded, at least 1
 * (https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api#calculating-a-rate-limit-score-before-running-the-call).
 *
 * @example
 * pointsFor(2 * 100); // 2 (a hundred repositories, each with two connections)
 */
export function pointsFor(connectionRequests: number): number {
  return Math.max(1, Math.round(connectionRequests / 100));
}
