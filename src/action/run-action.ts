/**
 * The Action's work, independent of `@actions/core` so it can run in-process (tests, `docdb demo`
 * fallback) and from `main.ts`: inputs → Octokit + RemoteApiRefStore → projections or a read →
 * step outputs + a Markdown job summary.
 */
import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { NotFound } from '../core/errors.js';
import { sectionRef } from '../core/refname.js';
import type { RateLimit, RefStore } from '../core/refstore.js';
import { DocumentStore } from '../document/index.js';
import { tokenIdentity } from '../projection/conditional.js';
import { DEFAULT_REDUCER_TIMEOUT_SECONDS } from '../projection/reducer-worker.js';
import { type RunReport, runProjections } from '../projection/run.js';
import { loadSpec } from '../projection/spec.js';
import { RemoteApiRefStore } from '../stores/remote-api/index.js';
import { nodeArchiveReader } from '../stores/remote-api/node-archive.js';
import { createOctokit } from '../transport/create-octokit.js';
import { parseRateLimit } from '../transport/headers.js';
import { octokitTransport } from '../transport/octokit.js';
import { changesMode } from './changes-mode.js';
import { exportMode } from './export-mode.js';
import type { ActionInputs } from './inputs.js';
import { code, mdText, renderSummary } from './summary.js';

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
  /** One line per HTTP request (method, URL without query secrets, status): `core.debug` in the Action. */
  debug?: (line: string) => void;
  /** Log grouping per projection (`core.startGroup`/`core.endGroup` in the Action). */
  group?: { start(name: string): void; end(): void };
  /**
   * The workflow run (`github.context.runId`/`runAttempt`), recorded as a `Docdb-Run` trailer in the commit
   * message. With a random `Docdb-Nonce` trailer it keeps two runs' commits from ever being identical.
   */
  run?: { id?: number | undefined; attempt?: number | undefined };
}

export interface ActionResult {
  outputs: Record<string, string>;
  /** Markdown for the job summary. */
  summary: string;
  report?: RunReport;
}

/** The `verification` object GitHub returns with a commit (create-commit reply). */
export interface CommitVerification {
  verified: boolean;
  reason: string;
}

/**
 * Tracks every HTTP request the run makes (sources and store share one Octokit), the last rate limit seen,
 * and the `verification` of each commit the run creates (read from the create-commit reply, so knowing
 * whether GitHub signed the commit costs no request).
 */
export function meteredFetch(inner: typeof globalThis.fetch = globalThis.fetch, debug?: (line: string) => void) {
  const meter = {
    requests: 0,
    rateLimit: undefined as RateLimit | undefined,
    verification: new Map<string, CommitVerification>(),
  };
  const fetchFn: typeof globalThis.fetch = async (input, init) => {
    meter.requests++;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const res = await inner(input, init);
    // API URLs carry no credentials (the token travels in a header); an archive download's redirect URL
    // does (`?token=`, codeload's own short-lived credential): it is masked before the debug log.
    debug?.(`${method} ${url.replace(/([?&]token=)[^&#]*/g, '$1***')} → ${res.status}`);
    if (method === 'POST' && res.status === 201 && /\/git\/commits$/.test(new URL(url).pathname)) {
      try {
        const body = (await res.clone().json()) as { sha?: unknown; verification?: Partial<CommitVerification> };
        if (typeof body.sha === 'string' && body.verification && typeof body.verification.verified === 'boolean') {
          meter.verification.set(body.sha, {
            verified: body.verification.verified,
            reason: String(body.verification.reason ?? ''),
          });
        }
      } catch {
        // Not JSON: the store reports the invalid reply itself.
      }
    }
    meter.rateLimit = parseRateLimit(res.headers) ?? meter.rateLimit;
    return res;
  };
  return { fetch: fetchFn, meter };
}

function notVisible(inputs: ActionInputs, ref: string): NotFound {
  return new NotFound(
    `repository ${inputs.repository} is not visible: it does not exist or the token cannot see it; check the "repository" input, and give the "token" input read access to it (the workflow's GITHUB_TOKEN only sees its own repository)`,
    { repository: inputs.repository, ref, reason: 'repository-not-visible' },
  );
}

/**
 * Read mode found no document: say whether the section is missing or only the document. (An invisible
 * repository fails earlier, see notVisible: the store reads the repository when the ref read is a 404.)
 */
