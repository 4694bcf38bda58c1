/**
 * The job summary of a review: everything the comment and the check run cut — every kept document as a
 * row — within 1,000,000 bytes. GitHub drops a step summary over 1 MiB entirely (with an error annotation),
 * https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands#adding-a-job-summary
 */
import { MAX_ROWS } from './limits.js';
import type { Budget } from './markdown.js';
import { type LayoutStyle, layOut, moreRows, type PartName } from './render-layout.js';
import { documentRow, ROWS_HEADER } from './render-parts.js';
import type { Review } from './types.js';

/** The job summary's limit in UTF-8 bytes: under GitHub's 1 MiB, with room for the step's other lines. */
export const MAX_JOB_SUMMARY_BYTES = 1_000_000;
/** Strings are shown whole (the review keeps them at most 1,024 characters). */
const FULL = 1_024;
const n = (x: number) => x.toLocaleString('en-US');

/**
 * The job summary's Markdown.
 *
 * @example
 * await core.summary.addRaw(renderJobSummary(review)).write();
 */
export function renderJobSummary(review: Review): string {
  return jobSummaryWithin(review, MAX_JOB_SUMMARY_BYTES);
}

/**
 * The job summary within `max` bytes.
 *
 * @example
 * jobSummaryWithin(review, 500_000);
 */
export function jobSummaryWithin(review: Review, max: number): string {
  const style: LayoutStyle = {
    chars: FULL,
    caps: { totals: 200_000, violations: 150_000, fields: 50_000, notes: 50_000 },
    more: (x, part) => moreSentence(review, x, part),
    rest: (p) => documentTable(p, review),
  };
  return layOut(review, max, style);
}

/** Why `x` rows of a part are not listed: the review did not keep them, or the summary had no room. */
function moreSentence(review: Review, x: number, part: PartName): string {
  if (part === 'violations' && review.expectations.count > review.expectations.violations.length) {
    return `… and ${n(x)} more violation(s); the review keeps the first ${review.expectations.violations.length}.`;
  }
  return moreRows(x, part, ', not listed: the job summary stays under GitHub’s 1 MiB');
}

/** Every kept document as a row, then why the rest are not listed: the review's cap, or the size limit. */
function documentTable(p: Budget, review: Review): void {
  if (review.rowCount === 0) return;
  p.add('');
  p.add(`#### Documents (${n(review.rowCount)})`);
  p.table(
    ROWS_HEADER,
    review.rows.map((r) => documentRow(r, FULL)),
    review.rowCount,
    (x) => {
      const added = review.rowCount - x;
      if (added < review.rows.length) return moreSentence(review, x, 'documents');
      return `… and ${n(x)} more document(s), not listed: the review keeps the first ${n(Math.min(review.rows.length, MAX_ROWS))} in key order.`;
    },
  );
}
