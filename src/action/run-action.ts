/**
 * The Action's work, independent of `@actions/core` so it can run in-process (tests, `docdb demo`
 * fallback) and from `main.ts`: inputs → Octokit + RemoteApiRefStore → projections or a read →
 * step outputs + a Markdown job summary.
 */
import { MemoryCacheBackend } from '../cache/backend.js';
import { InvalidVersion } from '../core/errors.js';
import { sectionRef } from '../core/refname.js';
import type { RefStore } from '../core/refstore.js';
import { resolveVersion } from '../core/resolve-version.js';
import { isLoopbackHost } from '../projection/spec/index.js';
import { type RefDeletion, RemoteApiRefStore } from '../stores/remote-api/index.js';
import { nodeArchiveReader } from '../stores/remote-api/node-archive.js';
import { createOctokit } from '../transport/create-octokit.js';
import { octokitTransport } from '../transport/octokit.js';
import { changesMode } from './changes-mode.js';
import { compactMode } from './compact-mode.js';
import type { ActionContext, ActionResult, ActionTools } from './context.js';
import { exportMode } from './export-mode.js';
import { checkFeedInput, feedStep } from './feed-step.js';
import type { ActionInputs } from './inputs.js';
import { mergeMode } from './merge-mode.js';
import { meteredFetch, rateOutputs } from './metered-fetch.js';
import { migrateMode } from './migrate-mode.js';
import { notifyNext } from './notify.js';
import { projectMode } from './project-mode.js';
import { queryMode } from './query-mode.js';
import { readMode } from './read-mode.js';
import { isReviewMode } from './review-inputs.js';
import { runReviewMode } from './review-modes.js';
import { searchMode } from './search-mode.js';

export type { ActionContext, ActionResult } from './context.js';

function splitRepo(full: string) {
  const i = full.indexOf('/');
  return { owner: full.slice(0, i), repo: full.slice(i + 1) };
}

/**
 * Run the Action with parsed inputs.
 *
 * @example
 * const { outputs, summary } = await runAction(readInputs(core.getInput, process.env));
 */
export async function runAction(given: ActionInputs, context: ActionContext = {}): Promise<ActionResult> {
  // Pull-request reviews (issue 39): the event first (it may name the repository's id); none moves the section.
  if (isReviewMode(given.mode)) {
    return runReviewMode({ ...given, mode: given.mode }, context, (id) => actionTools(given, context, id));
  }
  const tools = actionTools(given, context);
  const inputs = await fullVersions(given, tools.store);
  if (inputs.mode === 'changes') {
    const { outputs, summary } = await changesMode(inputs, tools.store, tools.ref);
    tools.log(`changes since ${inputs.since}: ${outputs.keys}`);
    return { outputs: { ...outputs, requests: String(tools.meter.requests), ...rateOutputs(tools.meter) }, summary };
  }
  if (inputs.mode === 'export') {
    const { outputs, summary } = await exportMode(inputs, tools.store, tools.ref, context.workspace ?? process.cwd());
    tools.log(`exported ${outputs.count} document(s) to ${outputs.path}`);
    return { outputs: { ...outputs, requests: String(tools.meter.requests), ...rateOutputs(tools.meter) }, summary };
  }
  if (inputs.mode === 'compact') {
    const { outputs, summary } = await compactMode(inputs, tools.store, tools.ref);
    tools.log(`compact: ${outputs.changed === 'true' ? `${outputs.kept} commit(s) kept` : 'nothing to compact'}`);
    return { outputs: { ...outputs, requests: String(tools.meter.requests), ...rateOutputs(tools.meter) }, summary };
  }
  if (inputs.mode === 'migrate') {
    const { outputs, summary } = await migrateMode(inputs, tools.store, tools.ref, context.workspace ?? process.cwd());
    tools.log(
      `migrate ${inputs.namespace}/${inputs.type}: ${outputs.counts}${inputs.migrate?.dryRun ? ' (dry run)' : ''}`,
    );
    return { outputs: { ...outputs, requests: String(tools.meter.requests), ...rateOutputs(tools.meter) }, summary };
  }
  if (inputs.mode === 'read') return readMode(inputs, tools);
  if (inputs.mode === 'query') {
    const workspace = context.workspace ?? process.cwd();
    return inputs.query?.search !== undefined
      ? searchMode(inputs, tools, workspace)
      : queryMode(inputs, tools, workspace);
  }
  const { mode } = inputs;
  if (isReviewMode(mode)) throw new Error(`mode ${mode} is dispatched above`); // narrows: never reached
  const workspace = context.workspace ?? process.cwd();
  // A wrong `feed` fails before the run, never after a commit (the path is checked like export-path).
  const feedFile = inputs.feed ? await checkFeedInput(inputs, tools.ref, workspace) : undefined;
  const result =
    mode === 'merge' ? await mergeMode(inputs, context, tools) : await projectMode(inputs, mode, context, tools);
  if (inputs.notify && result.outputs.changed === 'true') await notifyNext(inputs, result.outputs, tools);
  if (feedFile !== undefined && !result.failed) await withFeed(result, inputs, tools, feedFile, workspace);
  return result;
}

