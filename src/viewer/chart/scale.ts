/**
 * The chart's arithmetic, free of the DOM (unit-tested in Node): nice axis ticks, the evenly spaced sample
 * an anonymous visitor can afford, and reading a numeric field out of an untrusted envelope.
 */

import { formatLocal } from '../dates.js';

/**
 * About `count` round tick values covering [min, max] (steps of 1, 2 or 5 × 10^k — the classic "nice numbers"
 * of Heckbert, Graphics Gems 1990). A flat series gets one tick; NaN/Infinity none.
 *
 * @example
 * niceTicks(3, 97); // [0, 20, 40, 60, 80, 100]
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const [lo, hi] = min < max ? [min, max] : [max, min];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const start = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let v = start; v <= hi + step * 1e-9 || ticks.length < 2; v += step) {
    ticks.push(Number(v.toPrecision(12)));
    if (ticks.length > 50) break;
  }
  if ((ticks.at(-1) as number) < hi) ticks.push(Number(((ticks.at(-1) as number) + step).toPrecision(12)));
  return ticks;
}

/**
 * At most `n` items evenly spaced over `items`, the first and the last always among them, in order.
 *
 * @example
 * sampleEvenly([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4); // [0, 3, 6, 9]
 */
export function sampleEvenly<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  if (n <= 1) return items.length ? [items[0] as T] : [];
  const picked = new Set<number>();
  for (let i = 0; i < n; i++) picked.add(Math.round((i * (items.length - 1)) / (n - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => items[i] as T);
}

/**
 * The value at a dotted path (`data.stars`) of an envelope read from a section (untrusted): own properties
 * only, so `__proto__` or `constructor` in a path never reach outside the document. Undefined when absent.
 *
 * @example
 * fieldValue({ data: { stars: 3 } }, 'data.stars'); // 3
 */
export function fieldValue(doc: unknown, path: string): unknown {
  let at: unknown = doc;
  for (const seg of path.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, seg)) return undefined;
    at = (at as Record<string, unknown>)[seg];
  }
  return at;
}

/** The most requests an anonymous sampled chart may cost in all (the page's ref read included): issue 29. */
export const SAMPLE_BUDGET = 20;
/** Versions a sampled document chart reads: the budget less the ref read and the history request. */
export const SAMPLE_VERSIONS = SAMPLE_BUDGET - 2;

/**
 * Versions an anonymous sum/mean chart can read within {@link SAMPLE_BUDGET}, when each costs its manifest
 * and its `parts` index parts (one request each without GraphQL), after the `before` requests spent (by default
 * 3: the ref read, the commit listing and the tip's manifest). At least 2 (the newest and the oldest).
 *
 * @example
 * sampledFieldVersions(1); // 9: 1 ref + 1 commits + 1 tip manifest + 1 tip part + 8 × (manifest + part) = 20
 */
export function sampledFieldVersions(parts: number, before = 3): number {
  const p = Math.max(1, parts);
  return Math.max(2, 1 + Math.floor((SAMPLE_BUDGET - before - p) / (1 + p)));
}

/**
 * A number as the chart and table show it: integers as is, others to 4 significant digits.
 *
 * @example
 * formatValue(1234.5678); // '1,235'
 */
export function formatValue(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v.toLocaleString('en-US', { maximumSignificantDigits: 4 });
}

/**
 * A commit time as the axis and table show it (the visitor's local time, src/viewer/dates.ts): the day, or the
 * minute when `fine`.
 *
 * @example
 * formatTime(Date.UTC(2026, 0, 2, 3, 4), true); // '2026-01-02 04:04 CET' in Paris
 */
export function formatTime(ms: number, fine = false): string {
  if (!Number.isFinite(ms)) return '';
  return formatLocal(ms, fine ? 'minute' : 'day');
}
