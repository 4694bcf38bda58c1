/**
 * How the retention benchmark gets each figure (bench/retention.ts): measured at full size when the history
 * is small enough for the machine, otherwise measured at two shorter years and extrapolated linearly to the
 * full year. Pure: decides from the model's expected blob counts, runs nothing.
 */
import type { Policy } from './retention-model.js';

/** Hours in the simulated year. */
export const YEAR = 8760;
/** Sample years are whole days (whole weeks for weekly thinning), so thinning cuts at period boundaries. */
const DAY = 24;

/**
 * Blobs a kept history writes (its document versions), expected under the model: every document in the
 * first kept state, then for each kept commit the documents changed at least once since the previous one
 * (each run changes a fraction `churn` of them, independently).
 *
 * @example
 * expectedBlobs(10_000, 0.01, [0, 1, 2]); // 10,000 + 2 × 100
 */
export function expectedBlobs(docs: number, churn: number, kept: readonly number[]): number {
  let blobs = kept.length > 0 ? docs : 0;
  for (let j = 1; j < kept.length; j++) {
    blobs += docs * (1 - (1 - churn) ** ((kept[j] as number) - (kept[j - 1] as number)));
  }
  return Math.round(blobs);
}

/** How one (documents, churn, policy) figure is obtained. */
export type Plan =
  | { method: 'measured'; years: [number] }
  | { method: 'extrapolated'; years: [number, number] }
  | { method: 'too-large'; years: [] };

/** The shortest sample year: a week of hourly runs, so a sample is more than its first commit. */
const MIN_SAMPLE = 168;

/**
 * Measure at `year` when that history's expected blobs are at most `maxBlobs`; else at two shorter years,
 * y and 2y, y the shortest that holds a week, the policy's whole hourly window and two thinned commits
 * (whole days; whole weeks for weekly thinning), when 2y fits; else too large for this machine.
 * Short samples keep the run affordable; `--check` measures how far such an extrapolation lands.
 *
 * @example
 * planFor(100_000, 0.01, POLICIES[0], 8760, 1_000_000); // { method: 'extrapolated', years: [ 168, 336 ] }
 */
export function planFor(docs: number, churn: number, policy: Policy, year: number, maxBlobs: number): Plan {
  if (expectedBlobs(docs, churn, policy.keep(year)) <= maxBlobs) return { method: 'measured', years: [year] };
  const step = Math.max(DAY, policy.period);
  const y = Math.ceil(Math.max(MIN_SAMPLE, policy.window + 2 * policy.period) / step) * step;
  if (2 * y < year && expectedBlobs(docs, churn, policy.keep(2 * y)) <= maxBlobs) {
    return { method: 'extrapolated', years: [y, 2 * y] };
  }
  return { method: 'too-large', years: [] };
}

/**
 * The size at the full year from two samples: the straight line through (y1, s1) and (y2, s2).
 *
 * @example
 * extrapolate([168, 1_168], [336, 1_336], 8760); // 9,760: 1,000 to start with, 1 more per hour
 */
export function extrapolate(a: [number, number], b: [number, number], year: number): number {
  const slope = (b[1] - a[1]) / (b[0] - a[0]);
  return b[1] + slope * (year - b[0]);
}
