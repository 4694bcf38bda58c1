/**
 * The version picker of the document view: every version of the document, newest first, loaded a page
 * (100) at a time on request — "Load older versions" follows the history's `nextCursor` until the first
 * version. Each version links to the document at that version, to its diff with the version before, to the
 * section at that version and to the commit on GitHub (when the API has a web page: not for the emulator,
 * where the SHA is shown as text). The form compares any two loaded versions (`from`/`to` in the URL).
 */

import type { HistoryEntry, HistoryResult, Identity } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { formatLocal } from '../dates.js';
import { h, safeHref } from '../dom.js';
import { historyPage } from './reads.js';
import { changedFields, readVersions, unreadVersions } from './version-changes.js';

const short = (sha: string) => sha.slice(0, 7);
const firstLine = (message: string) => message.split('\n', 1)[0] ?? '';

/** `2026-11-28 02:07 CET` from an ISO date (the visitor's local time and zone, src/viewer/dates.ts). */
function when(iso: string): string {
  return formatLocal(iso);
}

function commitRef(ctx: ViewContext, sha: string): HTMLElement {
  const url = ctx.commitUrl(sha);
  const href = url === undefined ? undefined : safeHref(url);
  return href
    ? h('a', { class: 'sha', attrs: { href, title: `commit ${sha} on GitHub` } }, short(sha))
    : h('code', { class: 'sha', attrs: { title: sha } }, short(sha));
}

interface PickerState {
  entries: HistoryEntry[];
  next?: string;
  compactedAt?: string;
}

/** What a version changed, when known: against the version before it, or as the first version. */
function changesOf(ctx: ViewContext, identity: Identity, picker: PickerState, i: number): string | undefined {
  const entry = picker.entries[i] as HistoryEntry;
  const older = picker.entries[i + 1];
  // The oldest loaded version: its predecessor is on a page not read yet, or removed by a compaction.
  if (!older && (picker.next !== undefined || picker.compactedAt !== undefined)) return undefined;
  return changedFields(ctx.client, identity, entry.version, older?.version);
}

function versionItem(
  ctx: ViewContext,
  entry: HistoryEntry,
  older: HistoryEntry | undefined,
  changed: string | undefined,
): HTMLElement {
  const v = entry.version;
  const current = v === ctx.version;
  return h(
    'li',
    { class: current ? 'version current' : 'version', dataset: { version: v } },
    h(
      'a',
      { attrs: { href: ctx.link({ at: v, from: undefined, to: undefined }), 'aria-current': current && 'true' } },
      when(entry.committer.date),
    ),
    ' ',
    commitRef(ctx, v),
    ' ',
    h('span', { class: 'message' }, firstLine(entry.message)),
    ' ',
    h('span', { class: 'author' }, `by ${entry.author.name}`),
    changed !== undefined && h('span', { class: 'version-changes' }, changed),
    h(
      'span',
      { class: 'version-links' },
      older &&
        h(
          'a',
          { class: 'diff-prev', attrs: { href: ctx.link({ at: v, from: older.version, to: v }) } },
          'diff with previous',
        ),
      h(
        'a',
        {
          attrs: {
            href: ctx.link({
              view: 'overview',
              at: v,
              ns: undefined,
              type: undefined,
              id: undefined,
              from: undefined,
              to: undefined,
            }),
          },
        },
        'section at this version',
      ),
    ),
  );
}

function option(entry: HistoryEntry, selected: boolean): HTMLOptionElement {
  const text = `${when(entry.committer.date)} · ${short(entry.version)} · ${firstLine(entry.message).slice(0, 60)}`;
  return h('option', { attrs: { value: entry.version, selected } }, text);
}

/** The two selects and the button that navigate to `from`/`to` (pinning `at` to `to`: no re-read of the tip). */
function compareForm(ctx: ViewContext, picker: PickerState): { form: HTMLFormElement; refill(): void } {
  const from = h('select', { attrs: { id: 'doc-from', name: 'from' } });
  const to = h('select', { attrs: { id: 'doc-to', name: 'to' } });
  const refill = () => {
    const wantFrom = from.value || ctx.state.from || picker.entries[1]?.version;
    const wantTo = to.value || ctx.state.to || ctx.version || undefined;
    from.replaceChildren(...picker.entries.map((e) => option(e, e.version === wantFrom)));
    to.replaceChildren(...picker.entries.map((e) => option(e, e.version === wantTo)));
  };
  refill();
  const form = h(
    'form',
    {
      class: 'compare',
      on: {
        submit: (event) => {
          event.preventDefault();
          if (from.value && to.value) ctx.navigate({ from: from.value, to: to.value, at: to.value });
        },
      },
    },
    h('label', { attrs: { for: 'doc-from' } }, 'Compare from'),
    from,
    h('label', { attrs: { for: 'doc-to' } }, 'to'),
    to,
    h('button', { attrs: { type: 'submit' } }, 'Show diff'),
  );
  return { form, refill };
}

