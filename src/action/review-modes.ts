/**
 * The review modes' entry (issue 39): the event payload is read first (review-event.ts: untrusted,
 * size-capped), then the run's tools are made — knowing the repository's GraphQL id from the payload when it
 * names the target repository, so the preview's compare-and-delete costs one mutation and no query — and
 * the mode runs: `review`, `review-publish` or `review-cleanup`.
 */
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { reviewCleanupMode } from './review-cleanup.js';
import { readReviewEvent } from './review-event.js';
import type { ReviewMode } from './review-inputs.js';
import { reviewMode } from './review-mode.js';
import { reviewPublishMode } from './review-publish-mode.js';

/**
 * Run a review mode; `toolsFor` makes the run's tools (run-action.ts `actionTools`) with the repository id.
 *
 * @example
 * return runReviewMode(inputs, context, (repositoryId) => actionTools(inputs, context, repositoryId));
 */
export async function runReviewMode(
  inputs: ActionInputs & { mode: ReviewMode },
  context: ActionContext,
  toolsFor: (repositoryId: string | undefined) => ActionTools,
): Promise<ActionResult> {
  const event = await readReviewEvent(context.event ?? {});
  const own = event.repository && event.repository.fullName.toLowerCase() === inputs.repository.toLowerCase();
  const tools = toolsFor(own ? event.repository?.nodeId : undefined);
  if (inputs.mode === 'review') return reviewMode(inputs, context, tools, event);
  if (inputs.mode === 'review-publish') return reviewPublishMode(inputs, context, tools, event);
  return reviewCleanupMode(inputs, context, tools, event);
}
