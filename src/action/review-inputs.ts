/**
 * The inputs of the review modes (issue 39, docs/action.md "Review data changes in pull requests"):
 * `pull-request` (default: the event's), `viewer-url` (the viewer the comment links to) and `review-file`
 * (where `mode: review` writes the review as JSON, and what `mode: review-publish` reads). Read and
 * checked with the other inputs, before any request; the event payload (review-event.ts) and the
 * workspace (the file's real path) are checked when the mode runs.
 */
import { isAbsolute, normalize } from 'node:path';
import { InvalidConfig } from '../core/errors.js';
import type { InputNames } from '../core/input-names.js';
import { isPullRequestNumber } from '../core/preview-ref.js';
import { FEED_MODES } from './feed-inputs.js';

/** The modes of a pull-request review. */
export const REVIEW_MODES = ['review', 'review-publish', 'review-cleanup'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

export interface ReviewInputs {
  /** `pull-request` (undefined: the event payload's). */
  pullRequest?: number;
  /** `viewer-url`: an http(s) address of the docdb viewer (undefined: no link). */
  viewerUrl?: string;
  /** `review-file`: a path relative to the workspace (undefined: none written). */
  reviewFile?: string;
}

/** The inputs only the review modes read. */
export const REVIEW_INPUTS = ['pull-request', 'viewer-url', 'review-file'] as const;

/** Which modes take each input. */
const TAKEN_BY: Record<(typeof REVIEW_INPUTS)[number], readonly string[]> = {
  'pull-request': REVIEW_MODES,
  // The feed's modes take it too: where the feed's entries link (feed-inputs.ts checks it there).
  'viewer-url': ['review', 'review-publish', ...FEED_MODES],
  'review-file': ['review', 'review-publish'],
};

/**
 * True for the review modes.
 *
 * @example
 * isReviewMode('review-publish'); // true
 */
export function isReviewMode(mode: string): mode is ReviewMode {
  return (REVIEW_MODES as readonly string[]).includes(mode);
}

/**
 * The review inputs: for a review mode, the checked values; for any other mode, undefined — and a review input
 * set there is `InvalidConfig` naming it (it would be silently ignored).
 *
 * @example
 * readReviewInputs((n) => ({ 'pull-request': '42', 'viewer-url': 'https://octo.github.io/data/' })[n] ?? '', 'review', ACTION_INPUT_NAMES);
 * // { pullRequest: 42, viewerUrl: 'https://octo.github.io/data/' }
 */
export function readReviewInputs(
  get: (name: string) => string,
  mode: string,
  names: InputNames,
): ReviewInputs | undefined {
  const bad = (field: string, message: string, allowed?: string): never => {
    throw new InvalidConfig(field, `${names.label(field)}: ${message}`, allowed ? { allowed } : {});
  };
  for (const n of REVIEW_INPUTS) {
    if (get(n) !== '' && !TAKEN_BY[n].includes(mode)) {
      bad(n, `only applies to mode: ${TAKEN_BY[n].join(', ')} (mode is ${mode})`);
    }
  }
  if (!isReviewMode(mode)) return undefined;
  // A review is about the whole change: every selected projection, in one job.
  if (get('shard') !== '') bad('shard', `does not apply to mode: ${mode} (a review runs the projections in one job)`);
  const out: ReviewInputs = {};
  const pr = get('pull-request');
  if (pr !== '') {
    if (!/^[1-9][0-9]{0,9}$/.test(pr) || !isPullRequestNumber(Number(pr))) {
      bad(
        'pull-request',
        `${JSON.stringify(pr)} is not a pull request number (a whole number from 1)`,
        'a whole number from 1',
      );
    }
    out.pullRequest = Number(pr);
  }
  const viewer = get('viewer-url');
  if (viewer !== '') {
    if (!isHttpUrl(viewer)) {
      bad(
        'viewer-url',
        `${JSON.stringify(viewer)} is not an http(s) address of the docdb viewer (e.g. https://octo.github.io/data/)`,
        'an http(s) URL',
      );
    }
    out.viewerUrl = viewer;
  }
  const file = get('review-file');
  if (file !== '') out.reviewFile = reviewFilePath(file, bad);
  if (mode === 'review-publish' && out.reviewFile === undefined) {
    bad(
      'review-file',
      'is required with mode: review-publish (the review file mode: review wrote, downloaded from its artifact)',
      'a relative path inside the workspace',
    );
  }
  return out;
}

/**
 * True for an absolute http: or https: URL with a host and no credentials in it.
 *
 * @example
 * isHttpUrl('https://octo.github.io/data/'); // true
 * isHttpUrl('javascript:alert(1)'); // false
 */
export function isHttpUrl(text: string): boolean {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return false;
  }
  return (u.protocol === 'https:' || u.protocol === 'http:') && u.host !== '' && !u.username && !u.password;
}

/** `review-file`: a relative path that stays inside the workspace (lexically; the real path is checked on use). */
function reviewFilePath(file: string, bad: (field: string, message: string, allowed?: string) => never): string {
  const n = normalize(file);
  if (
    isAbsolute(file) ||
    n === '..' ||
    n.startsWith('../') ||
    n.startsWith('..\\') ||
    n === '.' ||
    file.includes('\0')
  ) {
    bad(
      'review-file',
      `${JSON.stringify(file)} is not a file inside the workspace; give a relative path such as docdb-review.json`,
      'a relative path inside the workspace',
    );
  }
  return file;
}
