/**
 * A type table's search (docs/viewer.md "Search"): on a type that declares search the table's box searches
 * the type — words in the URL (`q`), the ranked hits in place of the grid — and Escape (or "Back to the
 * table") brings the grid back. A type without search keeps the text filter of the loaded rows.
 */
import { DocDbError } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { type DeclaredSearch, declaredSearch, knownDeclaredSearch } from './api.js';
import { restoreSearchFocus, searchBox } from './box.js';
import { searchResults } from './results.js';

/** What the table learns of its type's search: the declaration, or why it could not be read. */
export interface TypeSearchAnswer {
  search?: DeclaredSearch;
  /** A damaged declaration, said in the page: the table keeps its text filter rather than failing. */
  problem?: string;
}

/**
 * The search the type `ns/type` declares at the view's version. Reads the section's search declaration once
 * per version: one request on a cold page, none after the overview when the section declares none (its
 * listing is cached), none again at that version. A damaged declaration (`InvalidResponse`) is a problem
 * the table names, not a failed table; any other error (a rate limit) is thrown as the table's reads are.
 *
 * @example
 * const { search, problem } = await typeSearchOf(ctx, 'github', 'repo');
 */
export async function typeSearchOf(
  ctx: ViewContext,
  ns: string,
  type: string,
  read: (client: ViewContext['client'], version: string) => Promise<DeclaredSearch[]> = declaredSearch,
): Promise<TypeSearchAnswer> {
  try {
    const all = await read(ctx.client, ctx.version);
    const search = all.find((d) => d.namespace === ns && d.type === type);
    return search ? { search } : {};
  } catch (error) {
    if (!(error instanceof DocDbError) || error.code !== 'InvalidResponse') throw error;
    return {
      problem: `The section's search declaration could not be read (${error.message}): the box filters the rows loaded.`,
    };
  }
}

/**
 * What the table knows of its type's search without a request: the answer when the declaration at the view's
 * version was read already (a search, a redraw, the way back from a document), else undefined — a cold table
 * then asks only when its box is used ({@link askTypeSearch}), so opening a table costs what it did before
 * search existed (issue 40 item 6).
 *
 * @example
 * const known = knownTypeSearch(ctx, 'github', 'repo');
 */
export function knownTypeSearch(ctx: ViewContext, ns: string, type: string): Promise<TypeSearchAnswer> | undefined {
  const known = knownDeclaredSearch(ctx.client, ctx.version);
  return known && typeSearchOf(ctx, ns, type, () => known);
}

/**
 * A cold table's text filter asks, on its first focus, whether the type declares search (one request; none
 * when the page has read the section's tree): if it does, the filter is replaced by the type's search box,
 * the typed words kept and the focus with them; if not, it says so in its placeholder.
 *
 * @example
 * askTypeSearch(ctx, qInput, [label, qInput]);
 */
export function askTypeSearch(ctx: ViewContext, input: HTMLInputElement, replaced: readonly Element[]): void {
  const { ns, type } = ctx.state as { ns: string; type: string };
  input.placeholder = 'Filters the rows loaded, or searches the type where it has a search index';
  input.addEventListener(
    'focus',
    () => {
      typeSearchOf(ctx, ns, type).then(
        ({ search }) => {
          if (ctx.signal.aborted || !input.isConnected) return;
          if (!search) {
            input.placeholder = 'No search index here: filters the rows loaded';
            return;
          }
          const box = typeSearchBox(ctx, search, input.value);
          replaced[0]?.before(box);
          for (const el of replaced) el.remove();
          box.querySelector('input')?.focus();
        },
        () => undefined, // a refused read (a rate limit) leaves the text filter as it is
      );
    },
    { once: true },
  );
}

/**
 * The box of a searchable type's table: Enter searches the type (`q` in the URL).
 *
 * @example
 * actions.append(typeSearchBox(ctx, declared));
 */
export function typeSearchBox(ctx: ViewContext, declared: DeclaredSearch, value = ctx.state.q ?? ''): HTMLFormElement {
  return searchBox({
    id: 'vt-search',
    label: `Search ${declared.namespace}/${declared.type}`,
    placeholder: `Words in ${declared.fields.join(', ')}`,
    value,
    search: (words) => ctx.navigate({ q: words === '' ? undefined : words }),
  });
}

/**
 * The table's view while it searches (`q` on a type that declares search): the type's title, the box, and
 * the ranked hits instead of the grid. The table's filters and sort are kept in the URL for the way back.
 *
 * @example
 * if (declared && ctx.state.q) return typeSearchView(root, ctx, declared);
 */
export async function typeSearchView(root: HTMLElement, ctx: ViewContext, declared: DeclaredSearch): Promise<void> {
  const { namespace, type } = declared;
  const q = ctx.state.q ?? '';
  const kept = ctx.state.where.length > 0 || ctx.state.sort !== undefined;
  root.append(
    h('h1', { class: 'vt-title' }, `${namespace}/${type}`),
    h(
      'p',
      { class: 'vt-note' },
      `Searching the type's search index (${declared.fields.join(', ')}), best match first. `,
      kept ? 'The table’s filters and sort do not apply to a search. ' : '',
      h('a', { attrs: { href: ctx.link({ q: undefined }) } }, 'Back to the table'),
    ),
    h('div', { class: 'vt-actions' }, typeSearchBox(ctx, declared)),
  );
  restoreSearchFocus(root);
  root.append(await searchResults(ctx, q, [{ namespace, type }]));
}