/**
 * The reads that say what each version changed: with a token at once (one GraphQL request per 100
 * versions); without one on request, after the rate-limit check (a request per version).
 */
function changesReader(ctx: ViewContext, identity: Identity, picker: PickerState, redraw: () => void) {
  const button = h('button', { attrs: { type: 'button' }, class: 'load-changes' });
  const warning = h('div', { class: 'changes-warning' });
  const unread = () =>
    unreadVersions(
      ctx.client,
      identity,
      picker.entries.map((e) => e.version),
    );
  const read = async () => {
    button.disabled = true;
    try {
      await readVersions(
        ctx.client,
        identity,
        picker.entries.map((e) => e.version),
      );
    } catch (error) {
      ctx.status(`Could not read what each version changed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      button.disabled = false;
    }
    if (ctx.signal.aborted) return;
    button.hidden = unread().length === 0 || ctx.hasToken();
    redraw();
  };
  button.addEventListener('click', () => {
    const n = unread().length;
    const verdict = ctx.budget.check(n, `Reading the document at ${n} versions`);
    if (!verdict.ok) return warning.replaceChildren(ctx.budget.warning(verdict));
    warning.replaceChildren();
    void read();
  });
  return {
    element: h('div', { class: 'versions-changes' }, button, warning),
    /** After the list changed: read at once with a token, else offer the button with its cost. */
    update() {
      const n = unread().length;
      button.hidden = n === 0 || ctx.hasToken();
      const s = n === 1 ? '' : 's';
      button.textContent = `Show which fields each version changed (${n} request${s}: the document at ${n} version${s})`;
      if (n > 0 && ctx.hasToken()) void read();
    },
  };
}

/**
 * The picker for `identity`, its first page read from `first` (the history below the view's version).
 *
 * @example
 * root.append(versionPicker(ctx, identity, await historyPage(ctx.client, identity, ctx.version)));
 */
export function versionPicker(ctx: ViewContext, identity: Identity, first: HistoryResult): HTMLElement {
  const picker: PickerState = { entries: [...first.entries], next: first.nextCursor, compactedAt: first.compactedAt };
  const list = h('ol', { class: 'versions-list' });
  const count = h('p', { class: 'versions-count', attrs: { 'aria-live': 'polite' } });
  const more = h('button', { attrs: { type: 'button' }, class: 'load-older' }, 'Load older versions');
  const { form, refill } = compareForm(ctx, picker);
  const drawList = () =>
    list.replaceChildren(
      ...picker.entries.map((e, i) => versionItem(ctx, e, picker.entries[i + 1], changesOf(ctx, identity, picker, i))),
    );
  const changes = changesReader(ctx, identity, picker, drawList);
  const draw = () => {
    drawList();
    const all = picker.next === undefined;
    count.textContent = `${picker.entries.length} version${picker.entries.length === 1 ? '' : 's'}${all ? '' : ' loaded so far (older ones on request)'}${picker.compactedAt ? '; older versions were removed by a compaction of the section' : ''}.`;
    more.hidden = all;
    // One version has nothing to compare with: no form at all (issue 40 item 11).
    form.hidden = picker.entries.length < 2;
    refill();
    changes.update();
  };
  more.addEventListener('click', async () => {
    if (picker.next === undefined) return;
    more.disabled = true;
    try {
      const page = await historyPage(ctx.client, identity, picker.next);
      for (const e of page.entries) picker.entries.push(e); // not push(...): the list grows page by page
      picker.next = page.nextCursor;
      picker.compactedAt = page.compactedAt;
      draw();
    } catch (error) {
      const stopped = ctx.budget.stopped(error);
      if (stopped) more.after(stopped);
      else ctx.status(`Could not load older versions: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      more.disabled = false;
    }
  });
  draw();
  return h(
    'section',
    { class: 'versions card', attrs: { 'aria-labelledby': 'versions-title' } },
    h('h2', { attrs: { id: 'versions-title' } }, 'Versions'),
    count,
    form,
    changes.element,
    list,
    more,
  );
}
