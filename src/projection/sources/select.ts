/**
 * Which repositories a source reads: names listed in `repositories`, and `owner/*` expanded to every
 * repository of an organisation or user (paginated, filtered by `archived`, `forks`, `visibility`,
 * `topics`). The REST listing tries `GET /orgs/{owner}/repos` and falls back to `GET /users/{owner}/repos`
 * on 404 (a user, not an organisation); listing pages are read conditionally like every REST list.
 */

import { InvalidResponse, NotFound } from '../../core/errors.js';
import { OWNER_WILDCARD_RE, type SelectionFilters } from '../spec/index.js';
import { nextOnOrigin } from './api-url.js';
import { conditionalWalk } from './conditional-walk.js';
import type { ReadContext } from './read-context.js';
import { sourceError } from './source-error.js';

/** The fields filters look at, in REST's names (GraphQL nodes are mapped to these). */
export interface FilterFields {
  archived?: unknown;
  fork?: unknown;
  private?: unknown;
  visibility?: unknown;
  topics?: unknown;
}

const include = (want: boolean | 'only' | undefined, value: boolean) =>
  want === undefined || want === true ? true : want === 'only' ? value : !value;

/**
 * Whether a repository passes the `owner/*` filters.
 *
 * @example
 * matchesFilters({ archived: true }, { archived: false }); // false
 */
export function matchesFilters(repo: FilterFields, f: SelectionFilters): boolean {
  if (!include(f.archived, repo.archived === true)) return false;
  if (!include(f.forks, repo.fork === true)) return false;
  const isPrivate = repo.private === true || (typeof repo.visibility === 'string' && repo.visibility !== 'public');
  if (f.visibility === 'public' && isPrivate) return false;
  if (f.visibility === 'private' && !isPrivate) return false;
  if (f.topics?.length) {
    const topics = Array.isArray(repo.topics) ? repo.topics.map(String) : [];
    if (!f.topics.every((t) => topics.includes(t))) return false;
  }
  return true;
}

export const isWildcard = (selector: string) => OWNER_WILDCARD_RE.test(selector);

/**
 * Expand `repositories` to full names, in order, without duplicates (case-insensitive, like GitHub).
 *
 * @example
 * for await (const name of expandRepositories(ctx, ['octo-org/*', 'octocat/hello-world'], {})) console.log(name);
 */
export async function* expandRepositories(
  ctx: ReadContext,
  selectors: readonly string[],
  filters: SelectionFilters,
): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const selector of selectors) {
    const names = isWildcard(selector) ? listOwnerRepositories(ctx, selector.slice(0, -2), filters) : one(selector);
    for await (const name of names) {
      if (seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      yield name;
    }
  }
}

async function* one(name: string): AsyncGenerator<string> {
  yield name;
}

/**
 * Every repository of `owner` through REST, filtered, in name order.
 *
 * @example
 * for await (const name of listOwnerRepositories(ctx, 'octo-org', { forks: false })) console.log(name);
 */
export async function* listOwnerRepositories(
  ctx: ReadContext,
  owner: string,
  filters: SelectionFilters,
): AsyncGenerator<string> {
  const query = `per_page=${ctx.perPage}&sort=full_name&direction=asc`;
  const attempts = [`/orgs/${owner}/repos?type=all&${query}`, `/users/${owner}/repos?type=owner&${query}`];
  for (const [i, first] of attempts.entries()) {
    let pages = 0;
    try {
      for await (const step of ownerPages(ctx, owner, first, filters)) {
        pages++;
        yield* step.previous ? (step.previous.names ?? []) : step.value;
      }
      return;
    } catch (e) {
      const status = (e as { status?: unknown })?.status;
      // An organisation answers /orgs/…; a user only /users/… (GitHub answers 404 for a user under /orgs/).
      if (status === 404 && pages === 0 && i === 0) continue;
      if (status === 404 && pages === 0) {
        throw new NotFound(
          `"${owner}/*": no organisation or user "${owner}" (GET /orgs/${owner}/repos and /users/${owner}/repos answered 404); check the owner in the projection spec`,
          { owner, operation: 'projection source' },
        );
      }
      throw sourceError(e, `${owner}/*`, first.split('?')[0]!);
    }
  }
}

/** The pages of one owner listing: the names that pass the filters, kept for a 304 on the next run. */
function ownerPages(ctx: ReadContext, owner: string, first: string, filters: SelectionFilters) {
  return conditionalWalk<string[]>(ctx, {
    first,
    what: `repositories of ${owner}/*`,
    read: (data, headers, current) => {
      if (!Array.isArray(data)) throw new InvalidResponse(`GET ${current} did not return an array`, { path: current });
      const names = (data as FilterFields[])
        .filter((r) => matchesFilters(r, filters))
        .map((r) => String((r as { full_name?: unknown }).full_name));
      return { value: names, next: nextOnOrigin(ctx, headers.link, current), names };
    },
    // Mapped by the caller, which first tells a user from an organisation by the raw 404.
    fail: (e) => e,
  });
}
