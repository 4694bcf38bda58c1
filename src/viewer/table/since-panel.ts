/**
 * The table's "Changes since" panel: a picker of an earlier version (the section's recent commits, read
 * only when the visitor opens the picker or the URL already has `from=`, so a plain table costs no more),
 * and what changed among the rows loaded — cells, rows added, rows removed (their ids when known).
 */
import type { HistoryEntry } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { formatLocal } from '../dates.js';
import { h } from '../dom.js';
import { cellText } from './cells.js';
import { cellChange, openSince, type Since, type SinceSummary, valueAt } from './since.js';
import type { TableSource } from './source.js';
import type { VirtualListOptions } from './virtual-list.js';

const fmt = (n: number) => n.toLocaleString('en-US');
const short = (sha: string) => sha.slice(0, 7);
/** Ids of removed rows listed by name; past this, the count alone. */
const MAX_REMOVED_LISTED = 50;

/** The rows at `from` of the last table shown, kept across redraws of the same query (as its rows are). */
let cached: { key: string; since: Promise<Since | { problem: string }> } | undefined;

/**
 * The table's comparison with `ctx.state.from` (undefined without one): read once per table query and
 * version compared with; a read that failed is tried again on the next redraw.
 *
 * @example
 * const since = await sinceOf(ctx, key, source);
 */
export async function sinceOf(
  ctx: ViewContext,
  key: string,
  source: TableSource,
): Promise<Since | { problem: string } | undefined> {
  const from = ctx.state.from;
  const { ns, type } = ctx.state;
  if (!from || !ns || !type) return undefined;
  const mine = `${key}|${from}`;
  if (cached?.key !== mine) {
    const query = { client: ctx.client, namespace: ns, type, from, hasToken: ctx.hasToken() };
    const since = openSince({ ...query, budget: (n, what) => ctx.budget.check(n, what) }, source);
    cached = { key: mine, since };
    since.catch(() => {
      if (cached?.since === since) cached = undefined;
    });
  }
  return cached.since;
}

/**
 * The grid's `change` hook for a comparison (VirtualListOptions.change).
 *
 * @example
 * new VirtualList({ ...options, change: changeHook(since) });
 */
export function changeHook(since: Since): NonNullable<VirtualListOptions['change']> {
  return (row, column) => {
    const kind = cellChange(since, row, column);
    if (kind !== 'changed') return kind && { kind };
    return { kind, was: cellText(valueAt(since, row, column)) };
  };
}

/**
 * The picker: a `<details>` whose select lists the recent commits before the version shown; choosing one
 * puts `from=` in the URL, "None" takes it out.
 *
 * @example
 * root.append(sincePicker(ctx));
 */
export function sincePicker(ctx: ViewContext): HTMLElement {
  const from = ctx.state.from;
  const select = h('select', { attrs: { id: 'vt-from' } }, h('option', { attrs: { value: '' } }, 'None'));
  if (from) select.append(h('option', { attrs: { value: from } }, short(from)));
  select.value = from ?? '';
  select.addEventListener('change', () => ctx.navigate({ from: select.value === '' ? undefined : select.value }));
  const details = h(
    'details',
    { class: 'vt-since-pick' },
    h('summary', null, 'Highlight changes since a version'),
    h('label', { attrs: { for: 'vt-from' } }, 'Changes since'),
    select,
  );
  let filled = false;
  const fill = () => {
    if (filled || !details.open) return;
    filled = true;
    ctx.recentCommits().then(
      (commits) => addOptions(select, commits, ctx.version, from),
      (error: unknown) => ctx.status(`Could not read the recent commits: ${(error as Error).message}`),
    );
  };
  details.addEventListener('toggle', fill);
  if (from) details.open = true;
  fill();
  return details;
}

function addOptions(select: HTMLSelectElement, commits: readonly HistoryEntry[], shown: string, from?: string): void {
  for (const c of commits) {
    if (c.version === shown) continue;
    const text = `${short(c.version)} · ${formatLocal(c.committer.date)} · ${(c.message.split('\n', 1)[0] ?? '').slice(0, 60)}`;
    const existing = [...select.options].find((o) => o.value === c.version);
    if (existing) existing.textContent = text;
    else select.append(h('option', { attrs: { value: c.version } }, text));
  }
  select.value = from ?? '';
}

/**
 * The sentence under the picker: what changed among the rows loaded since `from`, and the rows removed.
 *
 * @example
 * sinceSummary(since, summarise(since, source)); // <p role="status">Since abc1234: 3 cells changed in 2 rows…</p>
 */
export function sinceSummary(since: Since, s: SinceSummary): HTMLElement {
  const removed =
    s.removed === undefined
      ? `at least ${fmt(s.removedAtLeast)} rows removed (the ids are listed once every row is loaded, unfiltered)`
      : `${fmt(s.removed.length)} rows removed`;
  const p = h(
    'p',
    {
      class: 'vt-since',
      attrs: { role: 'status' },
      dataset: { changed: String(s.changedCells), added: String(s.added), removed: String(s.removedAtLeast) },
    },
    `Since ${short(since.from)}: ${fmt(s.changedCells)} cells changed in ${fmt(s.changedRows)} rows and ${fmt(s.added)} rows added among the rows loaded (marked ± and +); ${removed}.`,
  );
  if (!s.removed?.length) return p;
  const listed = s.removed.slice(0, MAX_REMOVED_LISTED);
  const more = s.removed.length - listed.length;
  return h(
    'div',
    { class: 'vt-since-box' },
    p,
    h(
      'details',
      { class: 'vt-removed' },
      h('summary', null, `Rows removed since ${short(since.from)}`),
      h('ul', null, ...listed.map((id) => h('li', null, id))),
      more > 0 ? h('p', null, `and ${fmt(more)} more`) : '',
    ),
  );
}
