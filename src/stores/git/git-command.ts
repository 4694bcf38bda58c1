/**
 * Running git: one place that builds git's environment, spawns it, and turns failures into
 * `GitError` with secrets redacted. Node-only (node:child_process).
 */

import { spawn } from 'node:child_process';
import { GitError } from '../../core/errors.js';
import { redactText } from '../../core/redact.js';

/** How to run git for one repository. */
export interface GitCommandOptions {
  /** git executable (default `git` on PATH). */
  git: string;
  /** Arguments placed before the subcommand, e.g. `--git-dir=/x` and `-c name=value`. */
  globalArgs: readonly string[];
  /** Full environment of the child. */
  env: NodeJS.ProcessEnv;
  /** Strings that must never appear in an error or log line (tokens). */
  secrets: readonly string[];
}

/**
 * The same options with `env` and `secrets` — which hold the token when one is given — as
 * non-enumerable getters over a closure: util.inspect, JSON.stringify and object spreads of a store,
 * a repository or a reader holding them never show the token. (Spread the options before this, not
 * after: a spread drops the two.)
 *
 * @example
 * const command = concealCredentials({ git: 'git', globalArgs: [], env, secrets: [token] });
 * command.secrets; // [token], yet inspect(command) shows only git and globalArgs
 */
export function concealCredentials(options: GitCommandOptions): GitCommandOptions {
  const { env, secrets, ...shown } = options;
  return Object.defineProperties(shown, {
    env: { get: () => env, enumerable: false },
    secrets: { get: () => secrets, enumerable: false },
  }) as GitCommandOptions;
}

export interface GitRunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Repository-locating variables git itself clears when it switches repositories
 * (`git rev-parse --local-env-vars`), plus the pathspec switches. Inherited from a parent git
 * process (a hook, `git rebase --exec`), they would redirect reads or writes to another repository,
 * index or work tree, so they are removed; the stores always pass `--git-dir` explicitly.
 */
const LOCAL_ENV_VARS = [
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_QUARANTINE_PATH',
  'GIT_GLOB_PATHSPECS',
  'GIT_NOGLOB_PATHSPECS',
  'GIT_ICASE_PATHSPECS',
  'GIT_CEILING_DIRECTORIES',
];

/**
 * The environment git runs with: the caller's (credential helpers, `GIT_ASKPASS`, ssh settings and
 * `HOME` keep working) minus the repository-locating variables, plus fixed switches: literal
 * pathspecs (a key such as `*.json` is a name, not a glob), no replace objects (reads see the
 * stored objects), no terminal prompts (a missing credential fails instead of hanging), C locale.
 */
export function gitEnvironment(
  base: NodeJS.ProcessEnv = process.env,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of LOCAL_ENV_VARS) delete env[name];
  for (const name of Object.keys(env)) if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  return {
    ...env,
    GIT_LITERAL_PATHSPECS: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    ...extra,
  };
}

/** Replace every secret (core/redact.ts), and any `user:password@` in a URL, with a marker. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactText(text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@'), secrets);
}

/** The error for a git that cannot be started (ENOENT, EACCES). */
export function gitSpawnError(options: GitCommandOptions, args: readonly string[], cause: unknown): GitError {
  const code = (cause as NodeJS.ErrnoException)?.code;
  const missing = code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR';
  return new GitError(
    missing
      ? `git executable ${JSON.stringify(options.git)} could not be run (${code}): install git 2.31 or newer ` +
          '(https://git-scm.com/downloads) and put it on PATH, or pass the path of git as the "git" option'
      : `git ${args[0] ?? ''} could not be started: ${redact(String((cause as Error)?.message ?? cause), options.secrets)}`,
    { reason: missing ? 'missing-binary' : 'crashed', git: options.git, command: redactArgs(args, options.secrets) },
    { cause },
  );
}

function redactArgs(args: readonly string[], secrets: readonly string[]): string[] {
  return args.map((a) => redact(a, secrets));
}

/** Build the `GitError` of a finished command. */
export function gitExitError(
  options: GitCommandOptions,
  args: readonly string[],
  result: { code: number | null; signal?: NodeJS.Signals | null; stderr: string },
  what?: string,
): GitError {
  const stderr = redact(result.stderr, options.secrets).trim().slice(-2000);
  const command = redactArgs(args, options.secrets);
  const reason = result.code === null ? 'crashed' : 'exit';
  const status = result.code === null ? `was killed (${result.signal ?? 'signal'})` : `exited with ${result.code}`;
  return new GitError(`${what ?? `git ${command.join(' ')}`} ${status}${stderr ? `: ${stderr}` : ''}`, {
    reason,
    command,
    ...(result.code === null ? { signal: result.signal ?? null } : { exitCode: result.code }),
    stderr,
  });
}

/**
 * Run one git command to completion. Resolves with the exit code and output; a non-zero exit
 * rejects with `GitError` unless it is in `okCodes`.
 *
 * @example
 * const { stdout } = await runGit(opts, ['rev-parse', '--absolute-git-dir']);
 */
export function runGit(
  options: GitCommandOptions,
  args: readonly string[],
  run: { input?: Uint8Array | string; okCodes?: readonly number[]; cwd?: string } = {},
): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(options.git, [...options.globalArgs, ...args], {
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(run.cwd ? { cwd: run.cwd } : {}),
      });
    } catch (e) {
      reject(gitSpawnError(options, args, e));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let failed = false;
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => {
      failed = true;
      reject(gitSpawnError(options, args, e));
    });
    // EPIPE when git exits before reading all input: the exit status tells what happened.
    child.stdin?.on('error', () => {});
    child.on('close', (code, signal) => {
      if (failed) return;
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0 || (code !== null && run.okCodes?.includes(code))) {
        resolve({ code, stdout: Buffer.concat(out), stderr });
      } else {
        reject(gitExitError(options, args, { code, signal, stderr }));
      }
    });
    if (run.input !== undefined) child.stdin?.end(run.input);
    else child.stdin?.end();
  });
}
