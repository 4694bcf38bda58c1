/**
 * The table's controls, each a labelled form control whose value lives in the URL: the column headers
 * (a button sorts: `sort=field`, again `-field`), the per-column filters (`where`, the CLI's text form:
 * docs/indexes.md), the text filter over the rows loaded (`q`) and the downloads.
 */
import { h } from '../dom.js';

/** The operators the filter form offers, as the CLI's text form writes them. */
export const FILTER_OPERATORS: readonly { op: string; label: string; takesValue: boolean }[] = [
  { op: '=', label: '=', takesValue: true },
  { op: '>=', label: '≥', takesValue: true },
  { op: '>', label: '>', takesValue: true },
  { op: '<=', label: '≤', takesValue: true },
  { op: '<', label: '<', takesValue: true },
  { op: '~', label: 'contains', takesValue: true },
  { op: ' in ', label: 'one of (a,b,c)', takesValue: true },
  { op: ' exists', label: 'exists', takesValue: false },
  { op: ' absent', label: 'is absent', takesValue: false },
];

/**
 * A clause in the CLI's text form from the form's parts (`data.stars`, `>=`, `10` → `data.stars>=10`).
 *
 * @example
 * clauseText('data.language', ' in ', 'Go,Rust'); // 'data.language in Go,Rust'
 */
export function clauseText(field: string, op: string, value: string): string {
  const spec = FILTER_OPERATORS.find((o) => o.op === op);
  return spec && !spec.takesValue ? `${field}${op}` : `${field}${op}${value.trim()}`;
}

/** The header row: a sort button per sortable column, `aria-sort` on the sorted one. */
export function headerRow(
  columns: readonly string[],
  sortable: readonly string[],
  orderBy: { field: string; direction: 'asc' | 'desc' } | undefined,
  sort: (field: string, direction: 'asc' | 'desc') => void,
): HTMLElement {
  const cells = columns.map((c, i) => {
    const sorted = orderBy?.field === c ? orderBy.direction : undefined;
    const aria = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none';
    const label = h('span', null, c, sorted ? (sorted === 'asc' ? ' ▲' : ' ▼') : '');
    const inner = sortable.includes(c)
      ? h(
          'button',
          {
            class: 'vt-sort',
            attrs: { type: 'button', 'aria-label': `Sort by ${c}` },
            on: { click: () => sort(c, sorted === 'asc' ? 'desc' : 'asc') },
          },
          label,
        )
      : label;
    return h(
      'div',
      { class: 'vt-cell', attrs: { role: 'columnheader', 'aria-sort': aria, 'aria-colindex': i + 1 } },
      inner,
    );
  });
  return h('div', { class: 'vt-head vt-row', attrs: { role: 'row', 'aria-rowindex': 1 } }, ...cells);
}

/** The filter form: field, operator, value → one `where` clause; the clauses in force, each removable. */
export function filterForm(
  fields: readonly string[],
  clauses: readonly string[],
  add: (clause: string) => string | undefined,
  remove: (index: number) => void,
): HTMLElement {
  const field = h(
    'select',
    { attrs: { id: 'vt-filter-field', name: 'field' } },
    ...fields.map((f) => h('option', { attrs: { value: f } }, f)),
  );
  const op = h(
    'select',
    { attrs: { id: 'vt-filter-op', name: 'op' } },
    ...FILTER_OPERATORS.map((o) => h('option', { attrs: { value: o.op } }, o.label)),
  );
  const value = h('input', {
    attrs: { id: 'vt-filter-value', name: 'value', spellcheck: 'false', autocomplete: 'off' },
  });
  const error = h('p', { class: 'error', attrs: { role: 'alert', 'aria-live': 'assertive' } });
  const form = h(
    'form',
    {
      class: 'vt-filter',
      attrs: { 'aria-label': 'Filter by a column' },
      on: {
        submit: (e) => {
          e.preventDefault();
          error.textContent = add(clauseText(field.value, op.value, value.value)) ?? '';
        },
      },
    },
    h('label', { attrs: { for: 'vt-filter-field' } }, 'Column'),
    field,
    h('label', { attrs: { for: 'vt-filter-op' } }, 'Condition'),
    op,
    h('label', { attrs: { for: 'vt-filter-value' } }, 'Value'),
    value,
    h('button', { attrs: { type: 'submit' } }, 'Add filter'),
    error,
  );
  const list = h(
    'ul',
    { class: 'vt-clauses', attrs: { 'aria-label': 'Filters in force' } },
    ...clauses.map((c, i) =>
      h(
        'li',
        null,
        h('code', null, c),
        h(
          'button',
          { attrs: { type: 'button', 'aria-label': `Remove filter ${c}` }, on: { click: () => remove(i) } },
          '×',
        ),
      ),
    ),
  );
  return h('div', { class: 'vt-filters' }, fields.length > 0 ? form : null, clauses.length > 0 ? list : null);
}

/**
 * The text filter: `input` on every keystroke (the view filters in place: no request, no redraw), `commit`
 * on Enter (focus stays) or when the visitor leaves a changed field.
 */
export function textFilterInput(
  value: string,
  on: { input: (q: string) => void; commit: (q: string, keepFocus: boolean) => void },
): HTMLInputElement {
  const input = h('input', {
    attrs: { id: 'vt-q', type: 'search', name: 'q', value, spellcheck: 'false', autocomplete: 'off' },
  });
  input.addEventListener('input', () => on.input(input.value));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') on.commit(input.value, true);
  });
  input.addEventListener('blur', () => {
    if (input.value !== value) on.commit(input.value, false);
  });
  return input;
}
