/**
 * The section diff grouped by type (issue 40 item 11): one collapsible `<details>` per `namespace/type` with its
 * counts in the heading, and a filter by key above them. A long diff is not one long page: the first groups
 * start open up to {@link OPEN_DOCUMENTS} changed documents (at least one group), the rest collapsed — and a
 * collapsed group reads nothing until it is opened (its field diffs cost requests).
 */
import type { DocDbClient } from '../../browser/index.js';
import { h } from '../dom.js';

type Changes = Awaited<ReturnType<DocDbClient['changes']>>;
export type Changed = Changes['added'][number];

/**
 * Changed documents the groups that start open may hold together (the first group opens whatever its size): at
 * most one anonymous page of field diffs (ANONYMOUS_MODIFIED_PAGE), and a page a visitor can take in at once.
 */
export const OPEN_DOCUMENTS = 10;

/** One type's share of the changes. */
export interface TypeGroup {
  /** `namespace/type`. */
  name: string;
  added: Changed[];
  modified: Changed[];
  removed: Changed[];
}

/** What a group draws inside its `<details>` once it is opened (and the promise of its first page). */
export type DrawGroup = (group: TypeGroup) => { body: HTMLElement[]; ready: Promise<void> };

const sizeOf = (g: TypeGroup) => g.added.length + g.modified.length + g.removed.length;

/**
 * The changes by `namespace/type`, in the order the types first appear (changes() lists keys sorted, so by name),
 * keeping only the documents whose key contains `filter` (case-insensitive; empty: all).
 *
 * @example
 * groupByType({ added: [a], modified: [m], removed: [] }, 'r00'); // [{ name: 'github/repo', added: [a], … }]
 */
export function groupByType(c: Pick<Changes, 'added' | 'modified' | 'removed'>, filter = ''): TypeGroup[] {
  const needle = filter.trim().toLowerCase();
  const groups = new Map<string, TypeGroup>();
  const put = (kind: 'added' | 'modified' | 'removed', d: Changed) => {
    if (needle !== '' && !d.key.toLowerCase().includes(needle)) return;
    const name = `${d.namespace}/${d.doc_type}`;
    const g = groups.get(name) ?? { name, added: [], modified: [], removed: [] };
    groups.set(name, g);
    g[kind].push(d);
  };
  for (const kind of ['added', 'modified', 'removed'] as const) for (const d of c[kind]) put(kind, d);
  return [...groups.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The heading's counts: "15 changed: 3 added, 12 modified, 2 removed" (kinds with none left out). */
export function groupCounts(g: TypeGroup): string {
  const parts = (['added', 'modified', 'removed'] as const).filter((k) => g[k].length > 0);
  return `${sizeOf(g)} changed: ${parts.map((k) => `${g[k].length} ${k}`).join(', ')}`;
}

/** Which groups start open: the first, then the next ones while the open ones hold ≤ {@link OPEN_DOCUMENTS}. */
export function openAtStart(groups: readonly TypeGroup[]): boolean[] {
  let total = 0;
  return groups.map((g, i) => {
    total += sizeOf(g);
    return i === 0 || total <= OPEN_DOCUMENTS;
  });
}

/**
 * One group's `<details>`: its heading (type and counts) as the summary; its body drawn the first time it opens.
 * `ready` settles when an open-at-start group has drawn its first page (a collapsed one: at once).
 */
function groupDetails(g: TypeGroup, open: boolean, draw: DrawGroup): { el: HTMLElement; ready: Promise<void> } {
  const el = h(
    'details',
    { class: 'diff-group card', dataset: { type: g.name } },
    h(
      'summary',
      null,
      h(
        'h2',
        null,
        h('span', { class: 'group-name' }, g.name),
        ' ',
        h('span', { class: 'group-counts' }, groupCounts(g)),
      ),
    ),
  );
  let drawn: Promise<void> | undefined;
  const fill = () => {
    if (drawn) return drawn;
    const { body, ready } = draw(g);
    el.append(...body);
    drawn = ready;
    return drawn;
  };
  el.addEventListener('toggle', () => {
    if (el.open) void fill();
  });
  el.open = open;
  return { el, ready: open ? fill() : Promise.resolve() };
}

/**
 * The filter and the groups under it; a filter given (Enter) redraws the groups of the matching documents
 * (`draw` is the caller's, which keeps what it already read). `ready`: the first drawing's open groups.
 *
 * @example
 * const { el, ready } = groupedChanges(changes, (g) => ({ body: [listOf(g)], ready: Promise.resolve() }));
 */
export function groupedChanges(
  c: Pick<Changes, 'added' | 'modified' | 'removed'>,
  draw: DrawGroup,
): { el: HTMLElement; ready: Promise<void> } {
  const groups = h('div', { class: 'diff-groups' });
  const shown = h('p', { class: 'filter-count', attrs: { role: 'status' } });
  const render = (filter: string): Promise<void> => {
    const list = groupByType(c, filter);
    const open = openAtStart(list);
    const made = list.map((g, i) => groupDetails(g, open[i] as boolean, draw));
    groups.replaceChildren(...made.map((m) => m.el));
    const matched = list.reduce((n, g) => n + sizeOf(g), 0);
    shown.textContent =
      filter.trim() === '' ? '' : `${matched} documents in ${list.length} types match "${filter.trim()}".`;
    return Promise.all(made.map((m) => m.ready)).then(() => undefined);
  };
  const input = h('input', {
    attrs: { id: 'diff-filter', type: 'search', spellcheck: 'false', placeholder: 'part of a key, e.g. octo/r01' },
  });
  // On Enter or leaving the field, not per keystroke: each redraw opens the first matching group, whose field diffs
  // may cost requests, and "t4/k3" typed letter by letter would read the pages of "t" and "t4" on the way.
  input.addEventListener('change', () => void render(input.value));
  const form = h(
    'div',
    { class: 'diff-filter' },
    h('label', { attrs: { for: 'diff-filter' } }, 'Filter by key'),
    input,
  );
  return { el: h('div', { class: 'diff-grouped' }, form, shown, groups), ready: render('') };
}
