/**
 * The sticky pull-request comment: what the change would do to the section, in at most 60,000 characters
 * (GitHub refuses a comment over 65,536), the detail cut with a pointer to the check run and job summary.
 */

import { utf8Bytes } from './markdown.js';
import { reviewMarker } from './marker.js';
import { type LayoutStyle, layOut, moreRows } from './render-layout.js';
import { SHORT_CHARS } from './render-parts.js';
import type { Review } from './types.js';

/**
 * The comment's limit, in UTF-8 bytes (so in characters too): under GitHub's 65,536 with room to spare.
 * https://docs.github.com/rest/issues/comments#create-an-issue-comment answers 422 "body is too long".
 */
export const MAX_COMMENT_BYTES = 60_000;

const STYLE: LayoutStyle = {
  chars: SHORT_CHARS,
  // Together more than the limit: one long part cannot crowd out the others, and the budget keeps the whole.
  caps: { totals: 24_000, violations: 18_000, fields: 14_000, notes: 8_000 },
  more: (n, part) => moreRows(n, part, ' in the check run / job summary'),
};

/**
 * The review comment's Markdown: the marker first (the publisher finds the comment by it), then totals per
 * type, the expectations, the 10 largest field changes, the notes, the preview and the viewer link.
 *
 * @example
 * const body = renderComment(review); // '<!-- docdb-review: refs/docdb/documents -->\n### docdb: 3 document(s) would change …'
 */
export function renderComment(review: Review): string {
  const text = commentWithin(review, MAX_COMMENT_BYTES);
  // Cannot happen (every part is budgeted); should it, a short comment beats one GitHub refuses.
  return utf8Bytes(text) <= MAX_COMMENT_BYTES ? text : minimalComment(review);
}

/**
 * The comment within `max` bytes.
 *
 * @example
 * commentWithin(review, 20_000).length; // ≤ 20,000
 */
export function commentWithin(review: Review, max: number): string {
  return layOut(review, max, STYLE, [reviewMarker(review.section)]);
}

/** The marker and the headline only. */
function minimalComment(review: Review): string {
  return `${reviewMarker(review.section)}\n### docdb: ${review.rowCount.toLocaleString('en-US')} document(s) would change; the detail is in the check run / job summary.\n`;
}
