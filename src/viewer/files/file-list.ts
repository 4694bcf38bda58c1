/**
 * The file view without `path` (issue 40 item 9): the ref's `.json`, `.jsonl` (`.ndjson`) and `.csv`
 * files at the frame's version, each with its size and a link that opens it. ONE recursive tree listing
 * (`RemoteApiRefStore.listTree`); when GitHub cuts that listing (past 100,000 entries or 7 MB) the page
 * lists what it got and says so, rather than walking the tree a level at a time (a request a directory:
 * an anonymous visitor's hour would be gone).
 */
import type { DocDbClient, TreeFile, TreeListing } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { formatOf } from './records.js';

/** Files listed at most; the rest is counted. */
export const MAX_LISTED_FILES = 2000;

/** `532 B`, `1.2 KB`, `3.4 MB` (1 KB = 1,024 bytes, as GitHub's file pages count). */
export function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return 'size unknown';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** One listing of the ref's tree: with sizes from a GitHub store, else the store's own (complete) list. */
async function listing(client: DocDbClient, version: string): Promise<TreeListing> {
  const store = client.refStore as DocDbClient['refStore'] & {
    listTree?: (version: string) => Promise<TreeListing>;
  };
  if (typeof store.listTree === 'function') return store.listTree(version);
  const listed = await store.list({ version });
  return { files: listed.entries.map((e) => ({ path: e.key })), truncated: false };
}

function fileRow(ctx: ViewContext, f: TreeFile, maxBytes: number): HTMLElement {
  const tooBig = f.size !== undefined && f.size > maxBytes;
  return h(
    'tr',
    { dataset: { path: f.path } },
    h('td', null, h('a', { attrs: { href: ctx.link({ view: 'file', path: f.path }) } }, f.path)),
    h('td', { class: 'num' }, formatSize(f.size)),
    h('td', null, tooBig ? 'too large to draw' : ''),
  );
}

/**
 * Draw the list of the ref's data files into `root`.
 *
 * @example
 * await fileList(root, ctx, MAX_FILE_BYTES);
 */
export async function fileList(root: HTMLElement, ctx: ViewContext, maxBytes: number): Promise<void> {
  const at = `${ctx.state.ref} at ${ctx.version.slice(0, 7)}`;
  root.append(h('h1', { class: 'view-title' }, 'Data files'));
  const client = await ctx.clientFor(ctx.state.ref);
  const listed = await listing(client, ctx.version);
  if (ctx.signal.aborted) return;
  const files = listed.files
    .filter((f) => formatOf(f.path) !== undefined)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const shown = files.slice(0, MAX_LISTED_FILES);
  const say = (cls: string, text: string, role = 'status') => h('p', { class: cls, attrs: { role } }, text);
  root.append(
    say(
      'file-list-count',
      files.length === 0
        ? `No .json, .jsonl or .csv file on ${at}.`
        : `${files.length.toLocaleString('en')} data file(s) on ${at}${files.length > shown.length ? `; the first ${shown.length.toLocaleString('en')} are listed` : ''}.`,
    ),
  );
  if (listed.truncated) {
    root.append(
      say(
        'notice file-list-truncated',
        `GitHub cut the listing of this tree short (it lists at most 100,000 entries or 7 MB at once): these are only the files it listed. A file not listed still opens by its path: add path= to the URL (for example path=data/x.csv).`,
        'alert',
      ),
    );
  }
  if (shown.length === 0) return;
  root.append(
    h(
      'div',
      { class: 'table-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': 'Data files' } },
      h(
        'table',
        { class: 'file-list' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { attrs: { scope: 'col' } }, 'File'),
            h('th', { attrs: { scope: 'col' } }, 'Size'),
            h('th', { attrs: { scope: 'col' } }, h('span', { class: 'sr' }, 'Note')),
          ),
        ),
        h('tbody', null, ...shown.map((f) => fileRow(ctx, f, maxBytes))),
      ),
    ),
  );
}
