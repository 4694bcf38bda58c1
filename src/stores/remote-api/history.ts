/**
 * `history(key)` on the API: `GET /commits?path=<key>&sha=<ref>` page by page (`per_page` ≤ 100, the
 * `Link` header's next page), so a key's history costs 1 request per 100 commits. The next-page URL is
 * followed only on the configured API origin: anywhere else would receive the token. The listing is kept
 * with its first page's ETag: asked again while no commit was added, GitHub answers 304 — free of rate limit.
 * https://docs.github.com/rest/commits/commits#list-commits
 */
import type { CachedHistory, GitCache } from '../../cache/git-cache.js';
import { isSha } from '../../core/git/objects.js';
import type { HistoryEntry } from '../../core/refstore.js';
import { nextLink, nextPageOnApiOrigin, type OpContext } from './client.js';
import { badResponse, isObject, listedCommit, parsePerson } from './shapes.js';
import type { VersionsHost } from './versions.js';

/** What the store lends to the history walk (the same readers versions.ts borrows, and the cache). */
export type HistoryHost = Pick<VersionsHost, 'ref' | 'apiOrigin' | 'send' | 'readRef' | 'putCommit'> & {
  cache: Pick<GitCache, 'getHistory' | 'putHistory'>;
};

/** Largest page GitHub serves. */
const MAX_PER_PAGE = 100;

export { historyLimit } from './call-checks.js';

/** One page of a key's history: newest first, and where the next page starts when older entries remain. */
export interface HistoryPage {
  entries: HistoryEntry[];
  nextCursor?: string;
}

/**
 * The commits that changed `key` (every commit of the section when `key` is ''), newest first, at most
 * `limit`, from `cursor` (a commit of the section, checked by the caller) or the tip; empty when the
 * section does not exist. `nextCursor` is the first commit of the next page: an item of the last page
 * past `limit`, or the first parent of the last entry when GitHub's `Link` names a next page.
 *
 * @example
 * const { entries, nextCursor } = await keyHistory(host, ctx, 'github/repo/octo/hello.json', 100);
 */
export async function keyHistory(
  h: HistoryHost,
  ctx: OpContext,
  key: string,
  limit: number,
  cursor?: string,
): Promise<HistoryPage> {
  const page: HistoryPage = { entries: [] };
  const entries = page.entries;
  if (limit === 0) return page;
  const perPage = String(Math.min(MAX_PER_PAGE, limit));
  // Asked again while nothing changed: the first page's ETag answers 304, which costs no rate limit.
  const id = `${h.ref}|${limit}|${key}${cursor ? `|${cursor}` : ''}`;
  const origin = cursor ?? h.ref;
  const cached = await h.cache.getHistory(id, ctx.tokenId);
  let url: string | undefined;
  let etag: string | undefined;
  // `sha` takes the full ref name; if a host does not resolve it (404/422 while the ref exists),
  // fall back once to the tip commit SHA, which every host accepts. A cursor is a commit SHA already.
  let start: string = origin;
  while (entries.length < limit) {
    const first = url === undefined;
    const fromRef = first && start === h.ref;
    const res = await h.send(ctx, {
      step: 'list commits',
      method: 'GET',
      // No `path` (key ''): every commit of the section, for `log`.
      ...(first
        ? { path: '/commits', query: { ...(key ? { path: key } : {}), sha: start, per_page: perPage } }
        : { url }),
      ...(first && cached && start === origin ? { headers: { 'if-none-match': cached.etag } } : {}),
      retry: true,
      accept: fromRef ? [304, 404, 422] : first && cached ? [304] : [],
    });
    if (res.status === 304 && cached) return copyOf(cached);
    if (res.status === 404 || res.status === 422 || res.status === 304) {
      // "No commit found for SHA: refs/…": the section does not exist yet (or the repo is missing).
      const tip = await h.readRef(ctx);
      if (tip === null) return page;
      start = tip;
      continue;
    }
    if (first && start === origin) etag = res.headers.etag;
    const list = res.json();
    const left = appendPage(ctx, list, entries, limit, key === '');
    // The section's own commits (no `path` filter: real parents) are the commits a read at one of these
    // versions needs next: cached, `list({ version })` goes straight to the tree (one request, not two).
    if (key === '') await cacheListedCommits(h, list);
    const next = nextLink(res.headers.link);
    if (left !== undefined) page.nextCursor = left;
    else if (next && entries.length >= limit) page.nextCursor = entries[entries.length - 1]?.parents[0];
    if (!next || entries.length >= limit) break;
    url = nextPageOnApiOrigin(ctx, h.apiOrigin, next, 'history');
  }
  if (page.nextCursor === undefined) delete page.nextCursor;
  if (etag) await h.cache.putHistory(id, ctx.tokenId, { etag, ...page });
  return page;
}

function copyOf(cached: CachedHistory): HistoryPage {
  const entries = cached.entries.map((e) => ({ ...e }));
  return cached.nextCursor === undefined ? { entries } : { entries, nextCursor: cached.nextCursor };
}

/**
 * Add the commits of one page to `entries`, up to `limit`; returns the SHA of the first item left over
 * (the next page's start) when the page held more.
 */
function appendPage(
  ctx: OpContext,
  list: unknown,
  entries: HistoryEntry[],
  limit: number,
  trees: boolean,
): string | undefined {
  if (!Array.isArray(list)) throw badResponse(ctx, 'list commits', 'expected an array of commits');
  for (const item of list) {
    if (entries.length >= limit) return historyEntry(ctx, item).version;
    const entry = historyEntry(ctx, item);
    // The section's commits (`commits()`) carry their trees, as every store's do (compaction needs them).
    if (trees) entry.tree = treeOf(ctx, item);
    entries.push(entry);
  }
  return undefined;
}

/** Keep every commit of a page of the section's commits in the cache (what `getCommit` would fetch). */
async function cacheListedCommits(h: Pick<HistoryHost, 'putCommit'>, page: unknown): Promise<void> {
  if (!Array.isArray(page)) return;
  for (const item of page) {
    const commit = listedCommit(item);
    if (commit) await h.putCommit(commit);
  }
}

/** `commit.tree.sha` of one item of `GET /commits`. */
function treeOf(ctx: OpContext, item: unknown): string {
  const tree = isObject(item) && isObject(item.commit) && isObject(item.commit.tree) ? item.commit.tree.sha : undefined;
  if (!isSha(tree)) throw badResponse(ctx, 'list commits', 'commit.tree.sha missing');
  return tree;
}

/** One item of `GET /commits` as a history entry. */
function historyEntry(ctx: OpContext, item: unknown): HistoryEntry {
  if (!isObject(item) || !isSha(item.sha) || !isObject(item.commit) || !Array.isArray(item.parents)) {
    throw badResponse(ctx, 'list commits', 'items need sha, commit and parents');
  }
  return {
    version: item.sha,
    message: typeof item.commit.message === 'string' ? item.commit.message : '',
    author: parsePerson(ctx, 'list commits', item.commit.author),
    committer: parsePerson(ctx, 'list commits', item.commit.committer),
    parents: item.parents.map((p) => {
      if (!isObject(p) || !isSha(p.sha)) throw badResponse(ctx, 'list commits', 'parents[].sha missing');
      return p.sha;
    }),
  };
}
