/**
 * The contract between the request pipeline and the routes: what a route is (`RouteDef`), what it is
 * handed (`RouteContext`), and the narrow view of the world it may use (`RouteState`). Routes and the
 * GraphQL resolvers depend on these types, never on the EmulatorState class, so they do not import the
 * state (or each other).
 */
import type { ApiResponse } from './http.js';
import type {
  Account,
  Budget,
  LabelRecord,
  PermissionScope,
  RepoAccess,
  RepoRecord,
  TokenRecord,
  Urls,
} from './model.js';

/** What routes (and the GraphQL resolvers) may read and change in the world. EmulatorState implements it. */
export interface RouteState {
  /** Epoch milliseconds (the emulator's clock: dates of API commits, budget windows). */
  now(): number;
  /** Shared by every unauthenticated client. */
  readonly anonymousBudget: Budget;
  /** Start a new window when the current one has passed; returns the same object. */
  refreshBudget(b: Budget): Budget;
  accessOf(token: TokenRecord | undefined, repo: RepoRecord): RepoAccess | 'none';
  findRepo(fullName: string): RepoRecord | undefined;
  listRepos(): RepoRecord[];
  findAccount(login: string): Account | undefined;
  /** The account with this login, created if unknown (a `Bot` when `type` says so). */
  account(login: string, type?: Account['type']): Account;
  /** A fresh id (one sequence for every record, like GitHub's database ids). */
  newId(): number;
  /** Record a push (updates `pushed_at`). */
  touch(repo: RepoRecord): void;
  ensureLabel(repo: RepoRecord, name: string, color?: string, description?: string | null): LabelRecord;
}

/** What the request pipeline needs beyond the routes' view: tokens and the empty-repository rule. */
export interface ServedState extends RouteState {
  findToken(token: string): TokenRecord | undefined;
  isEmpty(repo: RepoRecord): boolean;
}

export interface ResolvedOptions {
  treeTruncateLimit: number;
  /** Bytes of a recursive tree answer past which it is truncated (GitHub: 7 MB). */
  treeTruncateBytes: number;
  maxBodyBytes: number;
  /** Bytes of a file the contents endpoint serves at most (GitHub: 100 MB; larger is 403 `too_large`). */
  contentsMaxBytes: number;
  /** Bytes of GraphQL `Blob.text` before `isTruncated: true` (GitHub: 512,000, measured; undocumented). */
  graphqlBlobTextBytes: number;
  /** Whether GraphQL serves the `updateRefs` mutation (false: a host whose schema predates it). */
  graphqlUpdateRefs: boolean;
  /** The archive download site (codeload.github.com's part) that `GET /tarball` redirects to. */
  codeload: CodeloadSite;
}

/** A short-lived download credential a `/tarball` redirect carries for a private repository. */
export interface ArchiveTicket {
  repo: string;
  commit: string;
  /** Epoch ms after which codeload refuses it. */
  expires: number;
}

/** The separate origin archives are downloaded from, and the credentials it has handed out. */
export interface CodeloadSite {
  /** Base URL (its own origin), e.g. `http://127.0.0.1:PORT`. */
  url: string;
  tickets: Map<string, ArchiveTicket>;
}

export interface RouteContext {
  state: RouteState;
  options: ResolvedOptions;
  urls: Urls;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when the request had none). */
  body: unknown;
  /** Resolved and access-checked repository (repo routes only). */
  repo: RepoRecord;
  token: TokenRecord | undefined;
  /** Request path without query, for building Link headers. */
  path: string;
  /** Request headers (media types in `Accept`, for example). */
  headers: Headers;
}

export interface RouteDef {
  method: string;
  path: string;
  operation: string;
  doc: string;
  /** Needs write access to the repository (POST/PATCH/DELETE on repo routes). */
  write?: boolean;
  /**
   * With `write`: the token permissions of which one must be `write` when the token has `permissions`
   * (TokenOptions.permissions); default `['contents']`.
   */
  permissions?: readonly PermissionScope[];
  /** Answer 409 "Git Repository is empty." when the repository has no refs. */
  emptyConflict?: boolean;
  /** False for endpoints that cost no rate-limit budget (`GET /rate_limit`), or that charge it themselves. */
  costs?: boolean;
  /** The rate-limit resource the route reports in `x-ratelimit-*` (default `core`). */
  resource?: 'core' | 'graphql';
  /**
   * Answer the request. May be async: a route that needs a heavy module loads it with `await import()`
   * inside the handler, so an emulator that never serves the route (the in-page one) never loads it.
   */
  handler(ctx: RouteContext): ApiResponse | Promise<ApiResponse>;
}
