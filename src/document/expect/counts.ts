/**
 * `count`, `max-removed` and `max-changed`: what the write does to the number of the type's documents,
 * from one listing of its keys at the tip (keys and blob SHAs; no document is read) and the write's own
 * keys and blob SHAs. Percentages are of the type's documents BEFORE the write.
 */
import type { ExpectOp } from './fields.js';
import type { Tip } from './tip.js';
import type { Expectations, ExpectViolation } from './types.js';

export interface WriteCounts {
  /** Documents of the type at the tip. */
  before: number;
  /** After the write. */
  after: number;
  /** Documents the write deletes that existed. */
  removed: number;
  /** Documents the write puts that existed with other bytes. */
  changed: number;
  /** Documents the write puts that did not exist. */
  added: number;
}

/**
 * The write's effect on its type's count.
 *
 * @example
 * const c = await writeCounts(tip, { namespace: 'g', type: 'repo' }, ops, base.written);
 * c.removed; // 3
 */
export async function writeCounts(
  tip: Tip,
  t: { namespace: string; type: string },
  ops: readonly ExpectOp[],
  written: (key: string) => string | undefined,
): Promise<WriteCounts> {
  const before = await tip.keys(t);
  const c = { before: before.size, after: before.size, removed: 0, changed: 0, added: 0 };
  for (const op of ops) {
    const had = before.get(op.key);
    if (op.deleted) {
      if (had !== undefined) c.removed++;
    } else if (had === undefined) c.added++;
    // An unknown blob SHA (a store that does not report it) counts as changed: never under-counted.
    else if (had !== written(op.key)) c.changed++;
  }
  c.after = c.before - c.removed + c.added;
  return c;
}

/**
 * How many of `before` a limit allows: the number, or its percentage of `before`.
 *
 * @example
 * allowed('10%', 1000); // 100
 */
export function allowed(limit: number | `${number}%`, before: number): number {
  if (typeof limit === 'number') return limit;
  return (before * Number(limit.slice(0, -1))) / 100;
}

const pct = (n: number, of: number) => (of === 0 ? '' : ` (${Math.round((n / of) * 1000) / 10}%)`);

/**
 * The violations of `count`, `max-removed` and `max-changed` for counts `c`.
 *
 * @example
 * countViolations({ maxRemoved: '10%' }, { before: 100, after: 40, removed: 60, changed: 0, added: 0 });
 * // [{ expectation: 'max-removed', message: 'the write removes 60 of 100 documents (60%); max-removed allows 10% (10)' }]
 */
export function countViolations(e: Expectations, c: WriteCounts): ExpectViolation[] {
  const out: ExpectViolation[] = [];
  const limit = (expectation: string, n: number, verb: string, value: number | `${number}%` | undefined) => {
    if (value === undefined || n <= allowed(value, c.before)) return;
    const spelled = typeof value === 'number' ? String(value) : `${value} (${Math.floor(allowed(value, c.before))})`;
    out.push({
      expectation,
      message: `the write ${verb} ${n} of ${c.before} documents${pct(n, c.before)}; ${expectation} allows ${spelled}`,
    });
  };
  limit('max-removed', c.removed, 'removes', e.maxRemoved);
  limit('max-changed', c.changed, 'changes', e.maxChanged);
  const { min, max } = e.count ?? {};
  if (min !== undefined && c.after < min) {
    out.push({ expectation: 'count', message: `${c.after} document(s) of the type, fewer than count.min ${min}` });
  }
  if (max !== undefined && c.after > max) {
    out.push({ expectation: 'count', message: `${c.after} document(s) of the type, more than count.max ${max}` });
  }
  return out;
}
