/**
 * The document view's reads, each pinned to a version and remembered for the page's life: what a commit
 * holds never changes, so a document at a version, or a page of its history below a commit, read once is
 * the answer for good. Going from the document to a diff and back re-reads nothing.
 */
import type { DocDbClient, Envelope, HistoryResult, Identity } from '../../browser/index.js';
import type { ViewState } from '../state.js';

/** Entries kept (oldest dropped first): plenty for a visit, bounded for a long-open tab. */
const MAX_ENTRIES = 500;
const memo = new Map<string, Promise<unknown>>();

function remembered<T>(key: string, read: () => Promise<T>): Promise<T> {
  const hit = memo.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const value = read();
  memo.set(key, value);
  // A failed read is not an answer: the next visit asks again.
  value.catch(() => memo.delete(key));
  if (memo.size > MAX_ENTRIES) memo.delete(memo.keys().next().value as string);
  return value;
}

/** Entries of one history page: GitHub serves at most 100 a request. */
export const HISTORY_PAGE = 100;

/**
 * The document's identity from the URL (`ns`, `type`, `id`), or the sentence saying what is missing.
 *
 * @example
 * const who = identityOf(ctx.state); // { identity } or { problem: 'The document view needs …' }
 */
export function identityOf(state: ViewState): { identity: Identity } | { problem: string } {
  const missing = (['ns', 'type', 'id'] as const).filter((p) => state[p] === undefined);
  if (missing.length > 0) {
    return {
      problem: `The document view needs ${missing.map((p) => `"${p}"`).join(', ')} in the URL (ns=namespace&type=doc_type&id=document id).`,
    };
  }
  return { identity: { namespace: state.ns as string, doc_type: state.type as string, id: state.id as string } };
}

const keyOf = (client: DocDbClient, identity: Identity) =>
  `${client.ref}\n${identity.namespace}\n${identity.doc_type}\n${identity.id}`;

/**
 * The document at `version` (null: absent there).
 *
 * @example
 * const doc = await documentAt(ctx.client, identity, ctx.version);
 */
export function documentAt(client: DocDbClient, identity: Identity, version: string): Promise<Envelope | null> {
  return remembered(`doc\n${keyOf(client, identity)}\n${version}`, async () => {
    return (await client.get(identity, { version })).document;
  });
}

/** Pages already read, per document: a page below one of their versions is a suffix of one of them. */
const pagesOf = new Map<string, HistoryResult[]>();

/** The versions of an earlier page from `cursor` on, when `cursor` is one of them (no request). */
function suffixOf(doc: string, cursor: string): HistoryResult | undefined {
  for (const page of pagesOf.get(doc) ?? []) {
    const i = page.entries.findIndex((e) => e.version === cursor);
    // A shorter page with the same `nextCursor`: what comes after it is the same.
    if (i >= 0) return { ...page, entries: page.entries.slice(i), requests: 0 };
  }
  return undefined;
}

/**
 * One page of the document's versions, newest first, from `cursor` (a commit of the section: the view's
 * version for the first page, then each page's `nextCursor`). One request per page on GitHub; none when
 * `cursor` is a version an earlier page listed (opening the document at an older version).
 *
 * @example
 * const page = await historyPage(ctx.client, identity, ctx.version);
 */
export function historyPage(client: DocDbClient, identity: Identity, cursor: string): Promise<HistoryResult> {
  const doc = keyOf(client, identity);
  return remembered(`history\n${doc}\n${cursor}`, async () => {
    const known = suffixOf(doc, cursor);
    if (known) return known;
    const page = await client.history(identity, { limit: HISTORY_PAGE, cursor });
    const pages = pagesOf.get(doc) ?? [];
    // Bounded like the memo: a tab kept open on many documents keeps the last few pages of each.
    pagesOf.delete(doc);
    pagesOf.set(doc, [...pages.slice(-9), page]);
    if (pagesOf.size > MAX_ENTRIES) pagesOf.delete(pagesOf.keys().next().value as string);
    return page;
  });
}
