/**
 * Parsing data files and HTTP bodies into items: JSON (an array, an object, or the array at `items`),
 * NDJSON (one JSON value per line), CSV (RFC 4180: header row, quoted fields, `""` escapes, CRLF) and
 * YAML. Errors name the source and the line.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { InvalidResponse } from '../../core/errors.js';
import { valueAt } from '../spec/index.js';

export type DataFormat = 'json' | 'ndjson' | 'csv' | 'yaml';

/**
 * Format from a file name or URL path extension, or undefined.
 *
 * @example
 * formatOfName('data/runs.jsonl'); // 'ndjson'
 */
export function formatOfName(name: string): DataFormat | undefined {
  const m = /\.([A-Za-z]+)$/.exec(name.split(/[?#]/)[0] ?? '');
  const ext = m?.[1]?.toLowerCase();
  if (ext === 'json') return 'json';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext === 'csv') return 'csv';
  if (ext === 'yaml' || ext === 'yml') return 'yaml';
  return undefined;
}

/**
 * Format from a Content-Type header, or undefined.
 *
 * @example
 * formatOfContentType('text/csv; charset=utf-8'); // 'csv'
 */
export function formatOfContentType(type: string | null): DataFormat | undefined {
  const t = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (t === 'application/x-ndjson' || t === 'application/ndjson' || t === 'application/jsonl') return 'ndjson';
  if (t === 'text/csv') return 'csv';
  if (t === 'application/yaml' || t === 'text/yaml' || t === 'application/x-yaml') return 'yaml';
  if (t === 'application/json' || t.endsWith('+json')) return 'json';
  return undefined;
}

/**
 * Parse CSV (RFC 4180: quoted fields, doubled quotes, CRLF, a BOM, quoted newlines) into one object per
 * row, keyed by the header row (values stay strings), with `csv-parse`. Problems name the row as a
 * spreadsheet would (the header is row 1).
 *
 * @example
 * parseCsv('id,name\n1,"a, b"\n'); // [{ id: '1', name: 'a, b' }]
 */
export function parseCsv(text: string, where = 'CSV'): Record<string, string>[] {
  try {
    return parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];
  } catch (e) {
    throw csvProblem(e, where);
  }
}

function csvProblem(e: unknown, where: string): unknown {
  if (!(e instanceof CsvError)) return e;
  const at = e as CsvError & { records?: number; lines?: number; record?: unknown[]; columns?: unknown[] };
  if (e.code === 'CSV_RECORD_INCONSISTENT_COLUMNS') {
    const row = (at.records ?? 0) + 2;
    const header = Array.isArray(at.columns) ? at.columns.length : undefined;
    return new InvalidResponse(
      `${where}: row ${row} has ${at.record?.length ?? '?'} fields${header === undefined ? '' : `, the header has ${header}`}`,
      { where, row },
    );
  }
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
    return new InvalidResponse(`${where}: unclosed quoted field (line ${at.lines ?? '?'})`, { where, line: at.lines });
  }
  return new InvalidResponse(`${where}: ${e.message}`, { where, line: at.lines });
}

/**
 * Items of a body: each array element, each NDJSON line, each CSV row, or the document itself when it is
 * not an array. `items` picks the array out of a JSON/YAML document.
 *
 * @example
 * parseItems('{"data":{"items":[1,2]}}', 'json', 'http source', 'data.items'); // [1, 2]
 */
export function parseItems(text: string, format: DataFormat, where: string, items?: string): unknown[] {
  if (format === 'csv') return parseCsv(text, where);
  if (format === 'ndjson') {
    const out: unknown[] = [];
    text.split(/\r?\n/).forEach((l, n) => {
      if (l.trim() === '') return;
      try {
        out.push(JSON.parse(l));
      } catch (e) {
        throw new InvalidResponse(`${where}: line ${n + 1} is not JSON: ${(e as Error).message}`, {
          where,
          line: n + 1,
        });
      }
    });
    return out;
  }
  let value: unknown;
  try {
    value = format === 'yaml' ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw new InvalidResponse(`${where}: not valid ${format.toUpperCase()}: ${(e as Error).message.split('\n')[0]}`, {
      where,
    });
  }
  if (items !== undefined) {
    const list = valueAt(value, items);
    if (!Array.isArray(list)) throw new InvalidResponse(`${where}: "${items}" is not an array`, { where, items });
    return list;
  }
  return Array.isArray(value) ? value : [value];
}
