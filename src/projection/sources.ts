/**
 * Built-in GitHub sources, fetched through Octokit page by page (bounded memory): each source yields
 * pages of items, and the runner reduces a page before asking for the next one.
 *
 * Pagination follows the `Link: <…>; rel="next"` header, but only to URLs on the configured API
 * origin, so the token is never sent anywhere else (see ARCHITECTURE.md, "GitHub API facts").
 */
import { InvalidResponse } from '../core/errors.js';
import { apiBaseOf } from './api-url.js';
import { RateBudget } from './budget.js';
import { ConditionalBook } from './conditional.js';
import { readListPages } from './list-pages.js';
import type { ReadContext } from './read-context.js';
import { restRepository } from './repository-rest.js';
import { parseLinkHeader } from './source-http.js';
import type { SourceSpec, SourceType } from './spec/index.js';

/** The part of an Octokit instance the sources use (`@octokit/rest`'s `Octokit` satisfies it). */
export { parseLinkHeader, SOURCE_OPERATION, sourceError } from './source-http.js';

export interface SourceClient {
  request(
    route: string | { method: string; url: string },
    params?: Record<string, unknown>,
  ): Promise<{ status: number; headers: Record<string, unknown>; data: unknown }>;
  /** GraphQL (Octokit's `graphql`): resolves to `data`, throws a GraphqlResponseError when `errors` came back. */
  graphql?(query: string, variables?: Record<string, unknown>): Promise<unknown>;
}

/** One source item, ready for a reducer. */
export interface SourceItem {
  /** Repository the item came from, `owner/name`. */
  repository: string;
  /** Values for the identity template (`{owner}`, `{name}`, `{repo}`, `{number}`, `{tag}`, `{id}`…). */
  vars: Record<string, string | number>;
  /** The item as GitHub returned it (for `repository`: `{ repository, branches }`). */
  item: unknown;
  /** `updated_at` when the source has one (drives the incremental watermark). */
  updatedAt?: string;
  /** False when the item no longer matches the source filter (seen in an incremental run, e.g. an issue closed
   * while `state: open`): its document is removed when the projection prunes. */
  matches: boolean;
}

export interface SourcePage {
  /** What the page was read from, for progress lines: a repository, `owner/*`, a URL or a file. */
  repository: string;
  /** 1-based page number within this repository. */
  page: number;
  items: SourceItem[];
  /**
   * Set when the page was read conditionally (see conditional.ts): `key` is its endpoint key, whose ETags and
   * produced document keys are stored; `notModified` means a 304 — `items` is empty and the documents the
   * previous run produced from this page are unchanged.
   */
  conditional?: { key: string; notModified?: boolean };
}

export interface FetchOptions {
  /** Incremental watermark: only items updated at or after this ISO time (issues, pulls). */
  since?: string;
  /** Items per page (1–100, default 100). */
  perPage?: number;
  /** API origin pagination links must stay on (default: the origin of the first response's links). */
  apiUrl?: string;
}

/** Whether a source can fetch incrementally from a `since` watermark. */
export function supportsIncremental(type: SourceType): boolean {
  return type === 'issues' || type === 'pulls';
}

/** A read context without conditional reads, budget floor, shard or workspace (for `fetchSource`). */
function plainContext(client: SourceClient, options: FetchOptions): ReadContext {
  return {
    client,
    budget: new RateBudget(0),
    book: new ConditionalBook(undefined, undefined, () => false),
    perPage: options.perPage ?? 100,
    apiUrl: apiBaseOf(client, options.apiUrl),
    fetch: globalThis.fetch,
    env: {},
    workspace: '.',
    log: () => {},
  };
}

function splitRepo(full: string): { owner: string; name: string } {
  const i = full.indexOf('/');
  return { owner: full.slice(0, i), name: full.slice(i + 1) };
}

/**
 * GET every page of a list endpoint. Yields each page's array; follows `Link` rel="next" only while it
 * stays on the API origin.
 */
export async function* paginate(
  client: SourceClient,
  route: string,
  params: Record<string, unknown>,
  apiUrl?: string,
): AsyncGenerator<unknown[]> {
  let res = await client.request(route, params);
  let origin: string | undefined = apiUrl ? new URL(apiUrl).origin : undefined;
  for (;;) {
    if (!Array.isArray(res.data)) {
      throw new InvalidResponse(`${route} did not return an array`, { route, status: res.status });
    }
    yield res.data;
    const next = parseLinkHeader(res.headers.link).next;
    if (!next) return;
    const nextOrigin = new URL(next).origin;
    origin ??= nextOrigin;
    if (nextOrigin !== origin) {
      throw new InvalidResponse(
        `pagination link of ${route} points at ${nextOrigin}, not the API origin ${origin}; refusing to follow it (the token must not leave the API origin)`,
        { route },
      );
    }
    res = await client.request({ method: 'GET', url: next });
  }
}

/**
 * Fetch one repository's items for a source, page by page.
 *
 * @example
 * for await (const page of fetchSource(octokit, spec.source, 'octo/hello')) console.log(page.items.length);
 */
