/**
 * Array helpers that never spread an unbounded array into a call: `target.push(...items)` and
 * `Math.max(...values)` pass every element as an argument, and past about 100,000 of them V8 throws
 * `RangeError: Maximum call stack size exceeded` (issue 37: an ordered query over a 440,000-row index
 * crashed that way). The house test `__tests__/house/spread.test.ts` refuses such spreads in src/.
 */

/**
 * Append every item of `items` to `target` (in place, in order) and return `target`.
 *
 * @example
 * const rows: number[] = [1];
 * appendAll(rows, [2, 3]); // [1, 2, 3]
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * The smallest and largest of `values` (`undefined` when there are none), by a loop.
 *
 * @example
 * extent([3, 1, 2]); // { min: 1, max: 3 }
 */
export function extent(values: Iterable<number>): { min: number; max: number } | undefined {
  let out: { min: number; max: number } | undefined;
  for (const v of values) {
    if (!out) out = { min: v, max: v };
    else if (v < out.min) out.min = v;
    else if (v > out.max) out.max = v;
  }
  return out;
}
