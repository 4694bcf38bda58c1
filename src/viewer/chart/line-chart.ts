/**
 * A hand-written SVG line chart (no library: a few hundred lines beat any charting dependency's weight):
 * axes with nice ticks, one line broken at gaps, a point per value with a `<title>` tooltip. Keyboard:
 * the chart is one tab stop; ←/→ move between points, Home/End jump to the first/last, and the point's
 * value is read out in a live region (WAI-ARIA APG "roving" pattern, https://www.w3.org/WAI/ARIA/apg/).
 * Its text alternative is the values table next to it (values-table.ts); everything shown is text nodes.
 */

import { h } from '../dom.js';
import { formatTime, formatValue, niceTicks } from './scale.js';

/** One version on the chart: null `value` is a gap (the line breaks there). */
export interface ChartPoint {
  version: string;
  /** Commit time, epoch ms (NaN when unknown: the points are then spaced evenly). */
  time: number;
  value: number | null;
  /** Why there is no value (shown in the tooltip and the table). */
  note?: string;
}

const SVG = 'http://www.w3.org/2000/svg';
const W = 640;
const H = 280;
const PAD = { left: 56, right: 16, top: 32, bottom: 40 };
/**
 * A tick label's width per character at the ticks' 13 px (40-chart.css), rounded up: digits and commas of
 * system fonts are narrower. Over-estimating only widens the margin.
 */
const TICK_CHAR_WIDTH = 8;

/**
 * How far the y ticks' labels reach left of the SVG's own edge, so the viewBox can start that much further
 * left: "130,000" (about 56 px) does not fit the 50 px left of the axis (issue 40 item 13).
 */
function tickOverhang(ticks: readonly number[]): number {
  const widest = ticks.reduce((most, t) => Math.max(most, formatValue(t).length), 0) * TICK_CHAR_WIDTH;
  return Math.max(0, Math.ceil(widest - (PAD.left - 6) + 4));
}
/** Charts drawn so far: each gets its own element ids. */
let charts = 0;

function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

/**
 * The smallest and largest of `values` by a loop (the viewer imports only docdb/browser, so not core's
 * helper): `Math.min(...values)` throws a RangeError past ~100,000 points.
 */
