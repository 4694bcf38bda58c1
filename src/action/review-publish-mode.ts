/**
 * `mode: review-publish` (issue 39), for a `workflow_run` workflow that follows a fork's review: posts the
 * comment and the check from the `review-file` with the base repository's token, running NO code from the
 * fork — no spec, no reducer, no projection; only the file, which is untrusted (readReviewFile: size cap,
 * schema, every count capped; the renderers escape every string). The file must be about the pull request
 * as it is now: its head commit must equal the pull request's (`GET pulls/N`) AND the workflow_run's
 * `head_sha`, else the step refuses naming the mismatch. GitHub Security Lab's two-workflow pattern.
 */
import { InvalidConfig } from '../core/errors.js';
import { publishReview } from '../review/github/index.js';
import { readReviewFile, renderCheckRun, renderComment } from '../review/index.js';
import type { Review } from '../review/types.js';
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ReviewEvent } from './review-event.js';
import { readReviewText } from './review-file.js';
import { logOutcome, publishTarget, reviewResult } from './review-mode.js';
import { getPull } from './review-pull.js';

/**
 * Publish the review a fork's run left in `review-file`.
 *
 * @example
 * const { outputs } = await reviewPublishMode(inputs, { event: { name: 'workflow_run', path } }, tools);
 */
export async function reviewPublishMode(
  inputs: ActionInputs,
  context: ActionContext,
  tools: ActionTools,
  event: ReviewEvent,
): Promise<ActionResult> {
  const text = await readReviewText(inputs.review?.reviewFile as string, context.workspace ?? process.cwd());
  const review = trusted(readReviewFile(text), inputs, tools.ref);
  await checkHead(review, inputs, event, tools);
  const rendered = { comment: renderComment(review), check: renderCheckRun(review) };
  const outcome = await publishReview(
    tools.client,
    publishTarget(inputs, review.pullRequest, review.headSha),
    review,
    rendered,
  );
  logOutcome(outcome, tools.log);
  return reviewResult(review, rendered.comment, outcome, tools, { previewRef: null });
}

/**
 * The file's review with what this workflow knows better: its section and repository must be this step's
 * (a file about another section is refused), the pull request the input's when given, and the viewer link
 * the workflow's own `viewer-url` (never the file's).
 */
function trusted(review: Review, inputs: ActionInputs, sectionRef: string): Review {
  if (review.repository.toLowerCase() !== inputs.repository.toLowerCase()) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": the review is about ${review.repository}, not ${inputs.repository}`,
    );
  }
  if (review.section !== sectionRef) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": the review is about the section ${review.section}, this step's is ${sectionRef} (set root and section as the review step did)`,
    );
  }
  const given = inputs.review?.pullRequest;
  if (given !== undefined && given !== review.pullRequest) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": the review is about pull request #${review.pullRequest}, the pull-request input says #${given}`,
    );
  }
  const { viewerUrl: _fromFile, ...rest } = review;
  return { ...rest, ...(inputs.review?.viewerUrl ? { viewerUrl: inputs.review.viewerUrl } : {}) };
}

/** The file's head commit = the pull request's now = the workflow_run's; else a refusal naming the mismatch. */
async function checkHead(review: Review, inputs: ActionInputs, event: ReviewEvent, tools: ActionTools): Promise<void> {
  const runSha = event.workflowRun?.headSha;
  if (!runSha) {
    throw new InvalidConfig(
      'review-file',
      `mode: review-publish runs on a workflow_run event, whose head_sha the review file must match${event.name ? ` (this is a ${event.name} event)` : ' (no event payload: GITHUB_EVENT_PATH)'}`,
    );
  }
  if (runSha !== review.headSha) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": the review is about commit ${review.headSha}, but the workflow run that made it ran on ${runSha}: refused`,
    );
  }
  const pull = await getPull(tools.client, inputs.repository, review.pullRequest);
  if (pull.headSha !== review.headSha) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": the review is about commit ${review.headSha}, but pull request #${review.pullRequest}'s head is now ${pull.headSha}: refused (a newer run will review it)`,
    );
  }
}
