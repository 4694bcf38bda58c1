/**
 * Run a JavaScript Action's entry file the way a GitHub runner does (Node only): inputs as `INPUT_*`
 * environment variables, fresh `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files, then read both back.
 * Used by `docdb demo` and by the end-to-end tests of dist/index.js.
 * See https://docs.github.com/actions/reference/workflows-and-actions/metadata-syntax#inputs
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalRunOptions {
  /** The Action's entry file, e.g. dist/index.js. */
  entry: string;
  /** Inputs by their action.yml names. */
  inputs: Record<string, string>;
  /** Working directory of the step. */
  cwd: string;
  /** Extra environment (`GITHUB_REPOSITORY`, `GITHUB_WORKSPACE`, …). Only PATH is inherited. */
  env?: Record<string, string>;
  /** The Node binary to run `entry` with (default: this process's own; e.g. a Node 24 build, as action.yml's `node24`). */
  node?: string;
}

export interface LocalRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Step outputs parsed from GITHUB_OUTPUT. */
  outputs: Record<string, string>;
  /** Contents of GITHUB_STEP_SUMMARY. */
  summary: string;
}

/** The variable a runner sets for an input: `INPUT_` + the name upper-cased with spaces as `_` (dashes kept). */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** Parse a GITHUB_OUTPUT file: `name<<delimiter` heredocs (as @actions/core writes them) and `name=value` lines. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = /^([^<=]+)<<(.+)$/.exec(line);
    if (m) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] as string);
      out[m[1] as string] = value.join('\n');
    } else if (line.includes('=')) {
      const [k, ...v] = line.split('=');
      out[k as string] = v.join('=');
    }
  }
  return out;
}

/**
 * Run `entry` as a runner would and collect its outputs and summary. Asynchronous on purpose: a caller
 * may serve the step's API (the emulator) from this same process.
 *
 * @example
 * const run = await runLikeRunner({ entry: 'dist/index.js', inputs: { mode: 'dry-run' }, cwd: process.cwd() });
 * run.outputs.changed; // 'true' | 'false'
 */
export function runLikeRunner(options: LocalRunOptions): Promise<LocalRun> {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-runner-'));
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs)) env[inputEnvName(name)] = value;
  return new Promise((done) => {
    execFile(
      options.node ?? process.execPath,
      [options.entry],
      { cwd: options.cwd, env, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const run: LocalRun = {
          code: err ? Number((err as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
          summary: readFileSync(summaryFile, 'utf8'),
        };
        rmSync(dir, { recursive: true, force: true });
        done(run);
      },
    );
  });
}
