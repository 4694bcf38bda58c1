/**
 * Built-in GitHub sources, fetched through Octokit page by page (bounded memory): each source yields
 * pages of items, and the runner reduces a page before asking for the next one.
 *
 * Pagination follows the `Link: <…>; rel="next"` header, but only to URLs on the configured API
 * origin, so the token is never sent anywhere else (see ARCHITECTURE.md, "GitHub API facts").
 */
import { utf8 } from '../core/bytes.js';
import { DocDbError, InvalidResponse, NotFound, TransportError } from '../core/errors.js';
import { mapStatusError } from '../stores/remote-api/status.js';
import type { SourceSpec, SourceType } from './spec.js';

/** The part of an Octokit instance the sources use (`@octokit/rest`'s `Octokit` satisfies it). */
export interface SourceClient {
  request(
    route: string | { method: string; url: string },
    params?: Record<string, unknown>,
  ): Promise<{ status: number; headers: Record<string, unknown>; data: unknown }>;
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
  repository: string;
  /** 1-based page number within this repository. */
  page: number;
  items: SourceItem[];
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

function splitRepo(full: string): { owner: string; name: string } {
  const i = full.indexOf('/');
  return { owner: full.slice(0, i), name: full.slice(i + 1) };
}

function status(e: unknown): number | undefined {
  const s = (e as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Parse a `Link` header into rel → URL. */
export function parseLinkHeader(link: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof link !== 'string') return out;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part);
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

/** Operation name source errors carry in `data.operation` (the Action's failure hints key on it). */
export const SOURCE_OPERATION = 'projection source';

interface OctokitFailure {
  status?: unknown;
  message?: string;
  response?: { status: number; headers?: Record<string, unknown>; data?: unknown };
  request?: { headers?: Record<string, unknown> };
}

/**
 * Turn an Octokit failure on a source request into docdb's typed error through the ONE status mapping
 * (`mapStatusError`), so sources and the store report 401/403/404/409/429/5xx alike. Octokit reports a
 * connection failure as status 500 without a `response`: that is a TransportError, not an upstream 500.
 */
function sourceError(e: unknown, repository: string, path: string): unknown {
  if (e instanceof DocDbError) return e;
  const f = e as OctokitFailure;
  if (!f?.response) {
    if (typeof f?.status !== 'number') return e;
    return new TransportError(
      `${SOURCE_OPERATION}: GET ${path} failed without a response: ${f.message ?? 'connection error'}`,
      {
        operation: SOURCE_OPERATION,
        repository,
        path,
      },
      { cause: e },
    );
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(f.response.headers ?? {}))
    if (v !== undefined) headers[k.toLowerCase()] = String(v);
  const body =
    f.response.data === undefined
      ? new Uint8Array()
      : utf8(typeof f.response.data === 'string' ? f.response.data : JSON.stringify(f.response.data));
  const mapped = mapStatusError(
    {
      operation: SOURCE_OPERATION,
      step: `read ${repository}`,
      method: 'GET',
      path,
      repo: repository,
      // Octokit keeps the (redacted) authorization header on the error's request.
      authenticated: Boolean(f.request?.headers?.authorization),
    },
    { status: f.response.status, headers, body },
  );
  if (mapped instanceof NotFound) {
    return new NotFound(
      `source repository ${repository} not found (GET ${path} answered 404): check the name in the projection spec, and that the token can read it (private repositories of another owner need a token with access; the workflow's GITHUB_TOKEN only sees its own repository)`,
      { ...mapped.data, repository },
    );
  }
  return mapped;
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
  const { owner, name } = splitRepo(repository);
  const base = { owner, name, repo: repository };
  const perPage = options.perPage ?? 100;
  switch (source.type) {
    case 'repository': {
      let repo: Record<string, unknown>;
      try {
        repo = (await client.request('GET /repos/{owner}/{repo}', { owner, repo: name })).data as Record<
          string,
          unknown
        >;
      } catch (e) {
        throw sourceError(e, repository, `/repos/${repository}`);
      }
      const branches: unknown[] = [];
      try {
        for await (const page of paginate(
          client,
          'GET /repos/{owner}/{repo}/git/matching-refs/{ref}',
          { owner, repo: name, ref: 'heads', per_page: perPage },
          options.apiUrl,
        )) {
          // matching-refs is a plain prefix match: `heads` would also return e.g. `refs/heads-old/x`.
          for (const b of page)
            if (String((b as { ref?: unknown })?.ref ?? '').startsWith('refs/heads/')) branches.push(b);
        }
      } catch (e) {
        // An empty source repository has no branches: GitHub answers 409 "Git Repository is empty.".
        if (status(e) !== 409) throw sourceError(e, repository, `/repos/${repository}/git/matching-refs/heads`);
      }
      const fullName = typeof repo.full_name === 'string' ? repo.full_name : repository;
      const [o, n] = [fullName.split('/')[0]!, fullName.split('/').slice(1).join('/')];
      yield {
        repository,
        page: 1,
        items: [
          {
            repository,
            vars: { owner: o, name: n, repo: fullName, defaultBranch: String(repo.default_branch ?? '') },
            item: { repository: repo, branches },
            matches: true,
          },
        ],
      };
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
      yield* listPages(client, 'issues', params, repository, options, (data) => {
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
      yield* listPages(client, 'pulls', params, repository, options, (data) => {
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
      yield* listPages(client, 'releases', params, repository, options, (data) => {
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
async function* listPages(
  client: SourceClient,
  list: 'issues' | 'pulls' | 'releases',
  params: Record<string, unknown>,
  repository: string,
  options: FetchOptions,
  toItems: (data: Record<string, unknown>[]) => { items: SourceItem[]; last?: boolean },
): AsyncGenerator<SourcePage> {
  let page = 0;
  try {
    for await (const data of paginate(client, `GET /repos/{owner}/{repo}/${list}`, params, options.apiUrl)) {
      const { items, last } = toItems(data as Record<string, unknown>[]);
      yield { repository, page: ++page, items };
      if (last) return;
    }
  } catch (e) {
    throw sourceError(e, repository, `/repos/${repository}/${list}`);
  }
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
