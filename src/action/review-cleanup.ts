/**
 * `mode: review-cleanup` (issue 39), for a workflow on `pull_request: closed`: deletes the pull request's
 * preview ref `refs/<root>/<section>.previews/pr-<N>` while it points where it was read (one compare-and-
 * delete); when there is none, nothing is sent but the read, and the step says so.
 */
import { InvalidConfig } from '../core/errors.js';
import { deletePreview } from '../projection/run/index.js';
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { rateOutputs } from './metered-fetch.js';
import type { ReviewEvent } from './review-event.js';
import { pullNumberOf } from './review-pull.js';

/**
 * Delete the preview of the pull request (the `pull-request` input, else the event's).
 *
 * @example
 * const { outputs } = await reviewCleanupMode(inputs, context, tools); // outputs.deleted === 'true'
 */
export async function reviewCleanupMode(
  inputs: ActionInputs,
  context: ActionContext,
  tools: ActionTools,
  event: ReviewEvent,
): Promise<ActionResult> {
  const number = pullNumberOf(inputs, event, context.inputNames);
  if (!tools.shardRefs) {
    throw new InvalidConfig(
      'mode',
      'mode: review-cleanup deletes a preview ref through the GitHub API; a local git section has none',
    );
  }
  const { ref, replaced } = await deletePreview(tools.shardRefs, tools.ref, number);
  const said = replaced
    ? `deleted the preview of pull request #${number}: ${ref} (was ${replaced})`
    : `no preview of pull request #${number} to delete (${ref} does not exist): nothing to do`;
  tools.log(said);
  return {
    outputs: {
      'preview-ref': ref,
      deleted: String(replaced !== null),
      'previous-version': replaced ?? '',
      requests: String(tools.meter.requests),
      ...rateOutputs(tools.meter),
    },
    summary: `### docdb review cleanup\n\n${replaced ? `Deleted the preview \`${ref}\` (was \`${replaced}\`).` : `No preview \`${ref}\`: nothing to do.`}\n`,
  };
}
