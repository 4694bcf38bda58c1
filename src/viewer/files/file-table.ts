/**
 * A data file's rows as a table, with the type table's own pieces (src/viewer/table/): the virtualised
 * grid, the sort buttons in its header, the filter form, the text filter and the downloads. Sort and
 * filters live in the URL as for a type (`sort=data.stars`, `where=data.stars>=10`, `q`), and are applied
 * in the page by the library's query semantics (`filterRecords`): the file is read once, so none of them
 * costs a request.
 */
import { filterRecords, parseOrderBy, parseWhere, type WhereClause } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { type TableRow, textFilter } from '../table/cells.js';
import { headerRow, textFilterInput } from '../table/controls.js';
import { toCsv, toJson } from '../table/export.js';
import { VirtualList } from '../table/virtual-list.js';
import { FILTER_NAMES, whereForm } from '../table/where-form.js';
import { type FileTable, MAX_FILE_ROWS } from './records.js';

/** The caret of the text filter, to put back after the redraw its own Enter caused. */
let typing: { caret: number } | undefined;

/** The URL's `where` and `sort` on this file's columns; anything else is said and left out. */
function queryOf(ctx: ViewContext, table: FileTable) {
  const problems: string[] = [];
  const where: WhereClause[] = [];
  const notColumn = (field: string) =>
    `${field} is not a column of this file that filters and sorts (${table.sortable.join(', ') || 'none'})`;
  for (const text of ctx.state.where) {
    try {
      const clause = parseWhere(text, FILTER_NAMES);
      if (table.sortable.includes(clause.field)) where.push(clause);
      else problems.push(`The filter ${text}: ${notColumn(clause.field)}; it is left out.`);
    } catch (e) {
      problems.push(`${(e as Error).message} — this filter is left out.`);
    }
  }
  let orderBy: { field: string; direction: 'asc' | 'desc' } | undefined;
  if (ctx.state.sort !== undefined) {
    try {
      orderBy = parseOrderBy(ctx.state.sort, { ...FILTER_NAMES, label: () => '"sort"' });
      if (!table.sortable.includes(orderBy.field)) {
        problems.push(`The sort by ${orderBy.field}: ${notColumn(orderBy.field)}; the rows are in the file's order.`);
        orderBy = undefined;
      }
    } catch (e) {
      problems.push(`${(e as Error).message} — the rows are in the file's order.`);
    }
  }
  return { where, orderBy, problems };
}

/** The rows that meet the filters, in the sort's order (by the library's query semantics). */
function matching(table: FileTable, where: WhereClause[], orderBy: ReturnType<typeof queryOf>['orderBy']) {
  const byId = new Map(table.rows.map((r) => [r.id, r]));
  return filterRecords(table.records, where, orderBy).map((r) => byId.get(r.id) as TableRow);
}

function countLine(table: FileTable, matched: number, shown: number, typed: string): string {
  const total = table.total === undefined ? '' : ` of ${table.total.toLocaleString('en')}`;
  const read = table.truncated
    ? `The first ${table.rows.length.toLocaleString('en')} rows${total} (the page reads at most ${MAX_FILE_ROWS.toLocaleString('en')})`
    : `${table.rows.length.toLocaleString('en')} row(s)`;
  const filtered = matched === table.rows.length ? '' : `, ${matched.toLocaleString('en')} match the filters`;
  const text = typed ? `, ${shown.toLocaleString('en')} contain "${typed}"` : '';
  return `${read}${filtered}${text}.`;
}

/**
 * The table of `table` under the view's URL state, ready to append.
 *
 * @example
 * root.append(...fileTable(ctx, csvTable(path, text) as FileTable, 'x'));
 */
export function fileTable(ctx: ViewContext, table: FileTable, name: string): HTMLElement[] {
  const { where, orderBy, problems } = queryOf(ctx, table);
  const matched = matching(table, where, orderBy);
  const shown = { typed: ctx.state.q ?? '', rows: textFilter(matched, table.keys, ctx.state.q ?? '') };
  const count = h('p', { class: 'file-count vt-count', attrs: { role: 'status' } });
  const list = new VirtualList({
    label: `Rows of ${name}`,
    columns: table.keys,
    header: headerRow(table.keys, table.sortable, orderBy, (field, direction) =>
      ctx.navigate({ sort: direction === 'desc' ? `-${field}` : field }),
    ),
    count: () => shown.rows.length,
    row: (i) => shown.rows[i],
    // A file's rows link nowhere (the grid links only an `id` column, and a file's columns are `data.…`).
    href: () => '',
    open: () => {},
    nearEnd: () => {},
  });
  const update = (text: string) => {
    shown.typed = text;
    shown.rows = textFilter(matched, table.keys, text);
    list.refresh();
    count.textContent = countLine(table, matched.length, shown.rows.length, text);
  };
  const q = textFilterInput(ctx.state.q ?? '', {
    input: update,
    commit: (value, keepFocus) => {
      if (ctx.signal.aborted || value === (ctx.state.q ?? '')) return;
      if (keepFocus) typing = { caret: q.selectionStart ?? value.length };
      ctx.navigate({ q: value === '' ? undefined : value });
    },
  });
  const out = [
    h(
      'p',
      { class: 'vt-note' },
      "Each row is read as a document's data: the column name is the field data.name. Sorting and filtering cost no request (the file is read once).",
    ),
    ...problems.map((p) => h('p', { class: 'error', attrs: { role: 'alert' } }, p)),
    whereForm(ctx, table.sortable),
    h(
      'div',
      { class: 'vt-actions' },
      h('label', { attrs: { for: 'vt-q' } }, 'Text filter'),
      q,
      download('csv', ctx, table, () => shown.rows, name),
      download('json', ctx, table, () => shown.rows, name),
    ),
    count,
    list.element,
  ];
  queueMicrotask(() => {
    list.refresh();
    count.textContent = countLine(table, matched.length, shown.rows.length, shown.typed);
    if (typing) {
      q.focus();
      q.setSelectionRange(typing.caret, typing.caret);
      typing = undefined;
    }
  });
  return out;
}

/** The rows shown, keyed by the file's own column names (the header the file had). */
function asFileRows(table: FileTable, rows: readonly TableRow[]): TableRow[] {
  return rows.map((r) => {
    const values = Object.fromEntries(table.keys.map((k, j) => [table.names[j] as string, r.values[k]]));
    // The writers read a column named "id" from the row's id: give them the file's value there.
    return { id: values.id as string, values };
  });
}

/** A download of the rows that meet the filters and the text filter: a blob the page makes, no request. */
function download(
  format: 'csv' | 'json',
  ctx: ViewContext,
  table: FileTable,
  rows: () => TableRow[],
  name: string,
): HTMLElement {
  const button = h('button', { attrs: { type: 'button', 'data-format': format } }, `Download ${format.toUpperCase()}`);
  button.addEventListener('click', () => {
    const shown = asFileRows(table, rows());
    const body = format === 'csv' ? toCsv(table.names, shown) : toJson(table.names, shown);
    const url = URL.createObjectURL(new Blob([body], { type: format === 'csv' ? 'text/csv' : 'application/json' }));
    const a = h('a', { attrs: { download: `${name}.${format}` } });
    a.href = url;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    ctx.status(`Downloaded ${shown.length} rows as ${format.toUpperCase()}.`);
  });
  return button;
}
