/**
 * The results of a search (docs/viewer.md "Search"): the hits ranked best first — each its type, its id
 * linking to the document, its score, the fields that matched and a snippet of each with the words marked,
 * taken from the document the search already read (no request of its own) — how many match and what the
 * search cost, and "More results" for the next page (the library's cursor, pinned to the view's version).
 * Before it reads, the search is weighed against the rate limit left (an anonymous visitor reads each hit's
 * document on its own); a limit that stops it is said as every view says it (src/viewer/frame/).
 */
import { explainError, loadSearchText } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { declaredSearch, type SearchHit, type SearchScope, searchPage } from './api.js';
import { MergedSearch } from './merge.js';
import { type SnippetPart, snippet } from './words.js';

/** Hits a page with a token (the documents come in one GraphQL batch). */
export const PAGE_WITH_TOKEN = 20;
/** Hits a page without one: each hit's document is a request of its own (GitHub allows 60 an hour). */
export const PAGE_ANONYMOUS = 10;
/** Snippets shown per hit (one per matched field, in the hit's order). */
const SNIPPETS = 2;

/**
 * About what one page of a search costs: per scope the declaration, the manifest, the shards and table parts
 * (one GraphQL batch with a token) and the documents — one request each without a token.
 *
 * @example
 * searchCost(1, false, 10); // 14
 */
export function searchCost(scopes: number, hasToken: boolean, pageSize: number): number {
  return scopes * (hasToken ? 4 : 4 + pageSize);
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The results panel of the search for `q` over `scopes`. Resolves once the first page is drawn (or the
 * page said why it is not); "More results" reads the next pages.
 *
 * @example
 * root.append(await searchResults(ctx, 'small engine', [{ namespace: 'docs' }]));
 */
export async function searchResults(ctx: ViewContext, q: string, scopes: readonly SearchScope[]): Promise<HTMLElement> {
  const panel = h(
    'section',
    { class: 'search-results', attrs: { 'aria-labelledby': 'search-results-title' } },
    h('h2', { attrs: { id: 'search-results-title' }, text: `Search results for “${q}”` }),
  );
  const pageSize = ctx.hasToken() ? PAGE_WITH_TOKEN : PAGE_ANONYMOUS;
  const verdict = ctx.budget.check(searchCost(scopes.length, ctx.hasToken(), pageSize), 'This search');
  const run = () => firstPage(ctx, panel, q, scopes, pageSize);
  if (verdict.ok) await run();
  else {
    const warning = ctx.budget.warning(verdict, [
      {
        label: 'Search anyway',
        run: () => {
          warning.remove();
          void run();
        },
      },
    ]);
    panel.append(warning);
  }
  return panel;
}

/** The engine's text rules (`loadSearchText`): tokens, a field's text, how a word matches a term. */
type SearchText = Awaited<ReturnType<typeof loadSearchText>>;

/**
 * What the first page needs before any hit: the engine's text rules (a chunk, no API request), and — when
 * several namespaces' searches will run side by side, each starting with the declaration — the declaration
 * read once, so they find it cached instead of each asking for it. Returns the requests that cost.
 */
async function prepare(ctx: ViewContext, scopes: readonly SearchScope[]): Promise<{ rules: SearchText; cost: number }> {
  const before = ctx.client.stats().requests;
  const rules = await loadSearchText();
  if (scopes.length > 1) await declaredSearch(ctx.client, ctx.version);
  return { rules, cost: ctx.client.stats().requests - before };
}

async function firstPage(
  ctx: ViewContext,
  panel: HTMLElement,
  q: string,
  scopes: readonly SearchScope[],
  pageSize: number,
): Promise<void> {
  let prepared: { rules: SearchText; cost: number };
  try {
    prepared = await prepare(ctx, scopes);
  } catch (error) {
    if (!ctx.signal.aborted) panel.append(failure(ctx, error));
    return;
  }
  const { rules } = prepared;
  const words = rules.tokenize(q);
  const merged = new MergedSearch<SearchHit>(
    scopes.length,
    (i, cursor) =>
      searchPage(ctx.client, q, {
        ...(scopes[i] as SearchScope),
        limit: pageSize,
        version: ctx.version,
        ...(cursor !== undefined ? { cursor } : {}),
      }),
    pageSize,
  );
  merged.requests += prepared.cost;
  const count = h('p', { class: 'search-count', attrs: { role: 'status' } });
  const list = h('ol', { class: 'search-hits' });
  panel.append(count, list);
  const more = h('button', { class: 'search-more', attrs: { type: 'button' } }, 'More results');
  const showPage = async (): Promise<boolean> => {
    let hits: SearchHit[];
    try {
      hits = await merged.next();
    } catch (error) {
      if (ctx.signal.aborted) return false;
      more.remove();
      panel.append(failure(ctx, error));
      return false;
    }
    if (ctx.signal.aborted) return false;
    list.append(...hits.map((hit) => hitItem(ctx, hit, words, rules)));
    count.textContent = countLine(q, merged, list.childElementCount);
    list.dataset.shown = String(list.childElementCount);
    list.dataset.done = String(merged.done);
    if (merged.done) more.remove();
    else if (!more.isConnected) panel.append(more);
    return true;
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    const before = list.childElementCount;
    if (await showPage()) {
      more.disabled = false;
      // Keyboard users land on the first new hit, not back at the top of the page.
      list.children[before]?.querySelector<HTMLElement>('a')?.focus();
    }
  });
  await showPage();
}

