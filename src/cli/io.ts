/**
 * The CLI's input/output: where output goes (injectable for tests), the exit codes, and the one way
 * every command prints a result or an error — so errors from every store look the same.
 */
import { DocDbError } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import { inertText } from '../core/terminal-text.js';
import { INPUT_FLAGS } from './input-flags.js';

/** Exit codes (documented in docs/cli.md). */
export const EXIT = {
  /** The command did what was asked. */
  ok: 0,
  /** It failed: network, authentication, git, a write that kept losing races… */
  error: 1,
  /** The command line is wrong: unknown command or flag, a missing, empty or invalid value, an extra argument. */
  usage: 2,
  /** What was asked for does not exist: the document, the version, the repository or remote. */
  notFound: 3,
  /** A compare-and-set write (--if-match) found the document changed: nothing was written. */
  precondition: 4,
} as const;

/**
 * Not a command's outcome but how a run ends when its stdout (or stderr) is closed by the reader, as
 * `docdb … | head` does: quietly, with the status git and gh end with there (they are killed by SIGPIPE,
 * which a shell shows as 128 + 13). Node ignores SIGPIPE, so docdb exits with that status itself.
 */
export const EXIT_OUTPUT_CLOSED = 141;

/** Streams and environment of one CLI run. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** All of stdin as text; undefined when stdin is a terminal (nothing piped). */
  readStdin: () => Promise<string | undefined>;
  cwd: string;
  /** Whether stderr is a terminal (progress lines are shown only there). */
  stderrIsTTY?: boolean;
  /** Redraw the current stderr line with `line` (progress on a terminal); set by {@link terminalIo}. */
  progress?: (line: string) => void;
  /**
   * Print the Action's own step log as it is, under GitHub Actions only (the demo relays it there so the
   * runner reads its workflow commands): that log is docdb's, and the Action already made every untrusted
   * text in it inert. Set by {@link terminalIo}; without it, `stdout`.
   */
  actionLog?: (text: string) => void;
  /** The exit code to end with when an output stream was closed under docdb (see {@link OutputClosed}). */
  closedExitCode?: () => number | undefined;
}

/**
 * An output stream's reader went away (EPIPE: `docdb … | head`) or it failed (a full disk): the command
 * stops at its next write and docdb exits with `exitCode`, printing nothing more.
 */
export class OutputClosed extends Error {
  constructor(readonly exitCode: number) {
    super('output closed');
    this.name = 'OutputClosed';
  }
}

/** How the process's stdout/stderr ended, if one failed (set once by the 'error' listener). */
let closedWith: number | undefined;
let watching = false;

/**
 * A write to a closed pipe is an 'error' event on the stream; without a listener Node crashes with
 * "Unhandled 'error' event" and a stack trace. Listen once: EPIPE ends quietly with 141 (what git and gh
 * end with), anything else with 1 and one line on stderr. `process.exitCode` is set too, for an error
 * that arrives after `main` has returned.
 */
function watchOutputs(): void {
  if (watching) return;
  watching = true;
  const onError = (stream: string) => (e: NodeJS.ErrnoException) => {
    if (closedWith !== undefined) return;
    closedWith = e.code === 'EPIPE' ? EXIT_OUTPUT_CLOSED : EXIT.error;
    process.exitCode = closedWith;
    if (closedWith === EXIT.error && stream === 'stdout') {
      process.stderr.write(`docdb: cannot write to stdout (${inertText(String(e.code ?? e.message))})\n`);
    }
  };
  process.stdout.on('error', onError('stdout'));
  process.stderr.on('error', onError('stderr'));
}

function writeTo(stream: NodeJS.WriteStream, text: string): void {
  if (closedWith !== undefined) throw new OutputClosed(closedWith);
  stream.write(text);
}

