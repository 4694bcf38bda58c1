/**
 * How a dry run's samples are printed (CLI, Action summary): the values are the user's own documents,
 * shown because the user asked, but each is cut so that one large field cannot flood a terminal or a
 * job summary.
 */
import { cut } from './apply.js';
import type { MigrationSample } from './migrate.js';

/** Longest string value shown inside a sample, and longest sample line. */
export const SAMPLE_VALUE_MAX = 80;
export const SAMPLE_LINE_MAX = 400;

/**
 * A copy of `v` with every string longer than `max` cut (saying how much was left out).
 *
 * @example
 * capValues({ a: 'x'.repeat(100) }, 10); // { a: 'xxxxxxxxx… (91 more)' }
 */
export function capValues(v: unknown, max = SAMPLE_VALUE_MAX): unknown {
  if (typeof v === 'string') return cut(v, max);
  if (Array.isArray(v)) return v.map((x) => capValues(x, max));
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, capValues(x, max)]));
  }
  return v;
}

/**
 * A sample with its values cut, for machine output.
 *
 * @example
 * cappedSample({ key: 'n/t/a.json', before: { a: 1 }, after: { b: 1 } });
 */
export function cappedSample(s: MigrationSample): MigrationSample {
  return { ...s, before: capValues(s.before), after: capValues(s.after) };
}

/**
 * A sample as three lines: the key (and where it moves), `- before`, `+ after`, each cut.
 *
 * @example
 * sampleLines({ key: 'n/t/a.json', before: { a: 1 }, after: { b: 1 } });
 * // ['n/t/a.json', '  - {"a":1}', '  + {"b":1}']
 */
export function sampleLines(s: MigrationSample): string[] {
  const line = (v: unknown) => cut(JSON.stringify(capValues(v)), SAMPLE_LINE_MAX);
  return [`${s.key}${s.movedTo ? ` -> ${s.movedTo}` : ''}`, `  - ${line(s.before)}`, `  + ${line(s.after)}`];
}
