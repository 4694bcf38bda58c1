/**
 * The Action's `mode: merge` (CLI `docdb project --mode merge`): the final job of a matrix run with
 * `shard-commit: merge` folds every shard ref of this run into the section in one commit and deletes the
 * shard refs (projection/run/merge-shards.ts); step outputs as a projection run's, and a job summary
 * listing the shards.
 */
import { InvalidConfig } from '../core/errors.js';
import { type MergeReport, mergeShards } from '../projection/run/merge-shards.js';
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { rateOutputs } from './metered-fetch.js';
import { runLabel, runTrailers } from './project-mode.js';
import { code, mdText } from './summary.js';

/**
 * Merge this run's `shards` shard refs into the section.
 *
 * @example
 * const { outputs } = await mergeMode(inputs, context, tools); // outputs.version: the merge commit
 */
export async function mergeMode(
  inputs: ActionInputs,
  context: ActionContext,
  tools: ActionTools,
): Promise<ActionResult> {
  if (!tools.shardRefs) {
    throw new InvalidConfig(
      'mode',
      'mode: merge reads and deletes shard refs through the GitHub API; it needs the API store',
    );
  }
  const { storeOn, deleteRefs } = tools.shardRefs;
  const report = await mergeShards({
    section: tools.store,
    shardStore: storeOn,
    count: inputs.shards ?? 0,
    run: runLabel(context),
    deleteRefs,
    message: inputs.commitMessage,
    trailers: runTrailers(context),
    log: tools.log,
  });
  const verification = report.changed && report.version ? tools.meter.verification.get(report.version) : undefined;
  const documents = (keys: readonly string[]) => keys.filter((k) => !k.startsWith('_docdb/')).length;
  const outputs: Record<string, string> = {
    version: report.version ?? '',
    'previous-version': report.previousVersion ?? '',
    changed: String(report.changed),
    written: String(documents(report.written)),
    deleted: String(documents(report.deleted)),
    unchanged: '0',
    keys: JSON.stringify(report.keys),
    document: '',
    verified: verification ? String(verification.verified) : report.changed ? 'false' : '',
    requests: String(tools.meter.requests),
    ...rateOutputs(tools.meter),
  };
  return { outputs, summary: mergeSummary(report, inputs), text: mergeText(report, inputs) };
}

/** The job summary: what landed, and one row per shard. */
function mergeSummary(report: MergeReport, inputs: ActionInputs): string {
  const lines = [`### docdb merge: ${code(report.ref)} in ${mdText(inputs.repository)}`, ''];
  lines.push(
    report.changed
      ? `Merged ${report.shards.length} shard(s) in one commit: ${code(report.version ?? '')} (${report.keys.length} document(s) changed).`
      : `Merged ${report.shards.length} shard(s): nothing changed, no commit.`,
    '',
    '| shard | ref | added | modified | removed |',
    '|---|---|---|---|---|',
  );
  for (const s of report.shards)
    lines.push(`| ${s.index} | ${code(s.ref)} | ${s.added} | ${s.modified} | ${s.removed} |`);
  return `${lines.join('\n')}\n`;
}

/** The same for a terminal (`docdb project --mode merge`). */
function mergeText(report: MergeReport, inputs: ActionInputs): string {
  const lines = [`docdb merge: ${report.ref} in ${inputs.repository}`];
  for (const s of report.shards)
    lines.push(`  shard ${s.index}  ${s.added} added, ${s.modified} modified, ${s.removed} removed`);
  lines.push(
    report.changed
      ? `new version ${report.version} (was ${report.previousVersion ?? 'none'}), ${report.keys.length} document(s) changed; shard refs deleted`
      : `nothing changed, no commit (version ${report.version ?? 'none'}); shard refs deleted`,
  );
  return `${lines.join('\n')}\n`;
}
