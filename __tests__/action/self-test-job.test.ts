/**
 * The CI job that runs the Action on real GitHub (`action-self-test` in .github/workflows/ci.yml) cannot
 * reach GitHub from here, so this test executes the job's steps as a runner would, against the emulator:
 * `uses: ./` steps run the built dist/index.js with their `with:` inputs, `run:` steps run in bash with
 * their `env:`, and `${{ … }}` expressions are evaluated from the job's context. A step that uses an
 * expression this evaluator does not know fails the test (so the job stays checkable here).
 * On GitHub the repository keeps moving while the job runs (pushes, other workflows): here a commit lands
 * on its main branch after every Action step, and the job's checks must not depend on it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { runDist, workspace } from './run-dist.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'ghp_self_test_job';
const REPOSITORY = 'octo/docdb';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8'));
const job = ci.jobs['action-self-test'] as { env: Record<string, string>; steps: Step[] };
const hasJq = spawnSync('jq', ['--version']).status === 0;

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
  em.state.createRepo(REPOSITORY);
});
afterAll(() => em?.stop());

/** `${{ … }}` over the job's context: env, steps.<id>.outputs.<name>, github.<field>. */
function evaluate(text: string, ctx: { env: Record<string, string>; outputs: Record<string, Record<string, string>> }) {
  const github: Record<string, string> = { token: TOKEN, run_id: '4242', run_attempt: '1', repository: REPOSITORY };
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    let m = /^env\.(\w+)$/.exec(expr);
    if (m) return ctx.env[m[1]!] ?? '';
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return ctx.outputs[m[1]!]?.[m[2]!] ?? '';
    m = /^github\.(\w+)$/.exec(expr);
    if (m && m[1]! in github) return github[m[1]!]!;
    throw new Error(`the self-test evaluator does not know \${{ ${expr} }}`);
  });
}

describe('the action-self-test CI job, run here against the emulator', () => {
  it.skipIf(!hasJq)('first run, re-run, change, read and changes modes, then the scratch ref is deleted', async () => {
    const cwd = workspace({});
    cpSync(join(ROOT, '.github/self-test'), join(cwd, '.github/self-test'), { recursive: true });
    // `gh api -X DELETE <path>` against the emulator (the job's cleanup step).
    const bin = join(cwd, '.bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'gh'),
      `#!/usr/bin/env bash\n[ "$1 $2 $3" = "api -X DELETE" ] || exit 2\ncurl -sf -X DELETE -H "Authorization: Bearer $GH_TOKEN" "${em.url}/$4"\n`,
    );
    chmodSync(join(bin, 'gh'), 0o755);
    const env = evaluateAll(job.env, { env: {}, outputs: {} });
    const outputs: Record<string, Record<string, string>> = {};
    const ran: string[] = [];
    for (const step of job.steps) {
      if (step.uses === 'actions/checkout@v4') continue;
      const ctx = { env, outputs };
      if (step.uses === './') {
        const run = await runDist(
          { token: TOKEN, 'api-url': em.url, repository: REPOSITORY, ...evaluateAll(step.with ?? {}, ctx) },
          { cwd, env: { GITHUB_REPOSITORY: REPOSITORY } },
        );
        expect(run.code, `${step.name}: ${run.stderr}${run.stdout}`).toBe(0);
        if (step.id) outputs[step.id] = run.outputs;
        // Live data moves between steps, as on GitHub: a push to the repository's main branch.
        em.state.commitFiles(REPOSITORY, { files: { 'pushed.txt': `after ${step.name}\n` } });
      } else if (step.run) {
        // Asynchronous: the cleanup step calls the emulator, which serves from this process.
        const r = await bash(evaluate(step.run, ctx), cwd, {
          PATH: `${bin}:${process.env.PATH}`,
          GITHUB_REPOSITORY: REPOSITORY,
          ...env,
          ...evaluateAll(step.env ?? {}, ctx),
        });
        expect(r.status, `${step.name}: ${r.output}`).toBe(0);
      } else throw new Error(`unexpected step ${JSON.stringify(step)}`);
      ran.push(step.name ?? step.id ?? '');
    }
    expect(ran).toContain('Delete the scratch section');
    expect(outputs.first?.changed).toBe('true');
    expect(outputs.again?.changed).toBe('false');
    expect(outputs.change?.changed).toBe('true');
    // The scratch ref is gone; the repository's own branch is untouched.
    expect(em.state.repo(REPOSITORY).db.readRef(`refs/docdb-ci/${env.SECTION}`)).toBeUndefined();
    expect(em.state.repo(REPOSITORY).db.readRef('refs/heads/main')).toBeDefined();
  });
});

function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => done({ status, output }));
  });
}

function evaluateAll(
  values: Record<string, string>,
  ctx: { env: Record<string, string>; outputs: Record<string, Record<string, string>> },
): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, evaluate(String(v), ctx)]));
}

if (!hasJq)
  console.warn('self-test-job: skipped — jq is not installed (the job checks outputs with jq, as on GitHub runners)');
