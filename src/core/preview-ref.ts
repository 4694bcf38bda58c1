/**
 * The name of a pull request's review preview, `refs/<root>/<section>.previews/pr-<N>` (issue 39,
 * docs/action.md "Review data changes"): where `mode: review` writes the would-be commit of a same-repository
 * pull request, replaced on every run, deleted by `mode: review-cleanup`. In the core beside the quarantine
 * ref (quarantine-ref.ts) so every entry point builds it one way.
 */
import { InvalidConfig } from './errors.js';
import { RESERVED_REF_SPACES } from './refname.js';

/** Suffix of the directory of a section's preview refs (one of the reserved spaces). */
export const PREVIEWS_SUFFIX = RESERVED_REF_SPACES[2].suffix;

/** GitHub numbers issues and pull requests from 1; far beyond any repository's count. */
const MAX_PULL_REQUEST = 2_147_483_647;

/**
 * True for a pull request number: a whole number from 1 (GitHub's ids fit a 32-bit signed integer).
 *
 * @example
 * isPullRequestNumber(42); // true
 * isPullRequestNumber(0); // false
 */
export function isPullRequestNumber(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_PULL_REQUEST;
}

/**
 * The ref the review preview of pull request `pr` is written to.
 *
 * @example
 * previewRefOf('refs/docdb/documents', 42); // 'refs/docdb/documents.previews/pr-42'
 */
export function previewRefOf(sectionRef: string, pr: number): string {
  if (!isPullRequestNumber(pr)) {
    throw new InvalidConfig('pull-request', `pull request ${JSON.stringify(pr)} is not a pull request number`, {
      allowed: 'a whole number from 1',
    });
  }
  return `${sectionRef}${PREVIEWS_SUFFIX}/pr-${pr}`;
}
