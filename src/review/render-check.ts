/**
 * The check run `docdb: <section>` on the pull request's head commit: its conclusion, a title, a summary of
 * at most 65,535 characters (GitHub's limit on `output.summary`) with the totals per type, and the
 * annotations on the spec lines whose projections broke an expectation (at most 50: GitHub takes 50 per request).
 */
import { MAX_ANNOTATIONS } from './limits.js';
import { Budget, cut, utf8Bytes } from './markdown.js';
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
  SHORT_CHARS,
  shortSection,
  TOTALS_HEADER,
  totalsRow,
  VIOLATIONS_HEADER,
  violationRow,
} from './render-parts.js';
import type { Review, ReviewAnnotation } from './types.js';

/**
 * `output.summary`'s limit, in UTF-8 bytes (so in characters too).
 * https://docs.github.com/rest/checks/runs#create-a-check-run ("Maximum length: 65535 characters").
 */
export const MAX_CHECK_SUMMARY_BYTES = 65_535;
/** A check run's name is shown in a narrow column; longer section names are cut. */
const NAME_CHARS = 100;
const PART_BYTES = { totals: 20_000, violations: 16_000, fields: 10_000, notes: 4_000 };
const MORE = (n: number, what: string) => `… and ${n.toLocaleString('en-US')} more ${what} in the job summary.`;

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
 * const check = renderCheckRun(review); // { name: 'docdb: documents', conclusion: 'neutral', title: '3 document(s) would change', … }
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

/** The summary within `max` bytes: totals per type, violations, field changes, preview, notes, then documents. */
export function checkSummary(review: Review, max: number): string {
  const b = new Budget(max);
  b.add(headline(review, SHORT_CHARS));
  b.add('');
  b.add(expectationLine(review));
  const tail = ['', footer(review)];
  const keep = tail.reduce((n, line) => n + utf8Bytes(line) + 1, 0);
  b.part(PART_BYTES.totals, keep, (p) => {
    if (review.totals.length === 0) return;
    p.add('');
    p.table(
      TOTALS_HEADER,
      review.totals.map((t) => totalsRow(t, SHORT_CHARS)),
      review.totals.length,
      (n) => MORE(n, 'type(s)'),
    );
  });
  b.part(PART_BYTES.violations, keep, (p) => {
    if (review.expectations.count === 0) return;
    p.add('');
    p.add('#### Expectations not met');
    const rows = review.expectations.violations.map((v) => violationRow(v, SHORT_CHARS));
    p.table(VIOLATIONS_HEADER, rows, review.expectations.count, (n) => MORE(n, 'violation(s)'));
  });
  b.part(PART_BYTES.fields, keep, (p) => {
    if (review.fieldChanges.length === 0) return;
    p.add('');
    p.add('#### Fields changed in the most documents');
    const rows = review.fieldChanges.map((f) => fieldRow(f, SHORT_CHARS));
    p.table(FIELDS_HEADER, rows, review.fieldChanges.length, (n) => MORE(n, 'field(s)'));
  });
  b.part(PART_BYTES.notes, keep, (p) => {
    const lines = previewLines(review, SHORT_CHARS);
    if (lines.length > 0) for (const line of ['', ...lines]) p.add(line);
    if (review.notes.length === 0) return;
    p.add('');
    p.table(
      ['Notes:'],
      review.notes.map((n) => noteLine(n, SHORT_CHARS)),
      review.notes.length,
      (n) => MORE(n, 'note(s)'),
    );
  });
  // Whatever room is left lists documents, in key order.
  b.part(max, keep, (p) => {
    if (review.rowCount === 0) return;
    p.add('');
    p.add('#### Documents');
    p.table(
      ROWS_HEADER,
      review.rows.map((r) => documentRow(r, SHORT_CHARS)),
      review.rowCount,
      (n) => MORE(n, 'document(s)'),
    );
  });
  for (const line of tail) b.add(line);
  return b.text();
}