/** The process's own streams. */
export function processIo(): CliIo {
  watchOutputs();
  return {
    stdout: (t) => writeTo(process.stdout, t),
    stderr: (t) => writeTo(process.stderr, t),
    closedExitCode: () => closedWith,
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin: async () => {
      if (process.stdin.isTTY) return undefined;
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * `io` with everything printed made inert ({@link inertText}): an error message from a git server or an
 * API, a warning about a source's data, a document printed as JSON — none can move the cursor, retitle
 * the terminal, write the clipboard or issue a workflow command. JSON output keeps its value. Progress
 * redraws its line through `progress`, the one place a `\r` of docdb's own is written.
 *
 * @example
 * const code = await main(argv, terminalIo(processIo()));
 */
export function terminalIo(io: CliIo): CliIo {
  return {
    ...io,
    stdout: (t) => io.stdout(inertText(t)),
    stderr: (t) => io.stderr(inertText(t)),
    progress: (line) => io.stderr(`\r${inertText(line)}`),
    actionLog: (t) => io.stdout(t),
  };
}

/** A command-line mistake: exit code 2, with the flag it is about and what is allowed. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly flag?: string,
    /** The command whose help to point at (default: the command that failed); '' is `docdb --help`. */
    readonly helpFor?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A thing asked for is absent (exit code 3) — e.g. `doc get` of a document that does not exist. */
export class NotFoundResult extends Error {
  override name = 'NotFound';
}

/** Library error fields that come straight from a flag, so a usage error can name the flag (and the Action's inputs). */
const FIELD_FLAGS: Record<string, string> = {
  ...INPUT_FLAGS,
  namespace: '--namespace',
  doc_type: '--type',
  type: '--type',
  id: '--id',
  version: '--version',
  ref: '--ref',
  'root/section': '--root/--section',
  limit: '--limit',
  cursor: '--cursor',
  dir: '--git-dir',
  remote: '--remote',
  repo: '--repo',
  owner: '--repo',
  apiUrl: '--api-url',
};

const INPUT_ERRORS = new Set(['InvalidKey', 'InvalidIdentity', 'InvalidDocument', 'InvalidConfig', 'DocumentTooLarge']);

/** The exit code for an error thrown by a command. */
export function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof NotFoundResult) return EXIT.notFound;
  if (e instanceof DocDbError) {
    // Malformed versions are usage errors caught before any I/O, as is an abbreviation that names several
    // commits; an InvalidVersion from a store names no commit of the section.
    if (e.code === 'InvalidVersion' && (e.data.reason === 'ambiguous' || e.data.reason === 'malformed')) {
      return EXIT.usage;
    }
    if (e.code === 'NotFound' || e.code === 'InvalidVersion') return EXIT.notFound;
    if (e.code === 'PreconditionFailed') return EXIT.precondition;
    if (e.code === 'GitError' && e.data.reason === 'not-a-repository') return EXIT.notFound;
    if (INPUT_ERRORS.has(e.code)) return EXIT.usage;
  }
  return EXIT.error;
}

function hideSecrets(text: string, secrets: readonly string[]): string {
  return redactText(text, secrets);
}

/** What the CLI says when an operation needed a token and none was found (docs/cli.md, "The token"). */
export const AUTH_HINT =
  'No token was found. Set GITHUB_TOKEN (or GH_TOKEN), name another variable with --token-env NAME, or log in with `gh auth login`. A git remote that is not on GitHub takes its token only from --token-env NAME or DOCDB_GIT_TOKEN.';

/** The stores' own advice names library options (`token`, `credentials`) that a CLI user cannot set. */
const LIBRARY_AUTH_ADVICE = [
  /;\s*configure token or credentials$/,
  /\s*Pass a token \(the store's `token` or `credentials` option\)\.$/,
];

/**
 * An `AuthMissing` message in the CLI's terms, on one line: what needed a token, then how to give one —
 * so the first line of the error already names the way out.
 *
 * @example
 * authMissingMessage('doc put: writing to o/r needs a token with contents: write; configure token or credentials')
 * // → 'doc put: writing to o/r needs a token with contents: write. No token was found. Set GITHUB_TOKEN …'
 */
export function authMissingMessage(message: string): string {
  const what = LIBRARY_AUTH_ADVICE.reduce((m, advice) => m.replace(advice, ''), message).replace(/[\s.;:]+$/, '');
  return `${what}. ${AUTH_HINT}`;
}

/** Advice the CLI adds to an error it did not make (which flag or variable to check), by error object. */
const advice = new WeakMap<object, string>();

/**
 * Attach the CLI's way out to an error thrown by the library (the library's message stays as it is);
 * `reportError` prints it after the message.
 *
 * @example
 * throw withAdvice(e, 'Is --api-url right? docdb used http://127.0.0.1:1 (from --api-url).');
 */
export function withAdvice<E>(e: E, text: string | undefined): E {
  if (text && typeof e === 'object' && e !== null) advice.set(e, text);
  return e;
}

/** Print an error: human on stderr; with `--json` also `{"error": {...}}` on stdout. Returns the exit code. */
export function reportError(
  io: CliIo,
  command: string,
  e: unknown,
  options: { json: boolean; secrets?: readonly string[] },
): number {
  const code = exitCodeFor(e);
  const secrets = options.secrets ?? [];
  const err = e as { code?: string; message?: string; data?: Record<string, unknown> };
  const name = e instanceof UsageError ? 'Usage' : e instanceof NotFoundResult ? 'NotFound' : (err?.code ?? 'Error');
  let message = hideSecrets(String(err?.message ?? e), secrets);
  if (name === 'AuthMissing') message = authMissingMessage(message);
  const added = typeof e === 'object' && e !== null ? advice.get(e) : undefined;
  if (added) message = `${message.replace(/[\s.]+$/, '')}. ${hideSecrets(added, secrets)}`;
  const field = typeof err?.data?.field === 'string' ? err.data.field : undefined;
  if (e instanceof DocDbError && code === EXIT.usage && field && FIELD_FLAGS[field]) {
    message = `${FIELD_FLAGS[field]}: ${message}`;
  }
  io.stderr(`docdb ${command}: ${name === 'Usage' ? '' : `${name}: `}${message}\n`);
  if (code === EXIT.usage && !(e instanceof DocDbError)) {
    const helpFor = e instanceof UsageError && e.helpFor !== undefined ? e.helpFor : command;
    io.stderr(`Run "${['docdb', helpFor, '--help'].filter(Boolean).join(' ')}" for usage.\n`);
  }
  if (options.json) {
    const error: Record<string, unknown> = { code: name, message, exitCode: code };
    if (e instanceof UsageError && e.flag) error.flag = e.flag;
    if (e instanceof DocDbError) error.data = JSON.parse(hideSecrets(JSON.stringify(e.data), secrets));
    io.stdout(`${JSON.stringify({ error })}\n`);
  }
  return code;
}

/** Print a command's result: one JSON value with `--json`, else the human text. */
export function printResult(io: CliIo, json: boolean, value: unknown, human: () => string): void {
  if (json) io.stdout(`${JSON.stringify(value)}\n`);
  else {
    const text = human();
    if (text) io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }
}
