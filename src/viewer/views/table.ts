/**
 * The table of one type (issue 29 item 3; docs/viewer.md "Table per type"): columns from the type's index
 * (or a sample), rows from `client.query` a page at a time as the visitor scrolls, sorted and filtered
 * through the URL (`sort`, `where`, `q`), virtualised, each row a link to its document, and downloads of
 * the filtered rows. The frame redraws the view on every URL change; the rows loaded for one query (same
 * version, type, filters and sort) are kept across those redraws, so typing in the text filter reads nothing.
 */
import { parseOrderBy, parseWhere, type WhereClause } from '../../browser/index.js';
import type { View, ViewContext } from '../context.js';
import { h } from '../dom.js';
import type { DeclaredSearch } from '../search/api.js';
import { restoreSearchFocus } from '../search/box.js';
import { askTypeSearch, knownTypeSearch, typeSearchBox, typeSearchOf, typeSearchView } from '../search/type-search.js';
import { type TableRow, textFilter } from '../table/cells.js';
import { headerRow, textFilterInput } from '../table/controls.js';
import { facetsPanel } from '../table/facets-panel.js';
import { downloadButton, downloadCost, loadAllButton, loadRest } from '../table/row-loads.js';
import { type Since, summarise } from '../table/since.js';
import { changeHook, sinceOf, sincePicker, sinceSummary } from '../table/since-panel.js';
import { openSource, type TableSource } from '../table/source.js';
import { VirtualList } from '../table/virtual-list.js';
import { FILTER_NAMES, whereForm } from '../table/where-form.js';

/** The rows of the last query shown, kept while only `q` changes (and for back/forward to it). */
let session: { key: string; source: Promise<TableSource>; scrollTop: number; q: string } | undefined;
/** The caret of the text filter, to put back after the redraw its own Enter caused. */
let typing: { caret: number } | undefined;

export const tableView: View = async (root, ctx) => {
  const { ns, type } = ctx.state;
  // The frame opens the overview instead when the URL names no type (src/viewer/state.ts); this narrows.
  if (!ns || !type) {
    root.append(missing(ctx));
    return;
  }
  // A type that declares search: its box searches the type, and `q` shows the ranked hits, not the grid. Read
  // with `q` (the words may be a search), else only if already known: a cold table asks when its box is used.
  const declared = ctx.state.q ? typeSearchOf(ctx, ns, type) : knownTypeSearch(ctx, ns, type);
  // Awaited below; a rejection meanwhile (a rate limit) is not "unhandled".
  declared?.catch(() => undefined);
  if (ctx.state.q) {
    const { search } = (await declared) ?? {};
    if (search) return typeSearchView(root, ctx, search);
  }
  const problems: string[] = [];
  const where = clauses(ctx.state.where, problems);
  const orderBy = sortOf(ctx.state.sort, problems);
  // A token changes what a type without an index can afford (every document instead of a sample).
  const key = JSON.stringify([
    ctx.state.repo,
    ctx.state.ref,
    ctx.version,
    ns,
    type,
    where,
    orderBy ?? null,
    ctx.hasToken(),
  ]);
  if (session?.key !== key) {
    const source = openSource({
      client: ctx.client,
      version: ctx.version,
      namespace: ns,
      type,
      where,
      ...(orderBy ? { orderBy } : {}),
      hasToken: ctx.hasToken(),
      budget: (n, what) => ctx.budget.check(n, what),
    });
    session = { key, source, scrollTop: 0, q: ctx.state.q ?? '' };
    source.catch(() => {
      if (session?.source === source) session = undefined;
    });
  }
  const mine = session;
  const source = await mine.source;
  // `from=`: the rows at that version, to mark what changed since (src/viewer/table/since.ts).
  const [since, answer] = await Promise.all([sinceOf(ctx, key, source), declared]);
  const { search, problem } = answer ?? {};
  if (ctx.signal.aborted) return;
  if (since && 'problem' in since) problems.push(since.problem);
  if (problem) problems.push(problem);
  draw(root, ctx, source, mine, problems, since && 'problem' in since ? undefined : since, search, !answer);
};

/** The `where` parameters read as clauses; a malformed one is said and left out (the rest still applies). */
function clauses(texts: readonly string[], problems: string[]): WhereClause[] {
  const out: WhereClause[] = [];
  for (const text of texts) {
    try {
      out.push(parseWhere(text, FILTER_NAMES));
    } catch (e) {
      problems.push(`${(e as Error).message} — this filter is left out.`);
    }
  }
  return out;
}

