/**
 * The table's rows and columns, pure: a row is a document's id and the values of the shown fields, a
 * column a field path (`id` or `data.<path>`, as docs/indexes.md names fields). Values come from a section
 * and are untrusted: they become text (never markup) and the text filter compares text.
 */

import { fieldValue } from '../../browser/index.js';

export { fieldValue, indexColumns, MAX_SAMPLE_COLUMNS, SAMPLE_SIZE, sampleColumns } from '../../browser/index.js';

/** One row: a document's id and its values by field path (an absent field is left out). */
export interface TableRow {
  id: string;
  values: Record<string, unknown>;
}

/** Longest cell text shown (the download keeps the whole value). */
export const MAX_CELL_CHARS = 200;

/**
 * A row of `columns` from a document's envelope.
 *
 * @example
 * rowOf({ id: 'a', data: { stars: 3 } }, ['id', 'data.stars']); // { id: 'a', values: { 'data.stars': 3 } }
 */
export function rowOf(doc: { id: string; data: unknown }, columns: readonly string[]): TableRow {
  const values: Record<string, unknown> = {};
  for (const c of columns) {
    if (c === 'id') continue;
    const v = fieldValue(doc.id, doc.data, c);
    if (v !== undefined) values[c] = v;
  }
  return { id: doc.id, values };
}

/** A row's value for a column (`id` is the row's id). */
export function cellValue(row: TableRow, column: string): unknown {
  return column === 'id' ? row.id : row.values[column];
}

/**
 * A value as the text of a cell: a string as it is, absent as empty, anything else as its JSON text.
 *
 * @example
 * cellText({ a: 1 }); // '{"a":1}'
 */
export function cellText(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}…` : text;
}

/**
 * The text filter: rows where some cell's full text contains `q` (case-insensitive).
 *
 * @example
 * textFilter(rows, ['id', 'data.name'], 'cli');
 */
export function textFilter(rows: readonly TableRow[], columns: readonly string[], q: string): TableRow[] {
  const needle = q.trim().toLowerCase();
  if (needle === '') return rows as TableRow[]; // the loaded rows themselves: 100,000 are not copied per page
  return rows.filter((row) =>
    columns.some((c) => {
      const v = cellValue(row, c);
      if (v === undefined) return false;
      return (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase().includes(needle);
    }),
  );
}
