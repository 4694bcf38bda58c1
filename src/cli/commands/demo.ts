/**
 * `docdb demo` (`npm run demo`): the whole product on the embedded default, offline. Starts the GitHub
 * API emulator with DEMO_SEED, runs the GitHub Action end to end with examples/docdb.yml or the user's
 * `--spec` — the built dist/index.js as a child process, exactly as a runner would (INPUT_* variables,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files) — prints a summary and the step outputs, runs it again to
 * show that an unchanged source makes no commit, then reads a document back. No token, no network.
 *
 * The workspace is where the user is: a `--spec` path is the user's file, relative to the working
 * directory (the packaged example is used, from the package, only when no `--spec` is given). In a
 * terminal the step's workflow commands are read back into plain lines and the summary is plain text;
 * under GitHub Actions the log and the Markdown job summary are shown as the runner would take them.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { readInputs } from '../../action/inputs.js';
import { runLikeRunner } from '../../action/local-runner.js';
import { runAction } from '../../action/run-action.js';
import type { SummaryInput } from '../../action/summary.js';
import { DocumentStore, type Envelope, type Identity, parseKey } from '../../document/index.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../emulator/index.js';
import { loadSpec } from '../../projection/spec/index.js';
import { RemoteApiRefStore } from '../../stores/remote-api/index.js';
import { fetchTransport } from '../../transport/fetch.js';
import type { CliCommand } from '../command.js';
import { CLI_INPUT_NAMES } from '../input-flags.js';
import { EXIT } from '../io.js';
import { documentName, outputsSummary, renderTextSummary } from '../run-summary.js';
import { plainStepLog, underActions } from '../workflow-commands.js';

/** The installed package (or this checkout): its dist/index.js and the example spec. */
const PACKAGE_ROOT = resolve(import.meta.dirname, '../../..');
const EXAMPLE_SPEC = 'examples/docdb.yml';
const TARGET = 'octo-org/widgets';
const TOKEN = 'ghp_demo_write'; // a token of the emulator's demo seed, not a real credential

interface StepResult {
  ok: boolean;
  log: string;
  outputs: Record<string, string>;
  summary: string;
  /** What the summary was rendered from (in-process runs only; dist/index.js gives its outputs). */
  summaryInput?: SummaryInput | undefined;
}

/**
 * The Action's entry file, run as a runner would: the committed bundle dist/index.js in a checkout, or —
 * in the npm package, which ships no dist/ — the same code unbundled, lib/action/main.js. Undefined when
 * neither is built (the step then runs in-process).
 */
function actionEntry(): string | undefined {
  return ['dist/index.js', 'lib/action/main.js'].map((f) => join(PACKAGE_ROOT, f)).find((f) => existsSync(f));
}

/** The spec the demo runs and the workspace it must be inside (see the file comment). */
function demoSpec(given: string | undefined, cwd: string): { spec: string; workspace: string } {
  return given === undefined ? { spec: EXAMPLE_SPEC, workspace: PACKAGE_ROOT } : { spec: given, workspace: cwd };
}

/** Run dist/index.js like a runner, in the workspace. Asynchronous: the emulator answers from this very process. */
async function runDist(dist: string, inputs: Record<string, string>, workspace: string): Promise<StepResult> {
  const run = await runLikeRunner({
    entry: dist,
    inputs,
    cwd: workspace,
    env: { GITHUB_REPOSITORY: TARGET, GITHUB_WORKSPACE: workspace },
  });
  return { ok: run.code === 0, log: `${run.stdout}${run.stderr}`, outputs: run.outputs, summary: run.summary };
}

