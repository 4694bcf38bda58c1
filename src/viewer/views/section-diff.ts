/**
 * The section diff (`view=diff&from&to`, optional `ns`/`type`; issue 29 item 5): the documents added,
 * modified and removed between two versions (`client.changes`), each modified one with its field diff.
 * Modified documents come a page at a time. `changes({ withDocuments })` rebuilds most of them from the compare's
 * patches (issue 40 item 4: their field diffs cost no request); the rest of a page are read in bulk
 * (`changedVersions`: the `from` version plus the patch, or both versions; a few requests per page with a token,
 * one or two a document without); long lists say how many there are. The changes are
 * grouped by type, each group collapsible, under a filter by key (../section-diff/groups.ts, issue 40 item 11).
 */
import { type DocDbClient, type Envelope, explainError, type Identity } from '../../browser/index.js';
import type { View, ViewContext } from '../context.js';
import { documentChanges, fieldDiff } from '../document/field-diff.js';
import { versionProblem } from '../document/problems.js';
import { h } from '../dom.js';
import { type Changed, groupedChanges, type TypeGroup } from '../section-diff/groups.js';

/** Modified documents whose field diffs are drawn per page (with a token: bulk reads). */
export const MODIFIED_PAGE = 50;
/**
 * Without a token: documents of a page that must be READ (not rebuilt from their patch; 1 or 2 requests each),
 * so a page stays a third of GitHub's 60 an hour. Rebuilt documents cost nothing: a page holds up to
 * {@link MODIFIED_PAGE} of them besides.
 */
export const ANONYMOUS_MODIFIED_PAGE = 10;
/** Added or removed documents listed per page. */
export const LISTED_PAGE = 200;

type DocumentChangesResult = Awaited<ReturnType<DocDbClient['changes']>>;
/** A modified document's two envelopes, kept by key so a redraw (the filter) never reads them again. */
type Pair = { before: Envelope | null; after: Envelope | null };
type PairCache = Map<string, Pair>;
const short = (sha: string) => sha.slice(0, 7);
const label = (d: Identity) => `${d.namespace}/${d.doc_type}/${d.id}`;

function docLink(ctx: ViewContext, d: Changed, version: string): HTMLElement {
  const href = ctx.link({
    view: 'document',
    ns: d.namespace,
    type: d.doc_type,
    id: d.id,
    at: version,
    from: undefined,
    to: undefined,
  });
  return h('a', { attrs: { href } }, label(d));
}

/**
 * A "show more" button under a list that draws the next page each time, and hides at the end. `size`: items per
 * page, or how many of the items left the next page takes.
 */
function paged<T>(
  items: readonly T[],
  size: number | ((rest: readonly T[]) => number),
  what: string,
  drawPage: (page: readonly T[]) => Promise<void> | void,
) {
  let shown = 0;
  const sizeOf = (rest: readonly T[]) => (typeof size === 'number' ? size : size(rest));
  const more = h('button', { class: 'show-more', attrs: { type: 'button' } });
  const next = async () => {
    const page = items.slice(shown, shown + sizeOf(items.slice(shown)));
    shown += page.length;
    more.disabled = true;
    await drawPage(page);
    more.disabled = false;
    more.hidden = shown >= items.length;
    const rest = items.slice(shown);
    more.textContent = `Show the next ${Math.min(sizeOf(rest), rest.length)} of ${rest.length} more ${what}`;
  };
  more.addEventListener('click', () => void next());
  return { more, first: next };
}

function listSection(ctx: ViewContext, kind: 'added' | 'removed', docs: Changed[], version: string): HTMLElement {
  const list = h('ul', { class: 'doc-list' });
  const { more, first } = paged(docs, LISTED_PAGE, `${kind} documents`, (page) => {
    list.append(...page.map((d) => h('li', { dataset: { key: d.key } }, docLink(ctx, d, version))));
  });
  void first();
  const title = `${docs.length} ${kind}`;
  return h('section', { class: `diff-${kind}`, attrs: { 'aria-label': title } }, h('h3', null, title), list, more);
}

