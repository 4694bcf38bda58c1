/**
 * `mode: review` up to the review's input (issue 39): the pull request (from the event or the API), the
 * dry run with its evaluation (modules refused under `pull_request_target`), the preview for a
 * same-repository pull request, and the documents with their data before and after — `ReviewInput`, what
 * the review builder takes (src/review). Nothing here moves the section.
 */
import { previewRefOf } from '../core/preview-ref.js';
import type { RunRefusal } from '../projection/run/index.js';
import type { ReviewInput } from '../review/types.js';
import type { ActionContext, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ReviewEvent } from './review-event.js';
import { type ReviewPull, reviewPull } from './review-pull.js';
import { reviewDocuments, reviewDryRun, reviewViolations, TARGET_REFUSAL, tryPreview } from './review-run.js';

/** A prepared review: its input, the pull request, and what the run cost so far. */
export interface PreparedReview {
  input: ReviewInput;
  pull: ReviewPull;
  /** The preview ref of the pull request (written or not). */
  previewRef: string | null;
  /** What the run's commit would meet on the tip (null: accepted), for the step's annotations. */
  refusal: RunRefusal | null;
}

/**
 * Everything `mode: review` computes before the review is built and published.
 *
 * @example
 * const { input, pull } = await prepareReview(inputs, context, tools, event);
 * const review = buildReview(input);
 */
export async function prepareReview(
  inputs: ActionInputs,
  context: ActionContext,
  tools: ActionTools,
  event: ReviewEvent,
): Promise<PreparedReview> {
  const pull = await reviewPull(inputs, event, tools.client, context.inputNames);
  const underTarget = event.name === 'pull_request_target';
  const run = await reviewDryRun(inputs, context, tools, underTarget ? TARGET_REFUSAL : undefined);
  const notes: string[] = [];
  if (underTarget) notes.push('Run under pull_request_target: no reducer or check module of the workspace was loaded.');
  let preview: ReviewInput['preview'] = null;
  if (pull.fork) {
    notes.push(
      'No preview: the pull request comes from a fork, whose token is read-only (contents: write is missing); the review was computed in memory.',
      'No comment and no check run from this run (pull-requests: write and checks: write are missing for a fork): mode: review-publish posts them from the review file in a workflow_run workflow.',
    );
  } else {
    const p = await tryPreview(tools.shardRefs, tools.ref, pull.number, run);
    preview = p.preview;
    if (p.note) notes.push(p.note);
  }
  const documents = await reviewDocuments(tools.store, run);
  const input: ReviewInput = {
    section: tools.ref,
    repository: inputs.repository,
    pullRequest: pull.number,
    headSha: pull.headSha,
    base: run.report.previousVersion,
    preview,
    ...(inputs.review?.viewerUrl ? { viewerUrl: inputs.review.viewerUrl } : {}),
    specFile: run.specFile,
    projections: run.projections,
    expectations: {
      declared: run.declared,
      violations: reviewViolations(run.planned.refusal),
      ...(run.planned.refusal ? { count: run.planned.refusal.count } : {}),
    },
    documents,
    notes,
  };
  tools.log(
    `review of pull request #${pull.number} (${pull.headSha.slice(0, 7)}${pull.fork ? ', from a fork' : ''}): ${run.report.keys.length} document(s) would change${run.planned.refusal ? `, ${run.planned.refusal.count} violation(s)` : ''}`,
  );
  return {
    input,
    pull,
    previewRef: tools.shardRefs && !pull.fork ? previewRefOf(tools.ref, pull.number) : null,
    refusal: run.planned.refusal,
  };
}