/** The same step in-process (with --in-process, or when dist/ has not been built); messages name the CLI's flags. */
async function runInProcess(inputs: Record<string, string>, workspace: string): Promise<StepResult> {
  const lines: string[] = [];
  try {
    const parsed = readInputs((n) => inputs[n] ?? '', { GITHUB_REPOSITORY: TARGET }, CLI_INPUT_NAMES);
    const { outputs, summary, summaryInput } = await runAction(parsed, {
      workspace,
      log: (l) => lines.push(l),
      inputNames: CLI_INPUT_NAMES,
    });
    return { ok: true, log: lines.join('\n'), outputs, summary, summaryInput };
  } catch (e) {
    return { ok: false, log: `${lines.join('\n')}\nerror: ${(e as Error).message}`, outputs: {}, summary: '' };
  }
}

/**
 * Read one document through the API, counting the requests it takes (the ref, then one contents read at
 * its commit).
 */
async function readDocument(
  apiUrl: string,
  identity: Identity,
): Promise<{ envelope: Envelope | null; requests: number }> {
  let requests = 0;
  const base = fetchTransport();
  const store = new RemoteApiRefStore({
    transport: {
      request: (req) => {
        requests++;
        return base.request(req);
      },
    },
    apiUrl,
    owner: 'octo-org',
    repo: 'widgets',
    token: TOKEN,
  });
  const envelope = await new DocumentStore(store).get(identity);
  return { envelope, requests };
}

/**
 * The documents the first run wrote and left in the section (added or modified, not removed), in the
 * order it reports them: the in-process report's lists, or dist/index.js's `keys` output (added, modified
 * and removed keys, state files too) without the removed ones and every key that is not a document.
 *
 * @example
 * writtenDocuments({ keys: '["github/repo/octo-org/api.json"]' }, undefined, []); // [{ namespace: 'github', … }]
 */
export function writtenDocuments(
  outputs: Readonly<Record<string, string>>,
  summaryInput: SummaryInput | undefined,
  removed: readonly string[],
): Identity[] {
  const keys = summaryInput
    ? summaryInput.report.projections.flatMap((p) => [...p.added, ...p.changed])
    : (JSON.parse(outputs.keys || '[]') as string[]).filter((k) => !removed.includes(documentName(k)));
  return keys.flatMap((k) => parseKey(k) ?? []);
}

const indent = (text: string, by = '    ') =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

/**
 * The documents a run removed, by name, read from the section (its changes from `previous-version` to
 * `version`): dist/index.js reports only how many (`deleted`), and a newcomer should see which (issue 32
 * item 8). Empty when nothing was removed, without a request.
 *
 * @example
 * await removedDocuments(em.url, first.outputs); // ['github/repo/octo-org/api']
 */
export async function removedDocuments(apiUrl: string, outputs: Readonly<Record<string, string>>): Promise<string[]> {
  const from = outputs['previous-version'];
  const to = outputs.version;
  if (!from || !to || Number(outputs.deleted || 0) === 0) return [];
  const store = new RemoteApiRefStore({
    transport: fetchTransport(),
    apiUrl,
    owner: 'octo-org',
    repo: 'widgets',
    token: TOKEN,
  });
  const { removed } = await new DocumentStore(store).changes({ from, to });
  return removed.map((d) => `${d.namespace}/${d.doc_type}/${d.id}`);
}

/** The first run as its reader should see it: plain in a terminal, as the runner takes it under Actions. */
function showFirstRun(
  first: StepResult,
  log: (line?: string) => void,
  relay: ((line: string) => void) | undefined,
  removed: readonly string[],
): void {
  const actions = relay !== undefined;
  const stepLog = first.log.replace(/^::add-mask::.*\n/m, '');
  if (relay) relay(`\n── step log ──\n${indent(stepLog)}`);
  else log(`\n── step log ──\n${indent(plainStepLog(stepLog))}`);
  if (!first.ok) return;
  if (actions) log(`\n── job summary (GITHUB_STEP_SUMMARY) ──\n${indent(first.summary)}`);
  else {
    const text = first.summaryInput ? renderTextSummary(first.summaryInput) : outputsSummary(first.outputs, removed);
    log(`\n── summary (the Markdown job summary goes to GITHUB_STEP_SUMMARY) ──\n${indent(text)}`);
  }
  log('\n── step outputs (GITHUB_OUTPUT) ──');
  for (const [k, v] of Object.entries(first.outputs)) if (k !== 'document') log(`    ${k} = ${v}`);
}

