/**
 * The file view (issue 29 item 1, issue 40 item 9): a plain data file on any ref
 * (`ref=refs/heads/main&path=data/x.json`), read at the frame's version — `.jsonl`, `.csv` and a `.json`
 * array of objects as a table that sorts, filters and downloads like a type's; any other `.json` as a
 * collapsible tree. Without `path`, the ref's data files (src/viewer/files/file-list.ts). Anything else
 * (by extension, or content that does not read as its extension says) gets a sentence, not a guess.
 */
import type { View, ViewContext } from '../context.js';
import { h } from '../dom.js';
import { fileList } from '../files/file-list.js';
import { fileTable } from '../files/file-table.js';
import {
  csvTable,
  type FileTable,
  type FileFormat as Format,
  formatOf,
  jsonArrayTable,
  jsonLinesTable,
} from '../files/records.js';
import { jsonTree } from '../frame/json-tree.js';

export { MAX_FILE_ROWS } from '../files/records.js';

/** Bytes read into the page at most: beyond it the file is named, not drawn. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const fileView: View = async (root, ctx) => {
  const path = ctx.state.path;
  if (path === undefined) return fileList(root, ctx, MAX_FILE_BYTES);
  const list = ctx.link({ view: 'file', path: undefined, where: [], sort: undefined, q: undefined });
  root.append(
    h('h1', { class: 'view-title' }, h('code', { text: path })),
    h('p', { class: 'file-back' }, h('a', { attrs: { href: list } }, `All data files on ${ctx.state.ref}`)),
  );
  const say = (text: string) => root.append(h('p', { class: 'notice', attrs: { role: 'status' }, text }));
  const format = formatOf(path);
  if (format === undefined) {
    say(`${path} is not a JSON, JSONL or CSV file: the file view opens .json, .jsonl (or .ndjson) and .csv files.`);
    return;
  }
  const text = await readText(ctx, path);
  if (typeof text !== 'string') return say(text.problem);
  const drawn = draw(ctx, format, path, text);
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

function draw(ctx: ViewContext, format: Format, path: string, text: string): HTMLElement[] | string {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '') || 'rows';
  const table = (t: FileTable | string) => (typeof t === 'string' ? t : fileTable(ctx, t, name));
  if (format === 'jsonl') return table(jsonLinesTable(path, text));
  if (format === 'csv') return table(csvTable(path, text));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `${path} is not valid JSON: ${(e as Error).message}.`;
  }
  const rows = jsonArrayTable(value);
  return rows ? table(rows) : [jsonTree(value)];
}
