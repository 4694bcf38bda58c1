/**
 * The file view (issue 29 item 1): a plain data file on any ref (`ref=refs/heads/main&path=data/x.json`),
 * read at the frame's version — `.json` as a collapsible tree, `.jsonl` and `.csv` as a table. Anything
 * else (by extension, or content that does not read as its extension says) gets a sentence, not a guess.
 */
import type { View, ViewContext } from '../context.js';
import { h } from '../dom.js';
import { CsvSyntaxError, parseCsv } from '../frame/csv.js';
import { jsonTree } from '../frame/json-tree.js';

/** Rows drawn at most (`.jsonl`, `.csv`); the rest is counted, not drawn. */
export const MAX_FILE_ROWS = 1000;
/** Bytes read into the page at most: beyond it the file is named, not drawn. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

type Format = 'json' | 'jsonl' | 'csv';
const FORMAT_OF: Record<string, Format> = { json: 'json', jsonl: 'jsonl', ndjson: 'jsonl', csv: 'csv' };

export const fileView: View = async (root, ctx) => {
  const path = ctx.state.path as string;
  root.append(h('h1', { class: 'view-title' }, h('code', { text: path })));
  const say = (text: string) => root.append(h('p', { class: 'notice', attrs: { role: 'status' }, text }));
  const format = FORMAT_OF[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
  if (format === undefined) {
    say(`${path} is not a JSON, JSONL or CSV file: the file view opens .json, .jsonl (or .ndjson) and .csv files.`);
    return;
  }
  const text = await readText(ctx, path);
  if (typeof text !== 'string') return say(text.problem);
  const drawn = draw(format, path, text);
  if (typeof drawn === 'string') return say(drawn);
  root.append(...drawn);
};

/** The file's text at the frame's version, or the sentence that says why there is none. */
async function readText(ctx: ViewContext, path: string): Promise<string | { problem: string }> {
  const where = `${ctx.state.ref} at ${ctx.version.slice(0, 7)}`;
  const client = await ctx.clientFor(ctx.state.ref);
  const got = await client.refStore.get(path, { version: ctx.version });
  if (got === null) return { problem: `There is no file ${path} on ${where}.` };
  if (got.value.byteLength > MAX_FILE_BYTES) {
    return {
      problem: `${path} is ${(got.value.byteLength / 1048576).toFixed(1)} MB: the page draws files up to ${MAX_FILE_BYTES / 1048576} MB.`,
    };
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(got.value);
  } catch {
    return { problem: `${path} is not a text file (it is not UTF-8), so it is not JSON, JSONL or CSV.` };
  }
}

function draw(format: Format, path: string, text: string): HTMLElement[] | string {
  if (format === 'json') {
    try {
      return [jsonTree(JSON.parse(text))];
    } catch (e) {
      return `${path} is not valid JSON: ${(e as Error).message}.`;
    }
  }
  if (format === 'jsonl') return jsonLines(path, text);
  try {
    const { rows, truncated } = parseCsv(text, MAX_FILE_ROWS + 1);
    const [first = [], ...body] = rows;
    // A record wider than the header still shows all its fields (under unnamed columns).
    const width = body.reduce((w, r) => Math.max(w, r.length), first.length);
    const head = Array.from({ length: width }, (_, i) => first[i] ?? '');
    return [countLine(body.length, truncated), table(head, body)];
  } catch (e) {
    if (e instanceof CsvSyntaxError) return `${path} is not valid CSV (RFC 4180): ${e.message}.`;
    throw e;
  }
}

/** One JSON value a line; columns are the keys of the objects drawn (a non-object goes in "value"). */
function jsonLines(path: string, text: string): HTMLElement[] | string {
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  let more = 0;
  for (const [i, line] of lines.entries()) {
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
  const columns: string[] = [];
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  for (const v of values) {
    for (const k of isRecord(v) ? Object.keys(v) : ['value']) if (!columns.includes(k)) columns.push(k);
  }
  const cell = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  const rows = values.map((v) => columns.map((c) => cell(isRecord(v) ? v[c] : c === 'value' ? v : undefined)));
  return [countLine(rows.length, more > 0, rows.length + more), table(columns, rows)];
}

function countLine(drawn: number, truncated: boolean, total?: number): HTMLElement {
  const text = truncated
    ? `Showing the first ${drawn.toLocaleString('en')} rows${total ? ` of ${total.toLocaleString('en')}` : ''}: the page draws at most ${MAX_FILE_ROWS.toLocaleString('en')}.`
    : `${drawn.toLocaleString('en')} row(s).`;
  return h('p', { class: 'file-count', text });
}

function table(head: readonly string[], body: readonly string[][]): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'File contents' } },
    h(
      'table',
      { class: 'file-table' },
      h('thead', null, h('tr', null, ...head.map((c) => h('th', { attrs: { scope: 'col' }, text: c })))),
      h('tbody', null, ...body.map((r) => h('tr', null, ...head.map((_, i) => h('td', { text: r[i] ?? '' }))))),
    ),
  );
}
