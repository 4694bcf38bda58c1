/**
 * The sticky pull-request comment: what the change would do to the section, in at most 60,000 characters
 * (GitHub refuses a comment over 65,536), the detail cut with a pointer to the check run and job summary.
 */
import { Budget, utf8Bytes } from './markdown.js';
import { reviewMarker } from './marker.js';
import {
  expectationLine,
  FIELDS_HEADER,
  fieldRow,
  footer,
  headline,
  noteLine,
  previewLines,
  SHORT_CHARS,
  TOTALS_HEADER,
  totalsRow,
  VIOLATIONS_HEADER,
  violationRow,
} from './render-parts.js';
import type { Review } from './types.js';

/**
 * The comment's limit, in UTF-8 bytes (so in characters too): under GitHub's 65,536 with room to spare.
 * https://docs.github.com/rest/issues/comments#create-an-issue-comment answers 422 "body is too long".
 */
export const MAX_COMMENT_BYTES = 60_000;
/**
 * What each part may take at most, so one long part cannot crowd out the others; together they exceed the
 * limit, which the comment's own budget then keeps (the tail's room is reserved before the parts).
 */
const PART_BYTES = { totals: 24_000, violations: 18_000, fields: 14_000, notes: 8_000 };
const MORE = (n: number, what: string) =>
  `… and ${n.toLocaleString('en-US')} more ${what} in the check run / job summary.`;

/**
 * The review comment's Markdown: the marker first (the publisher finds the comment by it), then totals per
 * type, the expectations, the 10 largest field changes, the preview and the viewer link, the notes.
 *
 * @example
 * const body = renderComment(review); // '<!-- docdb-review: refs/docdb/documents -->\n### docdb: 3 document(s) would change …'
 */
export function renderComment(review: Review): string {
  const text = commentWithin(review, MAX_COMMENT_BYTES);
  // Cannot happen (every part is budgeted); should it, a short comment beats one GitHub refuses.
  return utf8Bytes(text) <= MAX_COMMENT_BYTES ? text : minimalComment(review);
}

/** The comment within `max` bytes. */
export function commentWithin(review: Review, max: number): string {
  const b = new Budget(max);
  b.add(reviewMarker(review.section));
  b.add(headline(review, SHORT_CHARS));
  b.add('');
  if (!review.changed)
    b.add('Nothing would change: the projections produce exactly the documents the section holds.', 0);
  b.add(expectationLine(review));
  const tail = [...previewLines(review, SHORT_CHARS), '', footer(review)];
  const keep = tail.reduce((n, line) => n + utf8Bytes(line) + 1, 0) + 2;
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
    const { violations, count } = review.expectations;
    if (count === 0) return;
    p.add('');
    p.add('#### Expectations not met');
    p.table(
      VIOLATIONS_HEADER,
      violations.map((v) => violationRow(v, SHORT_CHARS)),
      count,
      (n) => MORE(n, 'violation(s)'),
    );
  });
  b.part(PART_BYTES.fields, keep, (p) => {
    if (review.fieldChanges.length === 0) return;
    p.add('');
    p.add('#### Fields changed in the most documents');
    p.table(
      FIELDS_HEADER,
      review.fieldChanges.map((f) => fieldRow(f, SHORT_CHARS)),
      review.fieldChanges.length,
      (n) => MORE(n, 'field(s)'),
    );
  });
  b.part(PART_BYTES.notes, keep, (p) => {
    if (review.notes.length === 0) return;
    p.add('');
    p.table(
      ['Notes:'],
      review.notes.map((n) => noteLine(n, SHORT_CHARS)),
      review.notes.length,
      (n) => MORE(n, 'note(s)'),
    );
  });
  if (tail.length > 2) b.add('');
  for (const line of tail) b.add(line);
  return b.text();
}

/** The marker and the headline only. */
function minimalComment(review: Review): string {
  return `${reviewMarker(review.section)}\n### docdb: ${review.rowCount} document(s) would change; the detail is in the check run / job summary.\n`;
}
