/**
 * The chart's text alternative: every charted version in a table (oldest first), its value or why it has
 * none, each version a link to what it charts at that version. Untrusted text only as text nodes; links
 * only the viewer's own (`ctx.link`).
 */
import { zoneName } from '../dates.js';
import { h } from '../dom.js';
import type { ChartPoint } from './line-chart.js';
import { formatTime, formatValue } from './scale.js';

/**
 * A table of `points` with `caption`; `linkOf` gives each version's `?…` link (or undefined for none).
 *
 * @example
 * root.append(valuesTable(points, 'data.stars by version', (v) => ctx.link({ view: 'document', at: v })));
 */
export function valuesTable(
  points: readonly ChartPoint[],
  caption: string,
  valueHeader: string,
  linkOf: (version: string) => string | undefined,
): HTMLElement {
  const body = h('tbody');
  for (const p of points) {
    const href = linkOf(p.version);
    const version = h('code', { text: p.version.slice(0, 7) });
    body.append(
      h(
        'tr',
        { dataset: { version: p.version } },
        h('td', null, href ? h('a', { attrs: { href } }, version) : version),
        h('td', { text: Number.isFinite(p.time) ? formatTime(p.time, true) : '' }),
        h('td', {
          class: 'num',
          text: p.value === null ? '—' : formatValue(p.value),
          dataset: p.value === null ? {} : { value: String(p.value) },
        }),
        h('td', { text: p.note ?? '' }),
      ),
    );
  }
  const head = h(
    'tr',
    null,
    h('th', { attrs: { scope: 'col' } }, 'Version'),
    h('th', { attrs: { scope: 'col' } }, `Committed (${zoneName()})`),
    h('th', { attrs: { scope: 'col' } }, valueHeader),
    h('th', { attrs: { scope: 'col' } }, 'Note'),
  );
  const table = h('table', { class: 'chart-values' }, h('caption', { text: caption }), h('thead', null, head), body);
  return h('div', { class: 'chart-table', attrs: { role: 'region', 'aria-label': caption, tabindex: 0 } }, table);
}
