/**
 * The table's facets panel (docs/viewer.md "Facets"): per indexed field its most frequent values over the
 * whole type with their counts, each value a link that adds its `where` clause to the URL (a history entry;
 * the value in force is marked). The counts come from the index (facets.ts): with a token they are read when
 * the table opens (one GraphQL request); without one, a button says what they cost (one request per field)
 * and reads them only when pressed, within the rate limit left — as does the whole run an index written
 * before value counts needs.
 */
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { cellText } from './cells.js';
import { type Facets, readFacets } from './facets.js';
import type { TableSource } from './source.js';

/** Facets read during this page's life, by repo, ref, version and type: a facet click reads nothing again. */
const read = new Map<string, Promise<Facets>>();

const keyOf = (ctx: ViewContext) =>
  JSON.stringify([ctx.state.repo, ctx.state.ref, ctx.version, ctx.state.ns, ctx.state.type]);

function load(ctx: ViewContext, source: TableSource): Promise<Facets> {
  const key = keyOf(ctx);
  let facets = read.get(key);
  if (!facets) {
    facets = readFacets({
      client: ctx.client,
      version: ctx.version,
      namespace: ctx.state.ns as string,
      type: ctx.state.type as string,
      fields: source.facetFields,
      beforeRunRead: (cost) => {
        if (ctx.hasToken()) return;
        const verdict = ctx.budget.check(
          cost,
          `Counting the values of ${ctx.state.ns}/${ctx.state.type} from its rows`,
        );
        if (!verdict.ok) throw new Error(verdict.message ?? `Counting needs about ${cost} requests`);
      },
    });
    read.set(key, facets);
    facets.catch(() => read.delete(key));
  }
  return facets;
}

/**
 * The panel, or null for a type without an index (its facets would read every document).
 *
 * @example
 * root.append(facetsPanel(ctx, source) ?? '');
 */
export function facetsPanel(ctx: ViewContext, source: TableSource): HTMLElement | null {
  if (source.mode !== 'index' || source.facetFields.length === 0) return null;
  const body = h('div', { class: 'vt-facets-body' });
  const panel = h(
    'section',
    { class: 'vt-facets', attrs: { 'aria-labelledby': 'vt-facets-title' } },
    h('h2', { attrs: { id: 'vt-facets-title' } }, 'Facets'),
    body,
  );
  const show = () => {
    body.replaceChildren(h('p', { class: 'vt-note' }, 'Counting the values of every indexed field…'));
    load(ctx, source).then(
      (facets) => {
        if (!ctx.signal.aborted) body.replaceChildren(...facetLists(ctx, facets));
      },
      (e: unknown) => {
        if (!ctx.signal.aborted)
          body.replaceChildren(h('p', { class: 'error', attrs: { role: 'alert' } }, (e as Error).message));
      },
    );
  };
  if (ctx.hasToken() || read.has(keyOf(ctx))) {
    show();
    return panel;
  }
  // One counts file per field (an index written before counts costs more: beforeRunRead asks again).
  const cost = source.facetFields.length;
  const button = h(
    'button',
    { attrs: { type: 'button', class: 'vt-facets-load' } },
    `Count values (about ${cost} request${cost === 1 ? '' : 's'})`,
  );
  button.addEventListener('click', () => {
    const verdict = ctx.budget.check(cost, `Counting the values of every field of ${ctx.state.ns}/${ctx.state.type}`);
    if (!verdict.ok) {
      body.replaceChildren(ctx.budget.warning(verdict));
      return;
    }
    show();
  });
  body.append(
    h(
      'p',
      { class: 'vt-note' },
      'The most frequent values of each indexed field over the whole type, each a filter. Counting reads the counts the index keeps (one request per field without a token).',
    ),
    button,
  );
  return panel;
}

/** One list per field: its top values, each a link adding its clause (or marking it when in force). */
function facetLists(ctx: ViewContext, facets: Facets): HTMLElement[] {
  return facets.fields.map((f) => {
    const more =
      f.moreThan !== undefined
        ? ` (more than ${f.moreThan.toLocaleString('en-US')} distinct values: no counts kept)`
        : (f.distinct ?? 0) > f.top.length
          ? ` (top ${f.top.length} of ${f.distinct} values)`
          : '';
    return h(
      'div',
      { class: 'vt-facet' },
      h('h3', null, f.field, h('span', { class: 'vt-facet-more' }, more)),
      h(
        'ul',
        { attrs: { 'aria-label': `Counts of ${f.field}` } },
        ...f.top.map((v) => {
          const label = v.value === undefined ? '(absent)' : `${cellText(v.value)}${v.cut ? '…' : ''}`;
          const text = `${label}${v.element ? ' (element)' : ''}`;
          const count = h('span', { class: 'vt-facet-count' }, ` ${v.count.toLocaleString('en-US')}`);
          if (v.clause === undefined) return h('li', null, text, count); // no clause names it exactly
          const inForce = ctx.state.where.includes(v.clause);
          const link = h(
            'a',
            {
              attrs: {
                href: ctx.link({ where: inForce ? ctx.state.where : [...ctx.state.where, v.clause] }),
                'data-clause': v.clause,
                ...(inForce ? { 'aria-current': 'true' } : {}),
              },
            },
            text,
          );
          return h('li', null, link, count);
        }),
      ),
    );
  });
}
