/**
 * The table's rows and columns, pure: a row is a document's id and the values of the shown fields, a
 * column a field path (`id` or `data.<path>`, as docs/indexes.md names fields). Values come from a section
 * and are untrusted: they become text (never markup) and the text filter compares text.
 */

/** One row: a document's id and its values by field path (an absent field is left out). */
export interface TableRow {
  id: string;
  values: Record<string, unknown>;
}

/** Documents read to find the columns of a type without an index. */
export const SAMPLE_SIZE = 20;
/** Most columns the sample gives (an index has at most 8 fields). */
export const MAX_SAMPLE_COLUMNS = 12;
/** Longest cell text shown (the download keeps the whole value). */
export const MAX_CELL_CHARS = 200;

/**
 * The columns of an indexed type: `id` first, then the index's fields in declaration order.
 *
 * @example
 * indexColumns(['data.stars', 'id']); // ['id', 'data.stars']
 */
export function indexColumns(fields: readonly string[]): string[] {
  return ['id', ...fields.filter((f) => f !== 'id')];
}

/** Leaf paths of `value` under `prefix`: objects are opened two levels deep, arrays are one value. */
function leafPaths(value: unknown, prefix: string, depth: number, out: string[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth === 0) {
    if (!out.includes(prefix)) out.push(prefix);
    return;
  }
  for (const key of Object.keys(value)) {
    if (key === '' || key.includes('.')) continue; // not addressable as a dotted path
    leafPaths((value as Record<string, unknown>)[key], `${prefix}.${key}`, depth - 1, out);
  }
}

/**
 * The columns of a type without an index, from a sample of its documents' data: `id`, then each leaf
 * path in the order first seen (at most {@link MAX_SAMPLE_COLUMNS}).
 *
 * @example
 * sampleColumns([{ stars: 1, owner: { login: 'o' } }]); // ['id', 'data.stars', 'data.owner.login']
 */
export function sampleColumns(data: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const d of data) {
    if (d !== null && typeof d === 'object' && !Array.isArray(d)) leafPaths(d, 'data', 2, out);
    else if (!out.includes('data')) out.push('data');
  }
  return ['id', ...out.slice(0, MAX_SAMPLE_COLUMNS - 1)];
}

/**
 * The value at a field path of a document (`id` or `data.<path>`), undefined when a step is missing.
 *
 * @example
 * fieldValue('octo/a', { owner: { login: 'o' } }, 'data.owner.login'); // 'o'
 */
export function fieldValue(id: string, data: unknown, field: string): unknown {
  if (field === 'id') return id;
  let here: unknown = data;
  for (const segment of field.split('.').slice(1)) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, segment)) return undefined;
    here = (here as Record<string, unknown>)[segment];
  }
  return here;
}

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