export async function* fetchSource(
  client: SourceClient,
  source: SourceSpec,
  repository: string,
  options: FetchOptions = {},
): AsyncGenerator<SourcePage> {
  yield* readRepositoryItems(plainContext(client, options), source, repository, options.since);
}

/**
 * One repository's items for a per-repository source (repository over REST, issues, pulls, releases), with the
 * run's conditional reads and budget (read-source.ts calls this; `fetchSource` is the plain public form).
 */
export async function* readRepositoryItems(
  ctx: ReadContext,
  source: SourceSpec,
  repository: string,
  since?: string,
): AsyncGenerator<SourcePage> {
  const { owner, name } = splitRepo(repository);
  const base = { owner, name, repo: repository };
  const perPage = ctx.perPage;
  const options = { since };
  switch (source.type) {
    case 'repository': {
      yield* restRepository(ctx, repository);
      return;
    }
    case 'issues': {
      // Incremental runs ask for every state so issues that left the filter (e.g. got closed) are seen and pruned.
      const params: Record<string, unknown> = {
        owner,
        repo: name,
        state: options.since ? 'all' : source.state,
        sort: 'updated',
        direction: 'asc',
        per_page: perPage,
      };
      if (source.labels?.length && !options.since) params.labels = source.labels.join(',');
      const since = maxIso(options.since, source.since);
      if (since) params.since = since;
      yield* listPages(ctx, 'issues', params, repository, (data) => {
        const items: SourceItem[] = [];
        for (const raw of data) {
          // GitHub lists pull requests in the issues endpoint too; they belong to the `pulls` source.
          if (raw.pull_request !== undefined && raw.pull_request !== null) continue;
          const labels = labelNames(raw.labels);
          items.push({
            repository,
            vars: { ...base, number: Number(raw.number), id: Number(raw.id) },
            item: raw,
            updatedAt: typeof raw.updated_at === 'string' ? raw.updated_at : undefined,
            matches:
              (source.state === 'all' || raw.state === source.state) &&
              (!source.labels?.length || source.labels.every((l) => labels.includes(l))),
          } as SourceItem);
        }
        return { items };
      });
      return;
    }
    case 'pulls': {
      const params: Record<string, unknown> = {
        owner,
        repo: name,
        state: options.since ? 'all' : source.state,
        sort: 'updated',
        direction: 'desc',
        per_page: perPage,
      };
      if (source.base) params.base = source.base;
      yield* listPages(ctx, 'pulls', params, repository, (data) => {
        const items: SourceItem[] = [];
        let older = 0;
        for (const raw of data) {
          const updatedAt = typeof raw.updated_at === 'string' ? raw.updated_at : undefined;
          // The pulls endpoint has no `since`; sorted by update time (newest first) we can stop at the watermark.
          if (options.since && updatedAt && updatedAt < options.since) {
            older++;
            continue;
          }
          items.push({
            repository,
            vars: { ...base, number: Number(raw.number), id: Number(raw.id) },
            item: raw,
            updatedAt,
            matches: source.state === 'all' || raw.state === source.state,
          } as SourceItem);
        }
        return { items, last: older > 0 };
      });
      return;
    }
    case 'releases': {
      const params = { owner, repo: name, per_page: perPage };
      yield* listPages(ctx, 'releases', params, repository, (data) => {
        const items: SourceItem[] = [];
        for (const raw of data) {
          if (!source.drafts && raw.draft === true) continue;
          if (!source.prereleases && raw.prerelease === true) continue;
          // Drafts have no tag until published; fall back to the release id so the identity stays unique.
          const tag = typeof raw.tag_name === 'string' && raw.tag_name ? raw.tag_name : `draft-${raw.id}`;
          items.push({ repository, vars: { ...base, tag, id: Number(raw.id) }, item: raw, matches: true });
        }
        return { items };
      });
      return;
    }
  }
}

/**
 * One list endpoint of a repository (`/repos/{owner}/{repo}/<list>`), page by page: each page is turned into
 * items by `toItems` and yielded before the next page is requested (bounded memory); `last: true` stops early.
 * Failures go through `sourceError`, i.e. the one status mapping.
 */
function listPages(
  ctx: ReadContext,
  list: 'issues' | 'pulls' | 'releases',
  params: Record<string, unknown>,
  repository: string,
  toItems: (data: Record<string, unknown>[]) => { items: SourceItem[]; last?: boolean },
): AsyncGenerator<SourcePage> {
  const { owner, name } = splitRepo(repository);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (k !== 'owner' && k !== 'repo') query.set(k, String(v));
  const path = `/repos/${owner}/${name}/${list}`;
  return readListPages(ctx, `${path}?${query}`, repository, (data) => {
    if (!Array.isArray(data)) throw new InvalidResponse(`GET ${path} did not return an array`, { path });
    return toItems(data as Record<string, unknown>[]);
  });
}

function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels.map((l) => (typeof l === 'string' ? l : String((l as { name?: unknown })?.name ?? '')));
}

function maxIso(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