/** The user's spec, read before anything runs: its problems in the CLI's words (`--spec`), not the Action's. */
async function checkSpec(spec: string, workspace: string): Promise<void> {
  await loadSpec(isAbsolute(spec) ? spec : resolve(workspace, spec), {
    displayPath: spec,
    workspace,
    defaultRepository: TARGET,
    inputNames: CLI_INPUT_NAMES,
  });
}

/** What `docdb demo` found: its last text line and its --json say the same (`reason` whenever `ok` is false). */
export interface DemoResult {
  ok: boolean;
  reason?: string;
  /** The first run's step outputs. */
  outputs: Record<string, string>;
  /** The second run with unchanged sources: the requests it made, of which writes (there should be none). */
  rerun?: { changed: boolean; requests: number; writes: number };
  /** The document read back: one the first run wrote (null when it wrote none). */
  read?: { name: string; requests: number } | null;
  document?: Envelope | null;
  /** The step log, when the Action failed. */
  log?: string;
}

/** The last error line of a step log, in plain words (workflow commands read back), for a failure's reason. */
function lastError(log: string): string {
  const lines = plainStepLog(log)
    .split('\n')
    .map((l) => l.trim());
  return lines.reverse().find((l) => /^error\b/i.test(l)) ?? 'see the step log above';
}

interface TourTools {
  em: EmulatorHandle;
  /** The same step again. */
  step: () => Promise<StepResult>;
  /** A `mode: read` step with these inputs. */
  read: (inputs: Record<string, string>) => Promise<StepResult>;
  log: (line?: string) => void;
}

/**
 * After a first run that succeeded: run again with unchanged sources (no write may happen), read back a
 * document the first run wrote, then read it with `mode: read` pinned to the first run's version.
 */
async function tour(t: TourTools, first: StepResult, removed: readonly string[]): Promise<DemoResult> {
  const { em, log } = t;
  em.clearLog();
  const second = await t.step();
  const writes = em.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').length; // GraphQL queries are reads
  const rerun = { changed: second.outputs.changed === 'true', requests: em.requests.length, writes };
  log(
    `\n▶ second run with unchanged sources: changed=${second.outputs.changed}, version=${second.outputs.version?.slice(0, 7)}, ` +
      `${rerun.requests} requests of which ${writes} writes${writes === 0 && !rerun.changed ? ' — no commit' : ''}`,
  );
  const result: DemoResult = { ok: true, outputs: first.outputs, rerun };
  if (!second.ok) return { ...result, ok: false, reason: `the second run failed: ${lastError(second.log)}` };
  if (rerun.changed || writes > 0) {
    const reason = `the second run with unchanged sources made ${writes} write request(s) (changed=${second.outputs.changed}): the spec's documents are not the same from one run to the next`;
    return { ...result, ok: false, reason };
  }
  const [identity] = writtenDocuments(first.outputs, first.summaryInput, removed);
  if (!identity) {
    log('\n▶ the run wrote no document: nothing to read back');
    return { ...result, read: null, document: null };
  }
  return { ...result, ...(await readBack(t, identity, first.outputs.version ?? '')) };
}

/** Read `identity` through the API, then with a `mode: read` step at `version`; ok only when both find it. */
async function readBack(t: TourTools, identity: Identity, version: string): Promise<Partial<DemoResult>> {
  const name = `${identity.namespace}/${identity.doc_type}/${identity.id}`;
  const read = await readDocument(t.em.url, identity);
  t.log(`\n▶ docdb doc get ${name}   (${read.requests} requests: ref + one contents read)`);
  t.log(indent(JSON.stringify(read.envelope, null, 2)));
  const found = { read: { name, requests: read.requests }, document: read.envelope };
  if (read.envelope === null)
    return { ...found, ok: false, reason: `${name}, which the run wrote, reads back as missing` };
  const pinned = await t.read({
    mode: 'read',
    namespace: identity.namespace,
    type: identity.doc_type,
    id: identity.id,
    version,
  });
  const doc = pinned.outputs.document ? (JSON.parse(pinned.outputs.document) as Envelope) : null;
  t.log(
    `\n▶ mode: read in a later step → outputs.document = ${doc ? `${doc.namespace}/${doc.type}/${doc.id} at ${String(doc.version).slice(0, 7)}` : '(none)'}`,
  );
  if (!doc) return { ...found, ok: false, reason: `mode: read of ${name} at ${version.slice(0, 7)} found no document` };
  return found;
}

