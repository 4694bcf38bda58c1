/**
 * The part of GitHub's GraphQL graph the emulator serves — what docdb's sources query: `repository`,
 * `repositoryOwner { repositories }`, a repository's fields, `refs`, `ref(qualifiedName:)` (its target a git object,
 * so `... on Commit { file(path:) }` reads files at the tip), `repositoryTopics`,
 * `defaultBranchRef` and `rateLimit`. Objects are plain values (graphql-js's default resolver reads
 * properties and calls functions with the field's arguments); interfaces carry `__typename`.
 * Anything else in the schema resolves to null (and a non-null field then errors, as it should: the
 * emulator does not pretend to serve it).
 */

import type { Account, RepoRecord, TokenRecord, Urls } from '../model.js';
import { fullRefName } from '../revisions.js';
import type { RouteState } from '../route-context.js';
import { nodeId } from '../shapes/common.js';
import { gitObject } from './git-objects.js';

/**
 * A GraphQL error GitHub reports with a top-level `type` (`NOT_FOUND`, `FORBIDDEN`, …).
 *
 * @example
 * throw new TypedGraphqlError('NOT_FOUND', "Could not resolve to a Repository with the name 'o/r'.");
 */
export class TypedGraphqlError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

const cursorOf = (i: number) => Buffer.from(`cursor:v2:${i}`).toString('base64');
function indexOf(cursor: string | null | undefined): number | undefined {
  if (cursor === undefined || cursor === null) return undefined;
  const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m)
    throw new TypedGraphqlError('INVALID_CURSOR_ARGUMENTS', `\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(m[1]);
}

/**
 * A connection over `all` with GitHub's cursor paging.
 *
 * @example
 * connection(['a', 'b', 'c'], { first: 2 }).pageInfo; // { hasNextPage: true, endCursor: …, … }
 */
export function connection<T>(all: readonly T[], args: PageArgs) {
  let start = 0;
  let end = all.length;
  const after = indexOf(args.after);
  const before = indexOf(args.before);
  if (after !== undefined) start = after + 1;
  if (before !== undefined) end = Math.min(end, before);
  if (typeof args.first === 'number') end = Math.min(end, start + args.first);
  if (typeof args.last === 'number') start = Math.max(start, end - args.last);
  const slice = all.slice(start, end);
  return {
    totalCount: all.length,
    nodes: slice,
    edges: slice.map((node, i) => ({ node, cursor: cursorOf(start + i) })),
    pageInfo: {
      hasNextPage: end < all.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? cursorOf(start) : null,
      endCursor: slice.length ? cursorOf(end - 1) : null,
    },
  };
}

type OwnerRepositoriesArgs = PageArgs & {
  privacy?: 'PUBLIC' | 'PRIVATE';
  isFork?: boolean;
  isArchived?: boolean;
  ownerAffiliations?: string[];
  orderBy?: { field: string; direction: 'ASC' | 'DESC' };
};

type RefsArgs = PageArgs & { refPrefix: string; orderBy?: { field: string; direction: 'ASC' | 'DESC' } };

const REPOSITORY_ORDER: Record<string, (r: RepoRecord) => string> = {
  NAME: (r) => r.name.toLowerCase(),
  CREATED_AT: (r) => r.createdAt,
  UPDATED_AT: (r) => r.updatedAt,
  PUSHED_AT: (r) => r.pushedAt,
};

/** What the resolvers below the root see of the request. */
type View = Pick<RootContext, 'state' | 'token' | 'urls' | 'blobTextBytes' | 'served'>;

function ownerObject(view: View, login: string) {
  const { state, urls, token } = view;
  const account = state.findAccount(login);
  // A bot (`github-actions[bot]`) is no RepositoryOwner (User or Organization) in GitHub's schema.
  if (!account || account.type === 'Bot') return null;
  return {
    __typename: account.type,
    id: nodeId(account.type, account.id),
    login: account.login,
    url: `${urls.html}/${account.login}`,
    repositories: (args: OwnerRepositoriesArgs) =>
      connection(
        ownerRepositories(state, account, token, args).map((r) => repositoryObject(view, r)),
        args,
      ),
  };
}

/** The owner's repositories the token can see, filtered and ordered as the arguments ask (ties by id). */
function ownerRepositories(
  state: RouteState,
  account: Account,
  token: TokenRecord | undefined,
  args: OwnerRepositoriesArgs,
): RepoRecord[] {
  const by = REPOSITORY_ORDER[args.orderBy?.field ?? 'CREATED_AT'] ?? REPOSITORY_ORDER.CREATED_AT!;
  const dir = args.orderBy?.direction === 'DESC' ? -1 : 1;
  return state
    .listRepos()
    .filter(
      (r) =>
        r.owner === account &&
        state.accessOf(token, r) !== 'none' &&
        (args.privacy === undefined || (args.privacy === 'PRIVATE') === r.private) &&
        (args.isFork === undefined || args.isFork === null || args.isFork === r.fork) &&
        (args.isArchived === undefined || args.isArchived === null || args.isArchived === r.archived),
    )
    .sort((a, b) => {
      const [x, y] = [by(a), by(b)];
      return dir * (x < y ? -1 : x > y ? 1 : a.id - b.id);
    });
}

const commitObject = (oid: string) => ({ __typename: 'Commit', id: nodeId('Commit', oid), oid });

function repositoryObject(view: View, r: RepoRecord) {
  const { urls } = view;
  const defaultTip = r.db.readRef(fullRefName(r.defaultBranch));
  return {
    __typename: 'Repository',
    id: nodeId('Repository', r.id),
    databaseId: r.id,
    name: r.name,
    nameWithOwner: r.fullName,
    owner: () => ownerObject(view, r.owner.login),
    description: r.description,
    isPrivate: r.private,
    visibility: r.private ? 'PRIVATE' : 'PUBLIC',
    isArchived: r.archived,
    isFork: r.fork,
    url: `${urls.html}/${r.fullName}`,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    pushedAt: r.pushedAt,
    defaultBranchRef: defaultTip
      ? {
          __typename: 'Ref',
          id: nodeId('Ref', `${r.id}:${r.defaultBranch}`),
          name: r.defaultBranch,
          prefix: 'refs/heads/',
          target: commitObject(defaultTip),
        }
      : null,
    repositoryTopics: (args: PageArgs) =>
      connection(
        r.topics.map((name) => ({ __typename: 'RepositoryTopic', topic: { __typename: 'Topic', name } })),
        args,
      ),
    refs: (args: RefsArgs) => refsConnection(r, args),
    ref: (args: { qualifiedName: string }) => refObject(view, r, args.qualifiedName),
    object: (args: { expression?: string | null; oid?: string | null }) =>
      gitObject(r, args, view.blobTextBytes, view.served),
  };
}

/**
 * `ref(qualifiedName:)`: a fully qualified name first (`refs/heads/main`, `refs/docdb/documents`), then the name
 * as a branch's or a tag's short name, as GitHub documents (so `refs/x/y` may answer `refs/heads/refs/x/y`); null
 * when none exists. `name` is the part after `prefix`
 * (`refs/heads/`, `refs/tags/`, or the first two segments of another ref's name).
 */
function refObject(view: View, r: RepoRecord, qualifiedName: string) {
  const short = [`refs/heads/${qualifiedName}`, `refs/tags/${qualifiedName}`];
  const candidates = qualifiedName.startsWith('refs/') ? [qualifiedName, ...short] : short;
  for (const full of candidates) {
    const sha = r.db.readRef(full);
    if (!sha) continue;
    const prefix = /^refs\/[^/]+\//.exec(full)?.[0] ?? 'refs/';
    return {
      __typename: 'Ref',
      id: nodeId('Ref', `${r.id}:${full}`),
      name: full.slice(prefix.length),
      prefix,
      target: () => gitObject(r, { oid: sha }, view.blobTextBytes, view.served),
    };
  }
  return null;
}

/** `refs(refPrefix:)`: names without the prefix, alphabetical (reversed for DESC). */
function refsConnection(r: RepoRecord, args: RefsArgs) {
  const refs = r.db
    .listRefs(args.refPrefix)
    .map((x) => ({ name: x.ref.slice(args.refPrefix.length), sha: x.sha }))
    .filter((x) => x.name !== '')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (args.orderBy?.direction === 'DESC') refs.reverse();
  return connection(
    refs.map((x) => ({
      __typename: 'Ref',
      id: nodeId('Ref', `${r.id}:${args.refPrefix}${x.name}`),
      name: x.name,
      prefix: args.refPrefix,
      target: commitObject(x.sha),
    })),
    args,
  );
}

export interface RootContext {
  state: RouteState;
  token: TokenRecord | undefined;
  urls: Urls;
  /** Bytes of `Blob.text` served before `isTruncated` (the emulator's `graphqlBlobTextBytes`). */
  blobTextBytes: number;
  /** Told the SHA of every blob whose `text` the answer carries. */
  served?: (sha: string) => void;
  /** What `rateLimit` reports (after this query was charged). */
  rateLimit: { cost: number; limit: number; remaining: number; used: number; resetAt: string; nodeCount: number };
}

/**
 * The Query root: `repository`, `repositoryOwner`, `organization`, `user`, `rateLimit`.
 *
 * @example
 * await execute({ schema, document, rootValue: rootValue({ state, token, urls, rateLimit }) });
 */
export function rootValue(ctx: RootContext) {
  const { state, token } = ctx;
  return {
    rateLimit: () => ctx.rateLimit,
    repository: (args: { owner: string; name: string }) => {
      const r = state.findRepo(`${args.owner}/${args.name}`);
      if (!r || state.accessOf(token, r) === 'none') {
        throw new TypedGraphqlError(
          'NOT_FOUND',
          `Could not resolve to a Repository with the name '${args.owner}/${args.name}'.`,
        );
      }
      return repositoryObject(ctx, r);
    },
    // GitHub answers null (no error) for an unknown owner here.
    repositoryOwner: (args: { login: string }) => ownerObject(ctx, args.login),
    organization: (args: { login: string }) => {
      const o = ownerObject(ctx, args.login);
      if (o?.__typename !== 'Organization') {
        throw new TypedGraphqlError(
          'NOT_FOUND',
          `Could not resolve to an Organization with the login of '${args.login}'.`,
        );
      }
      return o;
    },
    user: (args: { login: string }) => {
      const o = ownerObject(ctx, args.login);
      if (o?.__typename !== 'User') {
        throw new TypedGraphqlError('NOT_FOUND', `Could not resolve to a User with the login of '${args.login}'.`);
      }
      return o;
    },
  };
}
