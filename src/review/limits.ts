/**
 * The review's limits: what `buildReview` keeps, and what `readReviewFile` accepts from an untrusted file.
 * ONE list, so a review this code builds always reads back (review-file.test.ts round-trips the largest).
 */

/** Changed documents kept as rows (in key order); `rowCount` counts them all. */
export const MAX_ROWS = 5_000;
/** Changed fields named per row. */
export const MAX_ROW_FIELDS = 10;
/** Fields ranked by how many documents changed them. */
export const MAX_FIELD_CHANGES = 10;
/** Violations kept (the first ones); `expectations.count` counts them all. */
export const MAX_VIOLATIONS = 50;
/** Check-run annotations (GitHub takes at most 50 per request). */
export const MAX_ANNOTATIONS = 50;
/** Sentences for the reader. */
export const MAX_NOTES = 20;
/** Document types in the totals. */
export const MAX_TYPES = 1_000;
/** Any string of the review. */
export const MAX_STRING = 1_000;
/** A document key: a key's own limit (core/keys.ts MAX_KEY_BYTES, ASCII keys are that many characters). */
export const MAX_KEY = 1_024;
/** Keys an annotation names. */
export const ANNOTATION_KEYS = 5;
/**
 * Distinct (type, field) pairs counted while the documents stream by. Data with keys of its own (a map of
 * ids) would otherwise grow the count without bound; beyond this many, new fields are not ranked (a note
 * says how many).
 */
export const MAX_TRACKED_FIELDS = 10_000;
/** GitHub's limit on an annotation's title. */
export const ANNOTATION_TITLE_CHARS = 255;
/** The review file's size, checked before it is parsed. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;
