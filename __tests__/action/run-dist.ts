/** Run the built action (dist/index.js) the way a GitHub runner does: INPUT_* env, GITHUB_OUTPUT/GITHUB_STEP_SUMMARY files. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { parse } from 'yaml';
import { type LocalRun, parseOutputFile, runLikeRunner } from '../../src/action/local-runner.js';

export const DIST = resolve(import.meta.dirname, '../../dist/index.js');

const ACTION = parse(readFileSync(resolve(import.meta.dirname, '../../action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
};

/**
 * What a runner passes for inputs the step leaves out: every action.yml default, with the `github.*`
 * expressions evaluated from the job's context (here: the environment the step runs with).
 */
export function runnerDefaults(env: Record<string, string | undefined>): Record<string, string> {
  const context: Record<string, string | undefined> = {
    token: env.GITHUB_TOKEN,
    api_url: env.GITHUB_API_URL,
    repository: env.GITHUB_REPOSITORY,
  };
  const out: Record<string, string> = {};
  for (const [name, def] of Object.entries(ACTION.inputs)) {
    if (def.default === undefined) continue;
    out[name] = String(def.default).replace(/\$\{\{\s*github\.(\w+)\s*\}\}/g, (_, k: string) => context[k] ?? '');
  }
  return out;
}

export type DistRun = LocalRun;

/**
 * Test time allowed per Action run a test starts (`timeout: runs * ACTION_RUN_MS`). The work is real: each
 * run is a fresh Node process that loads the Action (the 3 MB bundle, or src/ through tsx), reads its
 * inputs and makes its requests to the emulator, which serves them from the test's own process. On the
 * 2-core CI machine beside four busy loops (issue 37 item 18) a run that only starts and exits took 5 s,
 * the runs of shard-merge.test.ts 13–22 s each (12 runs: 156 s), and vitest's default 60 s cut off tests
 * of 4 to 12 runs mid-way. No assertion depends on how long a run takes: only this budget does.
 */
export const ACTION_RUN_MS = 30_000;

export { parseOutputFile };

/** Workspaces made by this test file; removed when the file's tests are done (no leftovers in /tmp). */
const workspaces: string[] = [];
afterAll(() => {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A workspace directory with files (e.g. `.github/docdb.yml`); removed after the test file. */
export function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-ws-'));
  workspaces.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(resolve(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/**
 * Run dist/index.js with `inputs` (names as in action.yml; the runner upper-cases them and keeps dashes),
 * plus the defaults of every other input, as a runner does.
 * Asynchronous on purpose: the emulator serves from this same process.
 */
export function runDist(
  inputs: Record<string, string>,
  opts: { cwd: string; env?: Record<string, string>; node?: string },
): Promise<DistRun> {
  const env: Record<string, string> = {
    GITHUB_WORKSPACE: opts.cwd,
    GITHUB_SERVER_URL: 'https://github.example',
    ...opts.env,
  };
  // Like a runner: every input is set, the step's `with:` over action.yml's defaults.
  return runLikeRunner({
    entry: DIST,
    inputs: { ...runnerDefaults(env), ...inputs },
    cwd: opts.cwd,
    env,
    node: opts.node,
  });
}

/**
 * The Action inputs of one run: a token, the emulator's URL, the target repository and a section.
 *
 * @example
 * const inputs = inputsFor(() => ({ token: 'ghp_demo_write', api: em.url, repository: 'octo-org/widgets' }));
 * await runDist(inputs('sec', { mode: 'dry-run' }), { cwd });
 */
export function inputsFor(target: () => { token: string; api: string; repository: string }) {
  return (section: string, extra: Record<string, string> = {}): Record<string, string> => {
    const t = target();
    return { token: t.token, 'api-url': t.api, repository: t.repository, section, ...extra };
  };
}