function extent(values: readonly number[]): { min: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  let min = values[0]!;
  let max = min;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** Where each point goes: by time when every point has one, else evenly by position. */
function xPositions(points: readonly ChartPoint[]): number[] {
  const times = points.map((p) => p.time);
  // extent, not Math.min(...times): a long series has more points than a call takes arguments.
  const range = extent(times);
  const byTime = times.every(Number.isFinite) && range !== undefined && range.min < range.max;
  const lo = byTime ? range.min : 0;
  const span = byTime ? range.max - lo : Math.max(1, points.length - 1);
  const plot = W - PAD.left - PAD.right;
  return points.map(
    (p, i) => PAD.left + (points.length === 1 ? plot / 2 : (((byTime ? p.time : i) - lo) / span) * plot),
  );
}

/** The line as path segments, broken where a value is missing. */
function linePath(xs: readonly number[], ys: readonly (number | null)[]): string {
  let d = '';
  let pen = false;
  ys.forEach((y, i) => {
    if (y === null) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${(xs[i] as number).toFixed(1)},${y.toFixed(1)}`;
    pen = true;
  });
  return d;
}

/**
 * A chart of `points` (oldest first), titled `title`, its y axis labelled `yLabel`.
 *
 * @example
 * root.append(lineChart(points, { title: 'data.stars of github/repo octo/hello', yLabel: 'data.stars' }));
 */
export function lineChart(points: readonly ChartPoint[], opts: { title: string; yLabel: string }): HTMLElement {
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  const range = extent(values);
  const ticks = range ? niceTicks(range.min, range.max) : [0, 1];
  const lo = ticks[0] ?? 0;
  const hi = ticks.at(-1) ?? 1;
  const plotH = H - PAD.top - PAD.bottom;
  const yOf = (v: number) => PAD.top + (hi === lo ? plotH / 2 : (1 - (v - lo) / (hi - lo)) * plotH);
  const xs = xPositions(points);
  const ys = points.map((p) => (p.value === null ? null : yOf(p.value)));
  const titleId = `chart-title-${++charts}`;
  const svg = s('svg', {
    viewBox: `${-tickOverhang(ticks)} 0 ${W + tickOverhang(ticks)} ${H}`,
    class: 'line-chart',
    role: 'img',
    tabindex: 0,
    'aria-labelledby': titleId,
    'aria-describedby': `${titleId}-hint`,
  });
  svg.append(s('title', { id: titleId }, opts.title), ...axes(ticks, yOf, points, xs, opts.yLabel));
  svg.append(s('path', { d: linePath(xs, ys), class: 'line', fill: 'none' }));
  const dots = points.map((p, i) => pointMark(p, xs[i] as number, ys[i] ?? null, opts.yLabel));
  svg.append(...dots);
  const readout = h('p', { class: 'chart-readout', attrs: { 'aria-live': 'polite' } });
  const hint = h(
    'p',
    { class: 'chart-hint', attrs: { id: `${titleId}-hint` } },
    'Focus the chart, then use ← and → (Home, End) to read each version; the table below lists every value.',
  );
  keyboard(svg, points, dots, readout, opts.yLabel);
  return h('figure', { class: 'chart' }, svg, readout, hint);
}

function axes(
  ticks: readonly number[],
  yOf: (v: number) => number,
  points: readonly ChartPoint[],
  xs: readonly number[],
  yLabel: string,
): SVGElement[] {
  const out: SVGElement[] = [];
  for (const t of ticks) {
    const y = yOf(t);
    out.push(s('line', { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y, class: 'grid' }));
    out.push(s('text', { x: PAD.left - 6, y: y + 4, 'text-anchor': 'end', class: 'tick' }, formatValue(t)));
  }
  const bottom = H - PAD.bottom;
  out.push(s('line', { x1: PAD.left, x2: W - PAD.right, y1: bottom, y2: bottom, class: 'axis' }));
  const times = points.map((p) => p.time).filter(Number.isFinite);
  const range = extent(times);
  const fine = times.length > 1 && range !== undefined && range.max - range.min < 3 * 86_400_000;
  const labelled = points.length <= 1 ? [0] : [0, Math.floor((points.length - 1) / 2), points.length - 1];
  for (const i of new Set(labelled)) {
    const p = points[i];
    if (!p) continue;
    const anchor = i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle';
    const label = Number.isFinite(p.time) ? formatTime(p.time, fine) : p.version.slice(0, 7);
    out.push(s('text', { x: xs[i] as number, y: bottom + 18, 'text-anchor': anchor, class: 'tick' }, label));
  }
  out.push(s('text', { x: 8, y: 18, class: 'axis-label' }, yLabel));
  return out;
}

/** A point: a dot with a tooltip, or a small mark on the axis for a gap. */
function pointMark(p: ChartPoint, x: number, y: number | null, yLabel: string): SVGElement {
  const when = Number.isFinite(p.time) ? formatTime(p.time, true) : '';
  const text = `${when} ${p.version.slice(0, 7)}: ${p.value === null ? `no value (${p.note ?? 'gap'})` : `${yLabel} = ${formatValue(p.value)}`}`;
  const mark =
    y === null
      ? s('rect', { x: x - 3, y: H - PAD.bottom - 3, width: 6, height: 6, class: 'gap' })
      : s('circle', { cx: x, cy: y, r: 4, class: 'dot' });
  mark.setAttribute('data-version', p.version);
  mark.append(s('title', {}, text.trim()));
  return mark;
}

/** ←/→/Home/End move the highlighted point and read its value out. */
function keyboard(
  svg: SVGElement,
  points: readonly ChartPoint[],
  dots: readonly SVGElement[],
  readout: HTMLElement,
  yLabel: string,
): void {
  let at = -1;
  const show = (i: number) => {
    dots[at]?.classList.remove('current');
    at = Math.max(0, Math.min(points.length - 1, i));
    dots[at]?.classList.add('current');
    const p = points[at] as ChartPoint;
    const value = p.value === null ? `no value (${p.note ?? 'gap'})` : formatValue(p.value);
    const when = Number.isFinite(p.time) ? `${formatTime(p.time, true)} · ` : '';
    readout.textContent = `${at + 1} of ${points.length}: ${when}${p.version.slice(0, 7)} · ${yLabel} ${value}`;
  };
  svg.addEventListener('keydown', (event) => {
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: points.length - 1 };
    const to = moves[event.key];
    if (to === undefined || points.length === 0) return;
    event.preventDefault();
    show(at < 0 && event.key.startsWith('Arrow') ? (event.key === 'ArrowLeft' ? points.length - 1 : 0) : to);
  });
  svg.addEventListener('focus', () => {
    if (at < 0 && points.length) show(points.length - 1);
  });
}
