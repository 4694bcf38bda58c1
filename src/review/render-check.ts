/**
 * The check run `docdb: <section>` on the pull request's head commit: its conclusion, a title, a summary of
 * at most 65,535 characters (GitHub's limit on `output.summary`) with the totals per type, and the
 * annotations on the spec lines whose projections broke an expectation (at most 50: GitHub takes 50 per request).
 */
import { MAX_ANNOTATIONS } from './limits.js';
import { cut } from './markdown.js';
import { type LayoutStyle, layOut, moreRows, type PartName } from './render-layout.js';
import { documentRow, ROWS_HEADER, SHORT_CHARS, shortSection } from './render-parts.js';
import type { Review, ReviewAnnotation } from './types.js';

/**
 * `output.summary`'s limit, in UTF-8 bytes (so in characters too; GitHub counts bytes in practice,
 * github/rest-api-description#5399). https://docs.github.com/rest/checks/runs#create-a-check-run
 */
export const MAX_CHECK_SUMMARY_BYTES = 65_535;
/** A check run's name is shown in a narrow column; longer section names are cut. */
const NAME_CHARS = 100;

const more = (n: number, part: PartName) => moreRows(n, part, ' in the job summary');

export interface CheckRunOutput {
  name: string;
  title: string;
  conclusion: Review['conclusion'];
  summary: string;
  annotations: ReviewAnnotation[];
}

/**
 * The check run of a review.
 *
 * @example
 * const check = renderCheckRun(review); // { name: 'docdb: documents', conclusion: 'neutral', title: '3 document(s) would change …', … }
 */
export function renderCheckRun(review: Review): CheckRunOutput {
  return {
    name: cut(`docdb: ${shortSection(review.section)}`, NAME_CHARS),
    title: checkTitle(review),
    conclusion: review.conclusion,
    summary: checkSummary(review, MAX_CHECK_SUMMARY_BYTES),
    annotations: review.annotations.slice(0, MAX_ANNOTATIONS),
  };
}

function checkTitle(review: Review): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const violations = review.expectations.count;
  if (violations > 0)
    return `${n(violations)} expectation violation(s); ${n(review.rowCount)} document(s) would change`;
  if (!review.changed) return 'Nothing would change';
  const checked = review.expectations.declared ? 'expectations hold' : 'no expectations declared';
  return `${n(review.rowCount)} document(s) would change (${checked})`;
}

/**
 * The summary within `max` bytes: the shared parts, then as many documents as the room left takes.
 *
 * @example
 * checkSummary(review, 65_535);
 */
export function checkSummary(review: Review, max: number): string {
  const style: LayoutStyle = {
    chars: SHORT_CHARS,
    caps: { totals: 20_000, violations: 16_000, fields: 10_000, notes: 4_000 },
    more,
    rest: (p) => {
      if (review.rowCount === 0) return;
      p.add('');
      p.add('#### Documents');
      const rows = review.rows.map((r) => documentRow(r, SHORT_CHARS));
      p.table(ROWS_HEADER, rows, review.rowCount, (n) => more(n, 'documents'));
    },
  };
  return layOut(review, max, style);
}
