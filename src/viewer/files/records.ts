/**
 * A data file's rows as records, pure: `.csv` (RFC 4180, the first record the header), `.jsonl` (a JSON
 * value a line) and a `.json` array of objects. A row is read as a document's `data`, so the column
 * `name` is the field `data.name` — the form the filters and the sort use (docs/indexes.md). Files are
 * untrusted: every value stays a value (never markup), and records are built with own properties only, so
 * a column named `__proto__` is a column like any other.
 */
import type { MemoryRecord } from '../../browser/index.js';
import { CsvSyntaxError, parseCsv } from '../frame/csv.js';
import type { TableRow } from '../table/cells.js';

export type FileFormat = 'json' | 'jsonl' | 'csv';
const FORMAT_OF: Record<string, FileFormat> = { json: 'json', jsonl: 'jsonl', ndjson: 'jsonl', csv: 'csv' };

/**
 * The data format a path's extension names (`.json`, `.jsonl` or `.ndjson`, `.csv`), if any.
 *
 * @example
 * formatOf('data/x.CSV'); // 'csv'
 */
export function formatOf(path: string): FileFormat | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash ? FORMAT_OF[path.slice(dot + 1).toLowerCase()] : undefined;
}

/** Rows read into a table at most; the rest is counted, not drawn. */
export const MAX_FILE_ROWS = 1000;

/** A column name the text form of a clause can name (`data.<name>`: no dot, space or operator). */
const PLAIN_NAME = /^[^.\s=<>~!"{}[\]]+$/;

export interface FileTable {
  /** Column names as the file has them (made unique: a repeated or empty header gets a number). */
  names: string[];
  /** `data.<name>` of each column, in order: the grid's columns. */
  keys: string[];
  /** Keys a filter or the sort may name (the plain names; the text filter searches every column). */
  sortable: string[];
  /** One record a row (`id`: the row's number, zero-padded so the default order is the file's). */
  records: MemoryRecord[];
  /** The same rows as the grid draws them (`values` by key), in the same order. */
  rows: TableRow[];
  /** True when the file has more rows than {@link MAX_FILE_ROWS}. */
  truncated: boolean;
  /** Rows in the file, when counted (JSON Lines, JSON). */
  total?: number;
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
/** What a query compares: a scalar or an array of at most 32 scalars (docs/indexes.md); an object is shown, not compared. */
const comparable = (v: unknown) =>
  v === undefined || isScalar(v) || (Array.isArray(v) && v.length <= 32 && v.every(isScalar));

const rowId = (i: number) => String(i + 1).padStart(7, '0');

/** A CSV cell that reads back as the same number is a number (`007`, `1e5` and `-0` stay text). */
function csvValue(text: string): unknown {
  if (text === '' || !/^-?[0-9.]+$/.test(text)) return text;
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text ? n : text;
}

function uniqueNames(raw: readonly string[]): string[] {
  const seen = new Set<string>();
  return raw.map((name, i) => {
    let out = name === '' ? `(column ${i + 1})` : name;
    for (let k = 2; seen.has(out); k++) out = `${name} (${k})`;
    seen.add(out);
    return out;
  });
}

/** The table of `names` over `values` (an array per row, in column order). */
function tableOf(names: string[], values: unknown[][], truncated: boolean, total?: number): FileTable {
  const keys = names.map((n) => `data.${n}`);
  const records: MemoryRecord[] = [];
  const rows: TableRow[] = [];
  for (const [i, row] of values.entries()) {
    const id = rowId(i);
    const present = names.map((n, j) => [n, row[j]] as const).filter(([, v]) => v !== undefined);
    // Object.fromEntries defines own properties: "__proto__" is a key, not the prototype.
    records.push({ id, data: Object.fromEntries(present) });
    rows.push({ id, values: Object.fromEntries(present.map(([n, v]) => [`data.${n}`, v])) });
  }
  // A column a clause can name, holding only what a query compares (a scalar or an array of scalars).
  const sortable = keys.filter(
    (_, j) => PLAIN_NAME.test(names[j] as string) && values.every((row) => comparable(row[j])),
  );
  return { names, keys, sortable, records, rows, truncated, ...(total === undefined ? {} : { total }) };
}

/**
 * A CSV file's table (the first record names the columns), or the sentence saying why it is not CSV.
 *
 * @example
 * csvTable('data/x.csv', 'name,stars\r\nada,3\r\n'); // names ['name', 'stars'], one row { name: 'ada', stars: 3 }
 */
export function csvTable(path: string, text: string): FileTable | string {
  try {
    const { rows, truncated } = parseCsv(text, MAX_FILE_ROWS + 1);
    const [first = [], ...body] = rows;
    // A record wider than the header still shows all its fields (under numbered columns).
    const width = body.reduce((w, r) => Math.max(w, r.length), first.length);
    const names = uniqueNames(Array.from({ length: width }, (_, i) => first[i] ?? ''));
    return tableOf(
      names,
      body.map((r) => r.map(csvValue)),
      truncated,
    );
  } catch (e) {
    if (e instanceof CsvSyntaxError) return `${path} is not valid CSV (RFC 4180): ${e.message}.`;
    throw e;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Values as a table: the keys of the objects in order of first sight (a non-object goes in "value"). */
function valuesTable(values: readonly unknown[], more: number): FileTable {
  const shown = values.slice(0, MAX_FILE_ROWS);
  const names: string[] = [];
  const seen = new Set<string>();
  for (const v of shown) {
    for (const k of isRecord(v) ? Object.keys(v) : ['value']) {
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
    }
  }
  const cell = (v: unknown, n: string) =>
    isRecord(v) ? (Object.hasOwn(v, n) ? v[n] : undefined) : n === 'value' ? v : undefined;
  const extra = more + Math.max(0, values.length - MAX_FILE_ROWS);
  return tableOf(
    names,
    shown.map((v) => names.map((n) => cell(v, n))),
    extra > 0,
    values.length + more,
  );
}

/**
 * A JSON Lines file's table (blank lines skipped), or the sentence naming the first line that is not JSON.
 *
 * @example
 * jsonLinesTable('data/x.jsonl', '{"id":1}\n{"id":2}\n'); // names ['id'], two rows
 */
export function jsonLinesTable(path: string, text: string): FileTable | string {
  const values: unknown[] = [];
  let more = 0;
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    if (values.length >= MAX_FILE_ROWS) {
      more++;
      continue;
    }
    try {
      values.push(JSON.parse(line));
    } catch (e) {
      return `${path} is not valid JSON Lines: line ${i + 1} is not JSON (${(e as Error).message}).`;
    }
  }
  return valuesTable(values, more);
}

/**
 * A parsed `.json` value as a table when it is a non-empty array of objects (flat-viewer's rule: what a
 * spreadsheet would show); undefined otherwise (the page shows it as a tree).
 *
 * @example
 * jsonArrayTable([{ a: 1 }, { a: 2 }]); // names ['a'], two rows
 */
export function jsonArrayTable(value: unknown): FileTable | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isRecord)) return undefined;
  return valuesTable(value, 0);
}
