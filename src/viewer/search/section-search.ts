/**
 * The overview's search box (docs/viewer.md "Search"): over the whole section — every type that declares
 * search, one `client.search` per namespace, their hits in one ranked list (merge.ts). Which types declare
 * search comes from the listing the overview reads anyway (their search manifests): no request of its own.
 */
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { restoreSearchFocus, searchBox } from './box.js';
import { searchResults } from './results.js';

/** A type of the section, as the overview lists it. */
export interface SearchableType {
  ns: string;
  type: string;
  searchable: boolean;
}

/**
 * Append to `parent` the box over every searchable type and, with `q` in the URL, its results (nothing for
 * a section without search and no `q`). Resolves once the first page of results is drawn.
 *
 * @example
 * await sectionSearch(root, ctx, types);
 */
export async function sectionSearch(
  parent: HTMLElement,
  ctx: ViewContext,
  types: readonly SearchableType[],
): Promise<void> {
  const q = ctx.state.q ?? '';
  const searchable = types.filter((t) => t.searchable);
  if (searchable.length === 0) {
    if (q === '') return;
    parent.append(
      h('p', {
        class: 'notice',
        attrs: { role: 'status' },
        text: `No type of this section declares search, so “${q}” is not searched (docs/search.md says how to declare one).`,
      }),
    );
    return;
  }
  const names = searchable.map((t) => `${t.ns}/${t.type}`);
  const part = h(
    'section',
    { class: 'section-search', attrs: { 'aria-label': 'Search' } },
    searchBox({
      id: 'ov-q',
      label: 'Search the section',
      placeholder: 'Words in the documents',
      value: q,
      search: (words) => ctx.navigate({ q: words === '' ? undefined : words }),
    }),
    h('p', { class: 'search-scope', text: `Searches ${listOf(names)} (every type that declares search).` }),
  );
  // In the page before the search reads, so the box that was typed in keeps the focus while results load.
  parent.append(part);
  restoreSearchFocus(parent);
  if (q === '') return;
  const namespaces = [...new Set(searchable.map((t) => t.ns))];
  part.append(
    await searchResults(
      ctx,
      q,
      namespaces.map((namespace) => ({ namespace })),
    ),
  );
}

/** Up to 5 names, then how many more. */
function listOf(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}