/**
 * Both envelopes of each document of a page: those not yet in `cache` from `changedVersions` (rebuilt ones free,
 * the rest read in bulk), then kept there.
 */
async function modifiedPage(client: DocDbClient, docs: readonly Changed[], from: string, to: string, cache: PairCache) {
  const missing = docs.filter((d) => !cache.has(d.key));
  if (missing.length > 0) {
    const pairs = await client.changedVersions(missing, from, to);
    missing.forEach((d, i) => {
      cache.set(d.key, pairs[i] as Pair);
    });
  }
  return docs.map((d) => ({ d, ...(cache.get(d.key) as Pair) }));
}

/**
 * Requests a document's field diff costs without a token: none when its patch rebuilt both versions; else a browser
 * reads each blob alone (codeload sends no CORS header, so no archive): its `from` version when a patch gives the
 * rest, both versions otherwise.
 */
const anonymousCost = (d: Changed) => (d.before && d.after ? 0 : d.patch !== undefined ? 1 : 2);

/** What a page of field diffs costs: with a token, a few GraphQL batches; without one, each document's reads. */
function pageCost(ctx: ViewContext, unread: readonly Changed[]): number {
  if (unread.every((d) => d.before && d.after)) return 0; // rebuilt from patches, or read before (a redraw)
  return ctx.hasToken() ? 4 : unread.reduce((n, d) => n + anonymousCost(d), 0);
}

/**
 * How many of `rest` the next anonymous page takes: up to {@link MODIFIED_PAGE}, of which at most
 * {@link ANONYMOUS_MODIFIED_PAGE} must be read (a rebuilt document costs nothing).
 */
function anonymousPageSize(rest: readonly Changed[], cache: PairCache): number {
  let reads = 0;
  let n = 0;
  for (const d of rest.slice(0, MODIFIED_PAGE)) {
    const read = !cache.has(d.key) && anonymousCost(d) > 0;
    if (read && reads === ANONYMOUS_MODIFIED_PAGE) break;
    if (read) reads++;
    n++;
  }
  return n;
}

function modifiedItem(ctx: ViewContext, d: Changed, from: string, to: string, diff: HTMLElement): HTMLElement {
  const diffLink = ctx.link({ view: 'document', ns: d.namespace, type: d.doc_type, id: d.id, at: to, from, to });
  return h(
    'article',
    { class: 'modified-doc', dataset: { key: d.key } },
    h('h4', null, h('a', { attrs: { href: diffLink } }, label(d))),
    diff,
  );
}

function modifiedSection(
  ctx: ViewContext,
  docs: Changed[],
  from: string,
  to: string,
  cache: PairCache,
): { section: HTMLElement; ready: Promise<void> } {
  const list = h('div', { class: 'modified-list' });
  const note = h('div', { class: 'budget-note', attrs: { role: 'status' } });
  const size = ctx.hasToken() ? MODIFIED_PAGE : (rest: readonly Changed[]) => anonymousPageSize(rest, cache);
  const { more, first } = paged(docs, size, 'modified documents', async (page) => {
    const verdict = ctx.budget.check(
      pageCost(
        ctx,
        page.filter((d) => !cache.has(d.key)),
      ),
      `The field diffs of ${page.length} modified documents`,
    );
    if (!verdict.ok) {
      // Listed without their diffs: each still links to its own diff, read on request; or add a token.
      const message = `${verdict.message ?? ''} They are listed without field diffs; open one to see its diff.`;
      note.replaceChildren(ctx.budget.warning({ ...verdict, message }));
      list.append(
        ...page.map((d) =>
          modifiedItem(ctx, d, from, to, h('p', { class: 'diff-skipped' }, 'Field diff not read (rate limit).')),
        ),
      );
      return;
    }
    try {
      for (const { d, before, after } of await modifiedPage(ctx.client, page, from, to, cache)) {
        list.append(modifiedItem(ctx, d, from, to, fieldDiff(documentChanges(before, after))));
      }
    } catch (error) {
      const stopped = ctx.budget.stopped(error);
      if (stopped) list.append(stopped);
      else
        note.textContent = `Could not read the modified documents: ${explainError(error, { repository: ctx.state.repo })}`;
    }
  });
  const title = `${docs.length} modified`;
  const section = h(
    'section',
    { class: 'diff-modified', attrs: { 'aria-label': title } },
    h('h3', null, title),
    note,
    list,
    more,
  );
  return { section, ready: first() };
}