function sortOf(text: string | undefined, problems: string[]) {
  if (text === undefined) return undefined;
  try {
    return parseOrderBy(text, { ...FILTER_NAMES, label: () => '"sort"' });
  } catch (e) {
    problems.push(`${(e as Error).message} — the rows are in the default order.`);
    return undefined;
  }
}

function missing(ctx: ViewContext): HTMLElement {
  return h(
    'p',
    { class: 'error', attrs: { role: 'alert' } },
    'The table needs a type: "ns" and "type" in the URL.',
    ' ',
    h('a', { attrs: { href: ctx.link({ view: 'overview' }) } }, 'Open the overview'),
  );
}

/** The rows on screen: the loaded rows that contain the text typed in the text filter. */
interface Shown {
  typed: string;
  rows: TableRow[];
}

function draw(
  root: HTMLElement,
  ctx: ViewContext,
  source: TableSource,
  mine: NonNullable<typeof session>,
  problems: string[],
  since: Since | undefined,
  search: DeclaredSearch | undefined,
  searchUnknown: boolean,
): void {
  const { ns, type } = ctx.state as { ns: string; type: string };
  const q = ctx.state.q ?? '';
  const shown: Shown = { typed: q, rows: textFilter(source.rows, source.columns, q) };
  const count = h('p', { class: 'vt-count', attrs: { role: 'status' } });
  const changes = h('div', { class: 'vt-changes' });
  const sayChanges = () => since && changes.replaceChildren(sinceSummary(since, summarise(since, source)));
  const update = (text = shown.typed) => {
    shown.typed = text;
    shown.rows = textFilter(source.rows, source.columns, text);
    list.refresh();
    sayCount(count, list.element, source, shown);
    sayChanges();
  };
  const notice = h('div', { class: 'vt-notice' });
  const list = gridOf(
    ctx,
    source,
    shown,
    () => update(),
    endOf(ctx, source, notice, () => update()),
    since,
  );
  list.element.addEventListener('scroll', () => {
    mine.scrollTop = list.element.scrollTop;
  });
  const qInput = textFilterOf(ctx, update);
  qInput.placeholder = 'No search index here: filters the rows loaded';
  // A type that declares search gets its search box instead of the text filter of the loaded rows.
  const filterBox = search
    ? [typeSearchBox(ctx, search)]
    : [h('label', { attrs: { for: 'vt-q' } }, 'Text filter (rows loaded)'), qInput];
  if (searchUnknown) askTypeSearch(ctx, qInput, filterBox);
  const actions = h(
    'div',
    { class: 'vt-actions' },
    ...filterBox,
    loadAllButton(ctx, source, () => update()),
    downloadButton('csv', ctx, source, () => shown.typed, `${ns}-${type}`),
    downloadButton('json', ctx, source, () => shown.typed, `${ns}-${type}`),
    h('p', { class: 'vt-hint' }, downloadCost(source)),
  );
  root.append(
    h('h1', { class: 'vt-title' }, `${ns}/${type}`),
    h('p', { class: 'vt-note' }, source.note),
    ...[...problems, ...source.problems].map((p) => h('p', { class: 'error', attrs: { role: 'alert' } }, p)),
    whereForm(ctx, source.sortable),
    facetsPanel(ctx, source) ?? '',
    sincePicker(ctx),
    changes,
    actions,
    count,
    notice,
    list.element,
  );
  list.refresh();
  if (mine.q === q) list.scrollTo(mine.scrollTop);
  mine.q = q;
  sayCount(count, list.element, source, shown);
  sayChanges();
  restoreSearchFocus(root);
  if (typing) {
    qInput.focus();
    qInput.setSelectionRange(typing.caret, typing.caret);
    typing = undefined;
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The type's total and how many rows match the filters: every row when unfiltered, else exact once every
 * matching row is loaded and "at least" before.
 */
function totals(source: TableSource): string {
  if (source.typeCount === undefined || source.mode === 'sample') return '';
  const total = `${fmt(source.typeCount)} rows in the type`;
  if (!source.filtered) return `${total}, all match; `;
  if (source.done) return `${total}, ${fmt(source.rows.length)} match the filters; `;
  return `${total}, at least ${fmt(source.rows.length)} match the filters ("Load all rows" counts them); `;
}

/** The count line (and the grid's `data-loaded` / `data-done`, which tests and scripts wait on). */
function sayCount(count: HTMLElement, grid: HTMLElement, source: TableSource, shown: Shown): void {
  const loaded = source.done
    ? `all ${fmt(source.rows.length)} rows loaded`
    : `${fmt(source.rows.length)} rows loaded, more as you scroll`;
  grid.dataset.loaded = String(source.rows.length);
  grid.dataset.done = String(source.done);
  const head = totals(source);
  count.textContent = shown.typed
    ? `${head}${shown.rows.length} of the ${loaded} contain "${shown.typed}" (the text filter searches the rows loaded).`
    : `${head}${loaded}.`;
}

/**
 * The grid: sort buttons in its header, rows linking to their documents, the next page near the end, and
 * End loading every row not loaded yet (within the rate limit) so it lands on the type's last row.
 */
function gridOf(
  ctx: ViewContext,
  source: TableSource,
  shown: Shown,
  loaded: () => void,
  toEnd: () => Promise<void>,
  since: Since | undefined,
): VirtualList {
  const { ns, type } = ctx.state as { ns: string; type: string };
  const sort = (field: string, direction: 'asc' | 'desc') =>
    ctx.navigate({ sort: direction === 'desc' ? `-${field}` : field });
  let stop: HTMLElement | undefined;
  const list: VirtualList = new VirtualList({
    label: `Documents of ${ns}/${type}`,
    columns: source.columns,
    header: headerRow(source.columns, source.sortable, source.orderBy, sort),
    count: () => shown.rows.length,
    row: (i) => shown.rows[i],
    href: (row) => ctx.link(docState(row.id, ctx)),
    open: (row) => ctx.navigate(docState(row.id, ctx)),
    nearEnd: () => {
      if (source.done || ctx.signal.aborted || stop) return;
      source.loadMore().then(
        () => {
          if (!ctx.signal.aborted) loaded();
        },
        (error: unknown) => {
          // A rate limit says which one and offers a token, above the grid (once: callers share one page's
          // read); anything else in the status line.
          if (stop) return;
          stop = ctx.budget.stopped(error);
          if (stop) list.element.before(stop);
          else ctx.status(`Could not load more rows: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    },
    toEnd,
    ...(since ? { change: changeHook(since) } : {}),
  });
  return list;
}

/** The descending form of the table's order (`id` ascending when it has none): the last rows come first. */
function reversedSort(source: TableSource): string {
  const o = source.orderBy ?? { field: 'id', direction: 'asc' };
  return o.direction === 'asc' ? `-${o.field}` : o.field;
}

/**
 * End: load every row not loaded yet, then the grid focuses the last. When the rate limit left would not
 * cover that, the page says so (with "Add a token") and offers the reversed order, whose first screen —
 * the type's last rows — costs one index part.
 */
function endOf(ctx: ViewContext, source: TableSource, notice: HTMLElement, loaded: () => void): () => Promise<void> {
  return async () => {
    if (source.done || ctx.signal.aborted) return;
    ctx.status('Loading the rows up to the last one…');
    const refused = await loadRest(ctx, source, loaded);
    if (!refused) {
      ctx.status(`At the last of ${fmt(source.rows.length)} rows.`);
      return;
    }
    ctx.status('');
    const reverse = { label: 'Show the last rows first', run: () => ctx.navigate({ sort: reversedSort(source) }) };
    notice.replaceChildren(ctx.budget.warning(refused, [reverse]));
  };
}

/**
 * The text filter: typing filters in place; Enter (or leaving the field) puts `q` in the URL as one
 * history entry. The frame redraws on every URL change and re-reads the tip then, so a keystroke never
 * costs a request.
 */
function textFilterOf(ctx: ViewContext, update: (text: string) => void): HTMLInputElement {
  const input = textFilterInput(ctx.state.q ?? '', {
    input: update,
    commit: (value, keepFocus) => {
      // A blur as the redraw removes the field (after Enter) must not add a second history entry.
      if (ctx.signal.aborted || value === (ctx.state.q ?? '')) return;
      if (keepFocus) typing = { caret: input.selectionStart ?? value.length };
      ctx.navigate({ q: value === '' ? undefined : value });
    },
  });
  return input;
}

/** The state of a row's document (the table's own parameters left behind). */
function docState(id: string, ctx: ViewContext) {
  return {
    view: 'document' as const,
    id,
    where: [],
    q: undefined,
    sort: undefined,
    ns: ctx.state.ns,
    type: ctx.state.type,
  };
}