/** The feed brought up to date after the run (docs/feed.md): its path output, a summary line, the requests. */
async function withFeed(
  result: ActionResult,
  inputs: ActionInputs,
  tools: ActionTools,
  target: string,
  workspace: string,
): Promise<void> {
  const feed = await feedStep(inputs, tools, target, workspace);
  result.outputs = {
    ...result.outputs,
    ...feed.outputs,
    requests: String(tools.meter.requests),
    ...rateOutputs(tools.meter),
  };
  result.summary += feed.summary;
}

/**
 * The `version` and `since` inputs as full commit SHAs of the section: an abbreviation (the 7 characters
 * a summary or the CLI shows) is resolved by the library's one resolver; a full SHA costs no request.
 */
async function fullVersions(inputs: ActionInputs, store: RefStore): Promise<ActionInputs> {
  const full = async (field: 'version' | 'since') => {
    const v = inputs[field];
    if (!v || v.length === 40) return v;
    try {
      return await resolveVersion(store, v);
    } catch (e) {
      if (e instanceof InvalidVersion) throw new InvalidVersion(v, `input ${field}: ${e.message}`, e.data);
      throw e;
    }
  };
  return { ...inputs, version: await full('version'), since: await full('since') };
}

/**
 * One metered Octokit for sources and store, and the section's store (unless the context brings one).
 *
 * @example
 * const tools = actionTools(inputs, { workspace }); // tools.store on refs/<root>/<section>
 */
export function actionTools(inputs: ActionInputs, context: ActionContext, repositoryId?: string): ActionTools {
  const log = context.log ?? (() => {});
  const ref = sectionRef(inputs.root, inputs.section);
  const { owner, repo } = splitRepo(inputs.repository);
  const { fetch, meter } = meteredFetch(context.fetch ?? globalThis.fetch, context.debug);
  const octokit = createOctokit({
    ...(inputs.token ? { auth: inputs.token } : {}),
    baseUrl: inputs.apiUrl,
    userAgent: 'docdb-action',
    fetch,
    warn: (m) => log(`warning: ${m}`),
    ...(context.writeSpacingMs !== undefined
      ? { writeSpacingMs: context.writeSpacingMs }
      : isLoopbackHost(new URL(inputs.apiUrl).hostname)
        ? { writeSpacingMs: 0 }
        : {}),
    // A review comment notifies people: 3 s apart on GitHub; an emulator on loopback notifies nobody.
    ...(isLoopbackHost(new URL(inputs.apiUrl).hostname) ? { notificationSpacingMs: 0 } : {}),
  });
  // A review's stores (the section, its preview ref) share one object cache: the preview commit is built on
  // the tip the dry run already read, so its commit and trees cost no second read (objects keyed by SHA).
  const shared = isReviewMode(inputs.mode) ? { cache: { backend: new MemoryCacheBackend() } } : {};
  const apiStore = (
    on: string,
    startAt?: string,
    pinned?: { author: { name: string; email: string }; date: Date },
  ): RemoteApiRefStore =>
    new RemoteApiRefStore({
      ...(pinned ? { author: pinned.author, commitDate: pinned.date } : {}),
      ...shared,
      ...(repositoryId ? { repositoryId } : {}),
      transport: octokitTransport(octokit),
      apiUrl: inputs.apiUrl,
      owner,
      repo,
      ref: on,
      ...(startAt ? { startAt } : {}),
      ...(inputs.token ? { token: inputs.token } : {}),
      retryConcurrentWrites: inputs.retryConcurrentWrites,
      // Bulk reads (mode: export) through the archive; its redirect never gets the token.
      archive: nodeArchiveReader({ fetch }),
      // A warning (an archive too large for the archive path, read in batches instead) goes to the log.
      logger: (event) => {
        if (event.level === 'warn') log(`warning: ${event.message}`);
      },
    });
  if (context.store) return { client: octokit, store: context.store, ref, meter, log };
  const storeOn = context.storeOn ?? apiStore;
  const store = storeOn(ref);
  // Shard refs are deleted through the section's store: one updateRefs mutation, each ref compared.
  const listRefs = (store as Partial<Pick<RemoteApiRefStore, 'listRefs'>>).listRefs;
  const shardRefs = {
    storeOn,
    deleteRefs: (refs: readonly RefDeletion[]) => store.deleteRefs(refs),
    // A review finds its old preview in a listing, which leaves no cached tip to catch up from (review-run.ts).
    ...(listRefs ? { listRefs: (prefix: string) => listRefs.call(store, prefix) } : {}),
  };
  return { client: octokit, store, ref, meter, log, shardRefs };
}
