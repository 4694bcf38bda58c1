/**
 * The walk of one REST listing with conditional reads, shared by the list sources (list-pages.ts) and the
 * `owner/*` listing (select.ts). Each page is asked with `If-None-Match` when the previous run's ETag is
 * known; a 304 continues at the next page the previous run stored, a 200 at the answer's `Link: rel="next"`
 * (the caller reads it, only inside the API). Every page is checked by a PageWalk (no page twice, at most
 * `max-pages`).
 *
 * The stored next page is untrusted (the state file lives in the section): trustedConditional has already
 * dropped entries whose next page is another endpoint. A stored next page that points back at a page this
 * walk already read is a damaged state, not a server loop: the page is asked again without `If-None-Match`
 * and the rest of the listing is read in full, with a warning — so the state is repaired by this run instead
 * of failing every later one. A live `Link` loop still stops the run (PageWalk).
 */
import { apiRequestUrl, sameEndpoint } from './api-url.js';
import { type ConditionalEntry, ignoredState } from './conditional.js';
import { type ConditionalResult, conditionalGet } from './conditional-get.js';
import { DEFAULT_MAX_PAGES, PageWalk } from './page-walk.js';
import type { ReadContext } from './read-context.js';

type Answer = Extract<ConditionalResult, { status: 200 }>;

/** What the caller makes of a page it read: its value, the next page (a live link), names to keep for a 304. */
export interface PageRead<T> {
  value: T;
  next: string | undefined;
  names?: string[];
}

/** One listing: where it starts, how it is named in messages, how a page is read and a failure mapped. */
export interface Listing<T> {
  first: string;
  /** The listing, for PageWalk's messages. */
  what: string;
  read(data: unknown, headers: Record<string, unknown>, current: string): PageRead<T>;
  fail(e: unknown): unknown;
}

/** A page of the walk: read (`value`; `conditional` when its ETag was stored), or unchanged (`previous`). */
export type WalkStep<T> =
  | { key: string; page: number; value: T; conditional: boolean; previous?: undefined }
  | { key: string; page: number; previous: ConditionalEntry };

/**
 * Every page of a listing, conditionally.
 *
 * @example
 * for await (const step of conditionalWalk(ctx, { first: '/repos/o/r/releases?per_page=100', what: 'GET /repos/o/r/releases', read, fail })) …
 */
export async function* conditionalWalk<T>(ctx: ReadContext, listing: Listing<T>): AsyncGenerator<WalkStep<T>> {
  const walk = new PageWalk(ctx.maxPages ?? DEFAULT_MAX_PAGES, listing.what);
  let sendEtags = true;
  let next: string | undefined = listing.first;
  for (let page = 1; next; page++) {
    const current: string = next;
    walk.visit(current);
    const key = `GET ${current}`;
    const res = await get(ctx, listing, current, sendEtags ? ctx.book.etags(key)?.[0] : undefined);
    let answer: Answer;
    if (res.status === 200) answer = res;
    else {
      const previous = ctx.book.previous(key)!;
      if (previous.next === undefined || !walk.has(previous.next)) {
        ctx.book.save(key, previous);
        yield { key, page, previous };
        next = previous.next;
        continue;
      }
      ctx.log(ignoredState(key, 'its next-page URL points back at a page already read'));
      sendEtags = false;
      answer = await readAgain(ctx, listing, current);
    }
    const read = listing.read(answer.data, answer.headers, current);
    const conditional = store(ctx, key, current, answer, read);
    yield { key, page, value: read.value, conditional };
    next = read.next;
  }
}

function get<T>(ctx: ReadContext, listing: Listing<T>, current: string, etag: string | undefined) {
  return conditionalGet(ctx.client, { method: 'GET', url: apiRequestUrl(ctx, current) }, {}, etag).catch((e) => {
    throw listing.fail(e);
  });
}

/** The page once more, without `If-None-Match` (an unconditional GET never answers 304). */
async function readAgain<T>(ctx: ReadContext, listing: Listing<T>, current: string): Promise<Answer> {
  const res = await get(ctx, listing, current, undefined);
  if (res.status !== 200) throw new Error('unreachable: an unconditional GET answered 304');
  return res;
}

/**
 * Keep the page's ETag for the next run, with its next page — only when that next page has the page's own
 * path, as the stored state is checked on the way back in. GitHub's first `Link` names a repository or
 * owner by id (`/repositories/1296269/issues?page=2` for `/repos/octocat/hello-world/issues`): such a page
 * is not kept, so it is read in full each run and its link is fresh; the pages after it are kept.
 */
function store<T>(ctx: ReadContext, key: string, current: string, res: Answer, read: PageRead<T>): boolean {
  if (!res.etag || (read.next !== undefined && !sameEndpoint(ctx.apiUrl, current, read.next))) return false;
  ctx.book.save(key, {
    etags: [res.etag],
    ...(read.next ? { next: read.next } : {}),
    ...(read.names ? { names: read.names } : {}),
  });
  return true;
}
