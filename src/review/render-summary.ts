/**
 * The job summary of a review: everything the comment and the check run cut — every kept document as a
 * row — within 1,000,000 bytes. GitHub drops a step summary over 1 MiB entirely (with an error annotation),
 * https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands#step-isolation-and-limits
 */
import { MAX_ROWS } from './limits.js';
import { Budget, utf8Bytes } from './markdown.js';
import {
  documentRow,
  expectationLine,
  FIELDS_HEADER,
  fieldRow,
  footer,
  headline,
  noteLine,
  previewLines,
  ROWS_HEADER,
  TOTALS_HEADER,
  totalsRow,
  VIOLATIONS_HEADER,
  violationRow,
} from './render-parts.js';
import type { Review } from './types.js';

/** The job summary's limit in UTF-8 bytes: under GitHub's 1 MiB, with room for the step's other lines. */
export const MAX_JOB_SUMMARY_BYTES = 1_000_000;
/** Strings are shown whole (the review keeps them at most 1,024 characters). */
const FULL = 1_024;
const PART_BYTES = { totals: 200_000, violations: 150_000, fields: 50_000, notes: 50_000 };
const n = (x: number) => x.toLocaleString('en-US');

function* map<T>(items: readonly T[], f: (item: T) => string): Iterable<string> {
  for (const item of items) yield f(item);
}

/**
 * The job summary's Markdown.
 *
 * @example
 * await core.summary.addRaw(renderJobSummary(review)).write();
 */
export function renderJobSummary(review: Review): string {
  return jobSummaryWithin(review, MAX_JOB_SUMMARY_BYTES);
}

/** The job summary within `max` bytes. */
export function jobSummaryWithin(review: Review, max: number): string {
  const b = new Budget(max);
  b.add(headline(review, FULL));
  b.add('');
  b.add(expectationLine(review));
  const tail = ['', footer(review)];
  const keep = tail.reduce((sum, line) => sum + utf8Bytes(line) + 1, 0);
  b.part(PART_BYTES.totals, keep, (p) => {
    if (review.totals.length === 0) return;
    p.add('');
    p.table(
      TOTALS_HEADER,
      map(review.totals, (t) => totalsRow(t, FULL)),
      review.totals.length,
      (x) => `… and ${n(x)} more type(s), not listed (size).`,
    );
  });
  b.part(PART_BYTES.violations, keep, (p) => {
    const { violations, count } = review.expectations;
    if (count === 0) return;
    p.add('');
    p.add('#### Expectations not met');
    p.table(
      VIOLATIONS_HEADER,
      map(violations, (v) => violationRow(v, FULL)),
      count,
      (x) => `… and ${n(x)} more violation(s); the review keeps the first ${violations.length}.`,
    );
  });
  b.part(PART_BYTES.fields, keep, (p) => {
    if (review.fieldChanges.length === 0) return;
    p.add('');
    p.add('#### Fields changed in the most documents');
    p.table(
      FIELDS_HEADER,
      map(review.fieldChanges, (f) => fieldRow(f, FULL)),
      review.fieldChanges.length,
      (x) => `… and ${n(x)} more field(s) (size).`,
    );
  });
  b.part(PART_BYTES.notes, keep, (p) => {
    const lines = previewLines(review, FULL);
    if (lines.length > 0) for (const line of ['', ...lines]) p.add(line);
    if (review.notes.length === 0) return;
    p.add('');
    p.table(
      ['Notes:'],
      map(review.notes, (x) => noteLine(x, FULL)),
      review.notes.length,
      (x) => `… and ${n(x)} more note(s) (size).`,
    );
  });
  b.part(max, keep, (p) => documentTable(p, review));
  for (const line of tail) b.add(line);
  return b.text();
}

/** Every kept document as a row, then why the rest are not listed: the review's cap, or the size limit. */
function documentTable(p: Budget, review: Review): void {
  if (review.rowCount === 0) return;
  p.add('');
  p.add(`#### Documents (${n(review.rowCount)})`);
  p.table(
    ROWS_HEADER,
    map(review.rows, (r) => documentRow(r, FULL)),
    review.rowCount,
    (x) => {
      const added = review.rowCount - x;
      const why =
        added < review.rows.length
          ? 'the job summary stays under GitHub’s 1 MiB'
          : `the review keeps the first ${n(Math.min(review.rows.length, MAX_ROWS))} in key order`;
      return `… and ${n(x)} more document(s), not listed: ${why}.`;
    },
  );
}
