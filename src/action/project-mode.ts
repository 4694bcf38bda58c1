/**
 * The Action's projection modes (`project`, `backfill`, `dry-run`): load the spec from the workspace, run
 * the projections over the run's Octokit and store, and turn the report into step outputs and the job
 * summary.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { InvalidConfig } from '../core/errors.js';
import { DEFAULT_REDUCER_TIMEOUT_SECONDS } from '../projection/reducers/index.js';
import {
  type QuarantineTarget,
  type RunMode,
  type RunOptions,
  type RunRefusal,
  type RunReport,
  runProjections,
} from '../projection/run/index.js';
import { tokenIdentity } from '../projection/sources/index.js';
import { isLoopbackHost, loadSpec, type Spec } from '../projection/spec/index.js';
import { compactSection } from '../retention/index.js';
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { type Meter, rateOutputs } from './metered-fetch.js';
import { refusalAnnotations, refusalOutputs, refusalText, renderRefusal } from './refusal-report.js';
import { prepareShardRef, type ShardTarget } from './shard-commit.js';
import { renderSummary, type SummaryInput } from './summary.js';

/**
 * Run the spec's projections and report them.
 *
 * @example
 * const { outputs, report } = await projectMode(inputs, 'project', context, { client: octokit, store, ref, meter, log });
 */
export async function projectMode(
  inputs: ActionInputs,
  mode: RunMode,
  context: ActionContext,
  tools: ActionTools,
): Promise<ActionResult> {
  const { store, meter, log } = tools;
  const { spec, specPath, workspace } = await loadActionSpec(inputs, context);
  const target =
    inputs.shardCommit === 'merge' && inputs.shard && mode !== 'dry-run'
      ? await prepareShardRef(inputs.shard, tools, runLabel(context), inputs.repository)
      : undefined;
  const quarantine = (inputs.quarantine ?? spec.quarantine ?? false) && mode !== 'dry-run' && !target;
  let report: RunReport;
  try {
    report = await runProjections({
      ...runOptions(inputs, mode, context, tools, { spec, specPath, workspace, target }),
      ...(quarantine ? { quarantine: quarantineTarget(tools, context) } : {}),
    });
  } catch (e) {
    const refusal = (e as { data?: { refusal?: RunRefusal } })?.data?.refusal;
    if (!refusal) throw e;
    return refusedResult(e as Error, refusal, spec.file, tools);
  }
  const result = { ...reportOf(report, inputs, context, meter), report };
  // The spec's `retention:` compacts after a run that wrote (not a dry run, not one shard of a fan-out).
  if (spec.retention && report.changed && mode !== 'dry-run' && !inputs.shard) {
    const loopback = isLoopbackHost(new URL(inputs.apiUrl).hostname);
    const c = await compactSection(store, spec.retention, loopback ? { pacing: false } : {});
    log(`retention: ${c.compacted ? `${c.kept} commit(s) kept, tip ${c.version}` : 'nothing to compact'}`);
    if (c.compacted) {
      // The run's commit was re-created on the compacted history: report the tip that exists.
      result.outputs = {
        ...result.outputs,
        version: c.version ?? '',
        kept: String(c.kept),
        requests: String(meter.requests),
      };
      result.summary += `\nRetention: history compacted to ${c.kept} commit(s); tip \`${c.version}\`.\n`;
    }
  }
  return result;
}

/**
 * The spec of the inputs, loaded from the workspace (relative paths resolve there).
 *
 * @example
 * const { spec, specPath, workspace } = await loadActionSpec(inputs, context);
 */
export async function loadActionSpec(
  inputs: ActionInputs,
  context: ActionContext,
): Promise<{ spec: Spec; specPath: string; workspace: string }> {
  const workspace = context.workspace ?? process.cwd();
  const specPath = isAbsolute(inputs.spec) ? inputs.spec : resolve(workspace, inputs.spec);
  // Messages name the spec as the user wrote it; reducer modules resolve against its real directory. Both
  // the spec and the reducer modules must be files of the workspace (the checked-out repository).
  const spec = await loadSpec(specPath, {
    defaultRepository: inputs.repository,
    displayPath: inputs.spec,
    workspace,
    ...(context.inputNames ? { inputNames: context.inputNames } : {}),
  });
  return { spec, specPath, workspace };
}

/**
 * The run's options, as the inputs, the context and the shard target say.
 *
 * @example
 * await runProjections({ ...runOptions(inputs, 'dry-run', context, tools, { spec, specPath, workspace, target: undefined }), evaluate: true });
 */
