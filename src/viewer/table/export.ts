/**
 * The download of the filtered rows, pure. CSV is RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180) through
 * docdb's own `csvField` (the CLI's `--format csv` writer: quoting, an object or array as its JSON text),
 * records ended by CRLF. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and
 * some drop a leading TAB or CR and read what follows (OWASP's list of the six,
 * https://owasp.org/www-community/attacks/CSV_Injection): a string starting with any of them gets a leading `'`. Numbers are
 * written as numbers (a negative number is data, not a formula). JSON is an array of `{ column: value }`.
 */
import { csvField } from '../../browser/index.js';
import { cellValue, type TableRow } from './cells.js';

/** `=`, `+`, `-`, `@`, TAB, CR: the first characters OWASP lists as starting a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A string a spreadsheet would read as a formula, made inert with a leading `'`; anything else unchanged.
 *
 * @example
 * inertCell('=HYPERLINK("x")'); // "'=HYPERLINK(\"x\")"
 */
export function inertCell(value: unknown): unknown {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The rows as CSV: a header of the column names, then one record per row.
 *
 * @example
 * toCsv(['id', 'data.stars'], [{ id: 'a', values: { 'data.stars': 3 } }]); // 'id,data.stars\r\na,3\r\n'
 */
export function toCsv(columns: readonly string[], rows: readonly TableRow[]): string {
  const lines = [columns.map((c) => csvField(inertCell(c))).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(inertCell(cellValue(row, c)))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The rows as a JSON array of objects keyed by column (an absent value is left out).
 *
 * @example
 * toJson(['id', 'data.stars'], rows); // '[\n{"id":"a","data.stars":3}\n]\n'
 */
export function toJson(columns: readonly string[], rows: readonly TableRow[]): string {
  const items = rows.map((row) => {
    const o: Record<string, unknown> = {};
    for (const c of columns) {
      const v = cellValue(row, c);
      if (v !== undefined) o[c] = v;
    }
    return JSON.stringify(o);
  });
  return items.length === 0 ? '[]\n' : `[\n${items.join(',\n')}\n]\n`;
}