export const command: CliCommand = {
  name: 'demo',
  summary: 'run the Action end to end against the built-in emulator (offline)',
  usage: `usage: docdb demo [--spec FILE] [--in-process] [--json]

Starts the GitHub API emulator with the demo seed (no network, no token), runs the docdb GitHub Action
end to end with the spec (the built Action as a runner would — dist/index.js in a checkout,
lib/action/main.js in the npm package — or in-process with --in-process or when neither is built), prints a summary and the step outputs, re-runs it, and reads a document back.
--spec is your file, relative to the current directory (which is the workspace: the spec and its
reducer modules must be inside it); without it, the example spec shipped with docdb.
In a terminal the output is plain text; under GitHub Actions (GITHUB_ACTIONS=true) the step log keeps
its workflow commands and the Markdown job summary is shown.
With --json the progress goes to stderr and stdout gets one JSON summary.`,
  flags: {
    spec: {
      type: 'string',
      description: 'projection spec, relative to the current directory (default: the example spec shipped with docdb)',
    },
    'in-process': { type: 'boolean', description: 'run the Action in this process instead of dist/index.js' },
  },
  async run({ values, io, json }) {
    const log = (line = '') => (json ? io.stderr : io.stdout)(`${line}\n`);
    const { spec, workspace } = demoSpec(typeof values.spec === 'string' ? values.spec : undefined, io.cwd);
    await checkSpec(spec, workspace);
    const dist = values['in-process'] === true ? undefined : actionEntry();
    const em = await startEmulator({ seed: DEMO_SEED });
    try {
      log(`▶ GitHub API emulator on ${em.url} (demo seed: octo-org/widgets, octo-org/gadgets, octocat/hello-world, …)`);
      log(
        dist
          ? `▶ running the Action: node ${relative(PACKAGE_ROOT, dist)} with INPUT_* variables (spec ${spec}, target ${TARGET}, ref refs/docdb/documents)`
          : `▶ running the Action in-process (${values['in-process'] ? '--in-process' : 'dist/index.js is missing: run "npm run build:action" to test the bundle'})`,
      );
      const inputs = { spec, token: TOKEN, 'api-url': em.url, repository: TARGET, mode: 'project' };
      const step = (i: Record<string, string>) => (dist ? runDist(dist, i, workspace) : runInProcess(i, workspace));

      const first = await step(inputs);
      // Under Actions the step log goes out as the runner should read it (the Action's own, already inert).
      const relay = underActions(io.env)
        ? (line: string) => (json ? log(line) : (io.actionLog ?? io.stdout)(`${line}\n`))
        : undefined;
      const removed = first.ok && !first.summaryInput ? await removedDocuments(em.url, first.outputs) : [];
      showFirstRun(first, log, relay, removed);
      const result = first.ok
        ? await tour({ em, step: () => step(inputs), read: (i) => step({ ...inputs, ...i }), log }, first, removed)
        : { ok: false, reason: `the Action failed: ${lastError(first.log)}`, outputs: first.outputs, log: first.log };
      // The last line and --json say the same: ok, and when not, why.
      log(result.ok ? '\n✓ demo complete: no token and no network were used.' : `\n✗ demo failed: ${result.reason}`);
      if (json) io.stdout(`${JSON.stringify(result)}\n`);
      return result.ok ? EXIT.ok : EXIT.error;
    } finally {
      await em.stop();
    }
  },
};