export function runOptions(
  inputs: ActionInputs,
  mode: RunMode,
  context: ActionContext,
  tools: ActionTools,
  {
    spec,
    specPath,
    workspace,
    target,
  }: { spec: Spec; specPath: string; workspace: string; target: ShardTarget | undefined },
): RunOptions {
  const { client, store, log } = tools;
  return {
    spec,
    client,
    store: target?.store ?? store,
    mode,
    only: inputs.projections,
    commitMessage: inputs.commitMessage,
    apiUrl: inputs.apiUrl,
    baseDir: resolve(specPath, '..'),
    log,
    workspace,
    tokenIdentity: tokenIdentity(inputs.token),
    minRateLimit: inputs.minRateLimit,
    reducerTimeoutMs: (inputs.reducerTimeout ?? DEFAULT_REDUCER_TIMEOUT_SECONDS) * 1000,
    trailers: [...runTrailers(context), ...(target?.trailers ?? [])],
    ...(target ? { receipt: target.receipt } : {}),
    ...(context.group
      ? { onProjection: { start: (name: string) => context.group?.start(name), end: () => context.group?.end() } }
      : {}),
    ...(inputs.shard ? { shard: inputs.shard } : {}),
    ...(context.inputNames ? { inputNames: context.inputNames } : {}),
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.env ? { env: context.env } : {}),
  };
}

/**
 * Where a refused run quarantines: a store on any ref of the repository (the API store; a local section has
 * none: refused before any request), under the run's id.
 */
function quarantineTarget(tools: ActionTools, context: ActionContext): QuarantineTarget {
  if (!tools.shardRefs) {
    throw new InvalidConfig(
      'quarantine',
      'quarantine writes refs/<root>/<section>.quarantine/<run> through the GitHub API; with a local git section, leave it off',
    );
  }
  const label = runLabel(context);
  const id = label === 'local' ? `local-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}` : label;
  return { id, storeOn: tools.shardRefs.storeOn };
}

/** A run whose commit a `schema:` or `expect:` refused: outputs, summary and annotations say why; the step fails. */
function refusedResult(e: Error, refusal: RunRefusal, specFile: string, tools: ActionTools): ActionResult {
  const tip = refusal.version ?? '';
  return {
    outputs: {
      version: tip,
      'previous-version': tip,
      changed: 'false',
      requests: String(tools.meter.requests),
      ...rateOutputs(tools.meter),
      ...refusalOutputs(refusal),
    },
    summary: renderRefusal(refusal, tools.ref),
    text: refusalText(refusal, tools.ref),
    failed: { message: e.message, annotations: refusalAnnotations(refusal, specFile) },
  };
}

/**
 * The run as its `Docdb-Run` trailer names it: `<run id>.<attempt>` on a runner, `local` elsewhere.
 *
 * @example
 * runLabel({ run: { id: 4711, attempt: 2 } }); // '4711.2'
 */
export function runLabel(context: ActionContext): string {
  return context.run?.id ? `${context.run.id}.${context.run.attempt || 1}` : 'local';
}

/**
 * `Docdb-Run` names the workflow run; the random `Docdb-Nonce` keeps two runs' commits from being identical.
 *
 * @example
 * runTrailers({ run: { id: 4711, attempt: 1 } }); // ['Docdb-Run: 4711.1', 'Docdb-Nonce: 3f…']
 */
export function runTrailers(context: ActionContext): string[] {
  return [`Docdb-Run: ${runLabel(context)}`, `Docdb-Nonce: ${randomBytes(8).toString('hex')}`];
}

/** Step outputs and job summary of a run. */
function reportOf(
  report: RunReport,
  inputs: ActionInputs,
  context: ActionContext,
  meter: Meter,
): { outputs: Record<string, string>; summary: string; summaryInput: SummaryInput } {
  const verification = report.changed && report.version ? meter.verification.get(report.version) : undefined;
  const docAdded = report.projections.reduce((n, p) => n + p.added.length + p.changed.length, 0);
  const docRemoved = report.projections.reduce((n, p) => n + p.removed.length, 0);
  const outputs: Record<string, string> = {
    version: report.version ?? '',
    'previous-version': report.previousVersion ?? '',
    changed: String(report.changed),
    written: String(docAdded),
    deleted: String(docRemoved),
    unchanged: String(report.unchanged),
    keys: JSON.stringify(report.keys),
    document: '',
    verified: verification ? String(verification.verified) : report.changed ? 'false' : '',
    requests: String(meter.requests),
    ...rateOutputs(meter),
    // Guarded writes (docs/quarantine.md): a run that got here passed its schemas and expectations.
    ok: 'true',
    violations: '[]',
    'violation-count': '0',
    'quarantine-ref': '',
    'quarantine-version': '',
  };
  const summaryInput: SummaryInput = {
    report,
    repository: inputs.repository,
    serverUrl: context.serverUrl ?? process.env.GITHUB_SERVER_URL ?? 'https://github.com',
    requests: meter.requests,
    rateLimit: meter.rateLimit,
    ...(verification ? { verification } : {}),
  };
  return { outputs, summary: renderSummary(summaryInput), summaryInput };
}
