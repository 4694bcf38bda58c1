/**
 * `mode: review` (issue 39; docs/action.md "Review data changes in pull requests"): the review of a pull
 * request's data change — prepared without moving the section (review-prepare.ts), built and rendered by
 * src/review, published on the pull request (one sticky comment, a check run or, for a personal token, a
 * commit status) unless the pull request comes from a fork, and always given to the job summary, the
 * `review` output and the `review-file`. A missing permission is a note, never a failure; the step fails
 * only when an expectation fails (conclusion `failure`), as a refused run does.
 */

import { inertText } from '../core/terminal-text.js';
import { publishReview } from '../review/github/index.js';
import { buildReview, renderCheckRun, renderComment, renderJobSummary, writeReviewFile } from '../review/index.js';
import type { PublishOutcome, Review } from '../review/types.js';
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { rateOutputs } from './metered-fetch.js';
import { refusalAnnotations } from './refusal-report.js';
import type { ReviewEvent } from './review-event.js';
import { writeReviewTo } from './review-file.js';
import { prepareReview } from './review-prepare.js';

/**
 * Review the pull request's data change.
 *
 * @example
 * const { outputs } = await reviewMode(inputs, { event: { name: 'pull_request', path: process.env.GITHUB_EVENT_PATH } }, tools);
 * outputs.conclusion; // 'neutral'
 */
export async function reviewMode(
  inputs: ActionInputs,
  context: ActionContext,
  tools: ActionTools,
  event: ReviewEvent,
): Promise<ActionResult> {
  const prepared = await prepareReview(inputs, context, tools, event);
  const review = buildReview(prepared.input);
  const rendered = { comment: renderComment(review), check: renderCheckRun(review) };
  const workspace = context.workspace ?? process.cwd();
  const file = inputs.review?.reviewFile
    ? await writeReviewTo(inputs.review.reviewFile, writeReviewFile(review), workspace)
    : undefined;
  const outcome = prepared.pull.fork
    ? undefined
    : await publishReview(
        tools.client,
        publishTarget(inputs, prepared.pull.number, prepared.pull.headSha),
        review,
        rendered,
      );
  if (outcome) logOutcome(outcome, tools.log);
  const result = reviewResult(review, rendered.comment, outcome, tools, { file, previewRef: prepared.previewRef });
  if (review.conclusion === 'failure' && prepared.refusal) {
    result.failed = {
      message: `docdb review: ${prepared.refusal.count} expectation violation(s) in pull request #${review.pullRequest}: ${prepared.refusal.message}`,
      annotations: refusalAnnotations(prepared.refusal, prepared.input.specFile),
    };
  }
  return result;
}

/**
 * Where a review is published: the base repository, the pull request and its head commit; a GitHub App
 * installation token (`GITHUB_TOKEN` starts `ghs_`) creates check runs, any other token gets a commit status.
 *
 * @example
 * publishTarget(inputs, 42, headSha); // { owner: 'octo', repo: 'data', pullRequest: 42, headSha, tokenKind: 'installation' }
 */
export function publishTarget(inputs: ActionInputs, pullRequest: number, headSha: string) {
  const [owner, repo] = inputs.repository.split('/') as [string, string];
  const tokenKind: 'installation' | 'personal' = inputs.token.startsWith('ghs_') ? 'installation' : 'personal';
  return { owner, repo, pullRequest, headSha, tokenKind };
}

/** Log what publishing did, and each permission that was missing (a note, not a failure). */
export function logOutcome(outcome: PublishOutcome, log: (line: string) => void): void {
  log(`review comment: ${outcome.comment.action}${outcome.comment.url ? ` (${outcome.comment.url})` : ''}`);
  log(`review check: ${outcome.check.action}${outcome.check.url ? ` (${outcome.check.url})` : ''}`);
  for (const m of outcome.missing) log(`warning: the token lacks ${m}: that part of the review was not published`);
}

/**
 * Outputs and job summary of a review (mode review and review-publish).
 *
 * @example
 * const { outputs, summary } = reviewResult(review, comment, outcome, tools, { previewRef: null });
 */
export function reviewResult(
  review: Review,
  comment: string,
  outcome: PublishOutcome | undefined,
  tools: ActionTools,
  extra: { file?: string | undefined; previewRef: string | null },
): ActionResult {
  const missing = outcome?.missing ?? [];
  const note = missing.length
    ? `\n> The token lacks ${missing.join(', ')}: that part of the review was not published (add it to the workflow's permissions:).\n`
    : '';
  return {
    outputs: {
      review: comment,
      conclusion: review.conclusion,
      changed: String(review.changed),
      version: review.preview?.version ?? '',
      'preview-ref': review.preview?.ref ?? extra.previewRef ?? '',
      'previous-version': review.base ?? '',
      'review-file': extra.file ?? '',
      'violation-count': String(review.expectations.count),
      'comment-url': outcome?.comment.url ?? '',
      'check-url': outcome?.check.url ?? '',
      missing: missing.join(', '),
      requests: String(tools.meter.requests),
      ...rateOutputs(tools.meter),
    },
    summary: renderJobSummary(review) + note,
    text: reviewText(review, outcome, missing),
  };
}

/** The review for a terminal (`docdb project --mode review`): counts, conclusion, where it went; inert text. */
function reviewText(review: Review, outcome: PublishOutcome | undefined, missing: readonly string[]): string {
  const lines = [
    `docdb review: pull request #${review.pullRequest} against ${review.section} (tip ${review.base?.slice(0, 7) ?? 'none'}): ${review.conclusion}`,
    ...review.totals.map(
      (t) => `  ${t.namespace}/${t.type}  ${t.added} added, ${t.modified} modified, ${t.removed} removed`,
    ),
    review.changed ? `${review.rowCount} document(s) would change` : 'nothing would change',
    `expectations: ${review.expectations.declared ? `${review.expectations.count} violation(s)` : 'none declared'}`,
    review.preview ? `preview ${review.preview.ref} at ${review.preview.version}` : 'no preview',
    ...(outcome ? [`comment: ${outcome.comment.action}`, `check: ${outcome.check.action}`] : []),
    ...(missing.length ? [`the token lacks ${missing.join(', ')}: that part was not published`] : []),
  ];
  return inertText(`${lines.join('\n')}\n`);
}