/** Two labelled inputs to compare any two versions (40-character SHAs), prefilled from the URL. */
function versionsForm(ctx: ViewContext): HTMLElement {
  const input = (name: 'from' | 'to', text: string) => [
    h('label', { attrs: { for: `diff-${name}` } }, text),
    h('input', {
      attrs: {
        id: `diff-${name}`,
        name,
        value: ctx.state[name] ?? '',
        pattern: '[0-9a-f]{40}',
        spellcheck: 'false',
        placeholder: '40-character commit SHA',
      },
    }),
  ];
  return h(
    'form',
    {
      class: 'compare',
      on: {
        submit: (event) => {
          event.preventDefault();
          const data = new FormData(event.target as HTMLFormElement);
          const value = (n: string) => String(data.get(n) ?? '').trim() || undefined;
          ctx.navigate({ from: value('from'), to: value('to') });
        },
      },
    },
    ...input('from', 'From (older)'),
    ...input('to', 'To (newer, default the tip)'),
    h('button', { attrs: { type: 'submit' } }, 'Compare'),
  );
}

/**
 * Which parameter a failed `changes()` is about; when `to` was given, a link that swaps the two (a `from`
 * newer than `to` is not below it, which a store may say as "not an ancestor" or "not in the section").
 */
function changesProblem(ctx: ViewContext, error: unknown, from: string, to: string): HTMLElement {
  const version = (error as { data?: { version?: string } }).data?.version;
  const param = version === to && version !== from ? 'to' : 'from';
  const said = versionProblem(ctx, param, error);
  if (param === 'from' && ctx.state.to !== undefined) {
    said.append(
      ' If "from" is the newer version: ',
      h('a', { attrs: { href: ctx.link({ from: to, to: from }) } }, 'compare the other way round'),
      '.',
    );
  }
  return said;
}

export const sectionDiffView: View = async (root, ctx) => {
  root.append(h('h1', { class: 'diff-title' }, 'Section diff'), versionsForm(ctx));
  const from = ctx.state.from;
  if (from === undefined) {
    root.append(
      h(
        'p',
        null,
        'Give "from", the older version to compare (a 40-character commit SHA); "to" is the tip unless given.',
      ),
    );
    return;
  }
  const to = ctx.state.to ?? ctx.version;
  const { ns, type } = ctx.state;
  let result: DocumentChangesResult;
  try {
    const scope = ns ? { namespace: ns, ...(type ? { type } : {}) } : {};
    // withDocuments: modified documents rebuilt from the compare's patches need no read for their field diffs.
    result = await ctx.client.changes({ from, to, ...scope, withDocuments: true });
  } catch (error) {
    root.append(changesProblem(ctx, error, from, to));
    return;
  }
  if (ctx.signal.aborted) return;
  const { added, modified, removed } = result;
  const scope = ns ? ` in ${ns}${type ? `/${type}` : ''}` : '';
  const summary = `${added.length} added, ${modified.length} modified, ${removed.length} removed between ${short(from)} and ${short(to)}${scope}.`;
  const body = h(
    'div',
    { class: 'section-diff' },
    h('p', { class: 'diff-summary', attrs: { role: 'status' } }, summary),
  );
  root.append(body);
  if (added.length + modified.length + removed.length === 0) return;
  const cache: PairCache = new Map();
  const grouped = groupedChanges(result, (g: TypeGroup) => {
    const mod = g.modified.length ? modifiedSection(ctx, g.modified, from, to, cache) : undefined;
    const parts = [
      g.added.length ? listSection(ctx, 'added', g.added, to) : undefined,
      mod?.section,
      g.removed.length ? listSection(ctx, 'removed', g.removed, from) : undefined,
    ];
    return { body: parts.filter((p) => p !== undefined), ready: mod?.ready ?? Promise.resolve() };
  });
  body.append(grouped.el);
  await grouped.ready;
};
