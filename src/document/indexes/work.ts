/**
 * Counts of the index work this process has done: manifests and parts parsed, rows decoded from a part and
 * rows serialized anew. Tests read them to assert that a write's index work follows the size of its change,
 * not of the type (a CPU time would be a wall-clock assert); the bench reports them beside its timings.
 * Plain counters: incrementing one costs nothing next to the JSON work it counts.
 */
export interface IndexWork {
  manifestsParsed: number;
  partsParsed: number;
  rowsDecoded: number;
  rowsEncoded: number;
}

/** The running totals (mutated by format.ts and rows.ts). */
export const indexWork: IndexWork = { manifestsParsed: 0, partsParsed: 0, rowsDecoded: 0, rowsEncoded: 0 };

/**
 * The work done while `fn` runs (async or not).
 *
 * @example
 * const { work } = await measureIndexWork(() => docs.put(doc)); // work.rowsDecoded, work.partsParsed, …
 */
export async function measureIndexWork<T>(fn: () => T | Promise<T>): Promise<{ value: T; work: IndexWork }> {
  const before = { ...indexWork };
  const value = await fn();
  const work = { ...indexWork };
  for (const k of Object.keys(work) as (keyof IndexWork)[]) work[k] -= before[k];
  return { value, work };
}
