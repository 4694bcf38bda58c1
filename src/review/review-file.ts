/**
 * The review file (`review-file` input): the review as JSON, written by `mode: review` in a fork's run and
 * read back by `mode: review-publish` with the base repository's token. Reading treats it as hostile: the
 * size is checked before parsing, then the schema (review-schema.ts), then what a schema cannot say (the
 * section is a section ref, the preview lies beside it, the viewer address is http(s), counts add up).
 * Every refusal is `InvalidConfig` naming the field as a JSON path and what is allowed — never the value.
 */
import { InvalidConfig } from '../core/errors.js';
import { assertNotReservedRef } from '../core/refname.js';
import { MAX_FILE_BYTES } from './limits.js';
import { cut, utf8Bytes } from './markdown.js';
import { reviewSchema } from './review-schema.js';
import type { Review } from './types.js';
import { httpUrl } from './viewer-link.js';

const num = (n: number) => n.toLocaleString('en-US');

/**
 * The review as the file's JSON, at most 8 MiB: a review with long keys in all of its 5,000 rows would be
 * larger, so rows are dropped from the end until it fits (`rowCount` still counts them all, and the job
 * summary says how many are not listed).
 *
 * @example
 * await writeFile(reviewFilePath, writeReviewFile(review));
 */
export function writeReviewFile(review: Review): string {
  const whole = JSON.stringify(review);
  if (utf8Bytes(whole) <= MAX_FILE_BYTES) return whole;
  // `[row,row,…]` in place of `[]`: each kept row adds its JSON and a comma, so the size is known row by row.
  let size = utf8Bytes(JSON.stringify({ ...review, rows: [] }));
  let kept = 0;
  for (const row of review.rows) {
    size += utf8Bytes(JSON.stringify(row)) + (kept > 0 ? 1 : 0);
    if (size > MAX_FILE_BYTES) break;
    kept++;
  }
  return JSON.stringify({ ...review, rows: review.rows.slice(0, kept) });
}

/**
 * The review in an untrusted file, validated; `InvalidConfig` (with `data.field`, the JSON path, and
 * `data.allowed`) for anything else.
 *
 * @example
 * const review = readReviewFile(await readFile(reviewFilePath, 'utf8'));
 */
export function readReviewFile(text: string): Review {
  // Size first: a forged file must not cost a parse of gigabytes. UTF-8 bytes are never fewer than UTF-16 units.
  if (text.length > MAX_FILE_BYTES || utf8Bytes(text) > MAX_FILE_BYTES) {
    throw refused('review-file', `is larger than ${num(MAX_FILE_BYTES)} bytes (8 MiB)`, 'at most 8 MiB of JSON');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw refused('review-file', 'is not JSON', 'the JSON that mode: review writes (review-file)');
  }
  const parsed = reviewSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as (typeof parsed.error.issues)[number];
    const more = parsed.error.issues.length - 1;
    const also = more > 0 ? ` (and ${more} more problem(s))` : '';
    if (issue.code === 'unrecognized_keys') {
      // Named, but cut and quoted: the name is the file's, not ours.
      const name = JSON.stringify(cut(String(issue.keys[0]), 40));
      throw refused(
        jsonPath(issue.path),
        `has a field this format does not have: ${name}${also}`,
        'the fields of review-file format 1',
      );
    }
    throw refused(jsonPath(issue.path), `${issue.message}${also}`, issue.message);
  }
  const review = parsed.data as Review;
  checkMeaning(review);
  return review;
}

/** What the schema cannot say. */
function checkMeaning(review: Review): void {
  try {
    assertNotReservedRef(review.section, 'section');
  } catch {
    throw refused(
      'section',
      'is not a section ref',
      'refs/<root>/<section> (git ref-name rules, outside .shards/.quarantine/.previews)',
    );
  }
  if (review.preview !== null && !review.preview.ref.startsWith(`${review.section}.previews/`)) {
    throw refused('preview.ref', 'is not a preview ref of the section', `a ref under ${review.section}.previews/`);
  }
  if (review.viewerUrl !== undefined && httpUrl(review.viewerUrl) === undefined) {
    throw refused(
      'viewerUrl',
      'is not an http(s) address',
      'an http: or https: URL without credentials, or no viewerUrl',
    );
  }
  if (review.rowCount < review.rows.length) {
    throw refused(
      'rowCount',
      'is less than the number of rows',
      'a count of every changed document (at least rows.length)',
    );
  }
  if (review.expectations.count < review.expectations.violations.length) {
    throw refused(
      'expectations.count',
      'is less than the number of violations',
      'at least expectations.violations.length',
    );
  }
}

/** `rows[3].key` from zod's path; `review-file` for the whole file. */
function jsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'review-file';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function refused(field: string, problem: string, allowed: string): InvalidConfig {
  const what = field === 'review-file' ? 'review file' : `review file: ${field}`;
  return new InvalidConfig(field, `${what} ${problem}; allowed: ${allowed}`, { allowed });
}
