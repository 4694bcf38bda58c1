/**
 * The Action's work, independent of `@actions/core` so it can run in-process (tests, `docdb demo`
 * fallback) and from `main.ts`: inputs → Octokit + RemoteApiRefStore → projections or a read →
 * step outputs + a Markdown job summary.
 */
import { isAbsolute, resolve } from 'node:path';
import { NotFound } from '../core/errors.js';
import { sectionRef } from '../core/refname.js';
import type { RateLimit, RefStore } from '../core/refstore.js';
import { DocumentStore } from '../document/index.js';
import { tokenIdentity } from '../projection/conditional.js';
import { type RunReport, runProjections } from '../projection/run.js';
import { loadSpec } from '../projection/spec.js';
import { RemoteApiRefStore } from '../stores/remote-api/index.js';
import { createOctokit } from '../transport/create-octokit.js';
import { parseRateLimit } from '../transport/headers.js';
import { octokitTransport } from '../transport/octokit.js';
import type { ActionInputs } from './inputs.js';
import { renderSummary } from './summary.js';

export interface ActionContext {
  /** Progress lines (the runner log). */
  log?: (line: string) => void;
  /** Directory relative paths (the spec) are resolved against (default: cwd = the workspace on runners). */
  workspace?: string;
  /** Web URL of the GitHub server for commit links (default `GITHUB_SERVER_URL` or https://github.com). */
  serverUrl?: string;
  /** Fetch implementation (tests); default global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Spacing of write requests in ms (default plugin-throttling's 1000 ms on github.com; 0 for loopback). */
  writeSpacingMs?: number;
  /** Environment `http` sources read secret headers from (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The section's store. Default: RemoteApiRefStore on `inputs.repository` over the run's Octokit (the
   * Action). `docdb project --refstore git|subprocess` passes a local git store here.
   */
  store?: RefStore;
}

export interface ActionResult {
  outputs: Record<string, string>;
  /** Markdown for the job summary. */
  summary: string;
  report?: RunReport;
}

/** Tracks every HTTP request the run makes (sources and store share one Octokit) and the last rate limit seen. */
export function meteredFetch(inner: typeof globalThis.fetch = globalThis.fetch) {
  const meter = { requests: 0, rateLimit: undefined as RateLimit | undefined };
  const fetchFn: typeof globalThis.fetch = async (input, init) => {
    meter.requests++;
    const res = await inner(input, init);
    meter.rateLimit = parseRateLimit(res.headers) ?? meter.rateLimit;
    return res;
  };
  return { fetch: fetchFn, meter };
}

function splitRepo(full: string) {
  const i = full.indexOf('/');
  return { owner: full.slice(0, i), repo: full.slice(i + 1) };
}

function isLoopback(apiUrl: string): boolean {
  const host = new URL(apiUrl).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/**
 * Run the Action with parsed inputs.
 *
 * @example
 * const { outputs, summary } = await runAction(readInputs(core.getInput, process.env));
 */
export async function runAction(inputs: ActionInputs, context: ActionContext = {}): Promise<ActionResult> {
  const log = context.log ?? (() => {});
  const ref = sectionRef(inputs.root, inputs.section);
  const { owner, repo } = splitRepo(inputs.repository);
  const { fetch, meter } = meteredFetch(context.fetch ?? globalThis.fetch);
  const octokit = createOctokit({
    ...(inputs.token ? { auth: inputs.token } : {}),
    baseUrl: inputs.apiUrl,
    userAgent: 'docdb-action',
    fetch,
    warn: (m) => log(`warning: ${m}`),
    ...(context.writeSpacingMs !== undefined
      ? { writeSpacingMs: context.writeSpacingMs }
      : isLoopback(inputs.apiUrl)
        ? { writeSpacingMs: 0 }
        : {}),
  });
  const store: RefStore =
    context.store ??
    new RemoteApiRefStore({
      transport: octokitTransport(octokit),
      apiUrl: inputs.apiUrl,
      owner,
      repo,
      ref,
      ...(inputs.token ? { token: inputs.token } : {}),
      retryConcurrentWrites: inputs.retryConcurrentWrites,
    });
  const rate = () => ({
    'rate-limit-remaining': meter.rateLimit ? String(meter.rateLimit.remaining) : '',
    'rate-limit-reset': meter.rateLimit ? new Date(meter.rateLimit.reset * 1000).toISOString() : '',
  });

  if (inputs.mode === 'read') {
    const documents = new DocumentStore(store);
    const identity = { namespace: inputs.namespace, doc_type: inputs.type, id: inputs.id };
    const envelope = await documents.get(identity, inputs.version ? { version: inputs.version } : {});
    if (!envelope) {
      throw new NotFound(
        `document ${inputs.namespace}/${inputs.type}/${inputs.id} not found in ${inputs.repository} ${ref}${inputs.version ? ` at ${inputs.version}` : ''}; check namespace/type/id, or run the projection first`,
        { repository: inputs.repository, ref, identity },
      );
    }
    log(`read ${inputs.namespace}/${inputs.type}/${inputs.id} at ${envelope.version}`);
    const outputs = {
      document: JSON.stringify(envelope),
      version: String(envelope.version ?? ''),
      'previous-version': '',
      changed: 'false',
      written: '0',
      deleted: '0',
      unchanged: '0',
      keys: '[]',
      requests: String(meter.requests),
      ...rate(),
    };
    const summary = `### docdb read: \`${inputs.namespace}/${inputs.type}/${inputs.id}\` from \`${ref}\` in ${inputs.repository}\n\nVersion \`${envelope.version}\`${inputs.version ? ' (pinned)' : ' (tip)'} · requests: ${meter.requests}\n`;
    return { outputs, summary };
  }

  const workspace = context.workspace ?? process.cwd();
  const specPath = isAbsolute(inputs.spec) ? inputs.spec : resolve(workspace, inputs.spec);
  // Messages name the spec as the user wrote it; reducer modules resolve against its real directory.
  const spec = await loadSpec(specPath, { defaultRepository: inputs.repository, displayPath: inputs.spec });
  const report = await runProjections({
    spec,
    client: octokit,
    store,
    mode: inputs.mode,
    only: inputs.projections,
    commitMessage: inputs.commitMessage,
    apiUrl: inputs.apiUrl,
    baseDir: resolve(specPath, '..'),
    log,
    workspace,
    tokenIdentity: tokenIdentity(inputs.token),
    minRateLimit: inputs.minRateLimit,
    ...(inputs.shard ? { shard: inputs.shard } : {}),
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.env ? { env: context.env } : {}),
  });
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
    requests: String(meter.requests),
    ...rate(),
  };
  const summary = renderSummary({
    report,
    repository: inputs.repository,
    serverUrl: context.serverUrl ?? process.env.GITHUB_SERVER_URL ?? 'https://github.com',
    requests: meter.requests,
    rateLimit: meter.rateLimit,
  });
  return { outputs, summary, report };
}