/** "12 documents match “words” — 20 shown; the search read 4 requests." */
function countLine(q: string, merged: MergedSearch<SearchHit>, shown: number): string {
  const total = merged.total;
  const match =
    total === 0 ? `No document matches “${q}”` : `${fmt(total)} document${total === 1 ? '' : 's'} match “${q}”`;
  const showing = total === 0 ? '' : merged.done ? `, all ${fmt(shown)} shown` : `, the best ${fmt(shown)} shown`;
  const cost = merged.requests === 1 ? '1 request' : `${fmt(merged.requests)} requests`;
  return `${match}${showing} (the search made ${cost}).`;
}

/** A search that failed: which rate limit stopped it, or the library's sentence (a bad query names `q`). */
function failure(ctx: ViewContext, error: unknown): HTMLElement {
  return (
    ctx.budget.stopped(error) ??
    h('p', { class: 'error', attrs: { role: 'alert' } }, explainError(error, { repository: ctx.state.repo }))
  );
}

function hitItem(ctx: ViewContext, hit: SearchHit, words: readonly string[], rules: SearchText): HTMLElement {
  const link = ctx.link({
    view: 'document',
    ns: hit.namespace,
    type: hit.type,
    id: hit.id,
    q: undefined,
    where: [],
    sort: undefined,
    field: undefined,
    agg: undefined,
    from: undefined,
    to: undefined,
  });
  const fields = hit.fields;
  return h(
    'li',
    { class: 'search-hit', dataset: { id: hit.id, type: `${hit.namespace}/${hit.type}` } },
    h(
      'p',
      { class: 'search-hit-head' },
      h('span', { class: 'search-type', text: `${hit.namespace}/${hit.type}` }),
      ' ',
      h('a', { attrs: { href: link }, text: hit.id }),
      ' ',
      h('span', { class: 'search-score', text: `score ${hit.score.toFixed(2)}` }),
    ),
    h('p', { class: 'search-fields', text: `Matched in ${fields.join(', ')}` }),
    ...fields
      .slice(0, SNIPPETS)
      .map((f) => snippetLine(f, snippet(rules.fieldText(hit.document, f), words, rules.termWeight))),
  );
}

/** One field's snippet: its name, then its text with the matching words in `<mark>` (text nodes only). */
function snippetLine(field: string, parts: readonly SnippetPart[]): HTMLElement {
  return h(
    'p',
    { class: 'search-snippet' },
    h('span', { class: 'search-field', text: `${field}: ` }),
    ...parts.map((p) => (p.marked ? h('mark', { text: p.text }) : p.text)),
  );
}
