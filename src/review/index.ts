/**
 * The review of a pull request's data change (issue 39, docs/review.md): built from a dry run
 * (`buildReview`), rendered as the sticky comment, the check run and the job summary, and carried between
 * workflows as an untrusted file. Pure functions, no I/O; publishing is src/review/github/.
 */
export { buildReview, conclusionOf } from './build.js';
export { MAX_FILE_BYTES } from './limits.js';
export { escapeMarkdown } from './markdown.js';
export { reviewMarker } from './marker.js';
export { type CheckRunOutput, MAX_CHECK_SUMMARY_BYTES, renderCheckRun } from './render-check.js';
export { MAX_COMMENT_BYTES, renderComment } from './render-comment.js';
export { MAX_JOB_SUMMARY_BYTES, renderJobSummary } from './render-summary.js';
export { readReviewFile, writeReviewFile } from './review-file.js';
export type * from './types.js';