async function whyNotFound(inputs: ActionInputs, store: RefStore, ref: string): Promise<NotFound> {
  const at = inputs.version ? ` at ${inputs.version}` : '';
  const doc = `${inputs.namespace}/${inputs.type}/${inputs.id}`;
  const data = {
    repository: inputs.repository,
    ref,
    identity: { namespace: inputs.namespace, type: inputs.type, id: inputs.id },
  };
  const tip = inputs.version ? inputs.version : await store.head();
  if (tip) {
    return new NotFound(
      `document ${doc} not found in ${inputs.repository} ${ref}${at}: the section exists but has no such document; check "namespace", "type" and "id", or run the projection that writes it first`,
      { ...data, reason: 'document-missing' },
    );
  }
  return new NotFound(
    `section ${ref} does not exist in ${inputs.repository}, so document ${doc} cannot be read: run the projection first, or check the "root" and "section" inputs`,
    { ...data, reason: 'section-missing' },
  );
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
  const { fetch, meter } = meteredFetch(context.fetch ?? globalThis.fetch, context.debug);
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
      // Bulk reads (mode: export) through the archive; its redirect never gets the token.
      archive: nodeArchiveReader({ fetch }),
    });
  const rate = () => ({
    'rate-limit-remaining': meter.rateLimit ? String(meter.rateLimit.remaining) : '',
    'rate-limit-reset': meter.rateLimit ? new Date(meter.rateLimit.reset * 1000).toISOString() : '',
  });

  if (inputs.mode === 'changes') {
    const { outputs, summary } = await changesMode(inputs, store, ref);
    log(`changes since ${inputs.since}: ${outputs.keys}`);
    return { outputs: { ...outputs, requests: String(meter.requests), ...rate() }, summary };
  }

  if (inputs.mode === 'export') {
    const { outputs, summary } = await exportMode(inputs, store, ref, context.workspace ?? process.cwd());
    log(`exported ${outputs.count} document(s) to ${outputs.path}`);
    return { outputs: { ...outputs, requests: String(meter.requests), ...rate() }, summary };
  }

  if (inputs.mode === 'read') {
    const documents = new DocumentStore(store);
    const identity = { namespace: inputs.namespace, doc_type: inputs.type, id: inputs.id };
    let envelope: Awaited<ReturnType<DocumentStore['get']>>;
    try {
      envelope = await documents.get(identity, inputs.version ? { version: inputs.version } : {});
    } catch (e) {
      // GitHub answers 404 to the ref read both for a missing section and an invisible repository; the
      // store then reads the repository itself, and a 404 there means the token cannot see it.
      if (e instanceof NotFound && e.data.step === 'read repository') throw notVisible(inputs, ref);
      throw e;
    }
    if (!envelope) {
      throw await whyNotFound(inputs, store, ref);
    }
    log(`read ${inputs.namespace}/${inputs.type}/${inputs.id} at ${envelope.version}`);
    const outputs = {
      document: JSON.stringify(envelope),
      version: String(envelope.version ?? ''),
      'previous-version': '',
      changed: 'false',
      verified: '',
      written: '0',
      deleted: '0',
      unchanged: '0',
      keys: '[]',
      requests: String(meter.requests),
      ...rate(),
    };
    const summary = `### docdb read: ${code(`${inputs.namespace}/${inputs.type}/${inputs.id}`)} from ${code(ref)} in ${mdText(inputs.repository)}\n\nVersion \`${String(envelope.version)}\`${inputs.version ? ' (pinned)' : ' (tip)'} · requests: ${meter.requests}\n`;
    return { outputs, summary };
  }

  const workspace = context.workspace ?? process.cwd();
  const specPath = isAbsolute(inputs.spec) ? inputs.spec : resolve(workspace, inputs.spec);
  // Messages name the spec as the user wrote it; reducer modules resolve against its real directory. Both
  // the spec and the reducer modules must be files of the workspace (the checked-out repository).
  const spec = await loadSpec(specPath, {
    defaultRepository: inputs.repository,
    displayPath: inputs.spec,
    workspace,
  });
  const trailers = [
    `Docdb-Run: ${context.run?.id ? `${context.run.id}.${context.run.attempt || 1}` : 'local'}`,
    `Docdb-Nonce: ${randomBytes(8).toString('hex')}`,
  ];
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
    reducerTimeoutMs: (inputs.reducerTimeout ?? DEFAULT_REDUCER_TIMEOUT_SECONDS) * 1000,
    trailers,
    ...(context.group
      ? { onProjection: { start: (name: string) => context.group?.start(name), end: () => context.group?.end() } }
      : {}),
    ...(inputs.shard ? { shard: inputs.shard } : {}),
    ...(context.fetch ? { fetch: context.fetch } : {}),
    ...(context.env ? { env: context.env } : {}),
  });
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
    ...rate(),
  };
  const summary = renderSummary({
    report,
    repository: inputs.repository,
    serverUrl: context.serverUrl ?? process.env.GITHUB_SERVER_URL ?? 'https://github.com',
    requests: meter.requests,
    rateLimit: meter.rateLimit,
    ...(verification ? { verification } : {}),
  });
  return { outputs, summary, report };
}
