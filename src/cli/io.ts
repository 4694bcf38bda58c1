/**
 * The CLI's input/output: where output goes (injectable for tests), the exit codes, and the one way
 * every command prints a result or an error — so errors from every store look the same.
 */
import { DocDbError } from '../core/errors.js';
import { redactText } from '../core/redact.js';

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
}

/** The process's own streams. */
export function processIo(): CliIo {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
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

/** Library error fields that come straight from a flag, so a usage error can name the flag. */
const FIELD_FLAGS: Record<string, string> = {
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
  mode: '--mode',
  spec: '--spec',
  projections: '--projections',
  'commit-message': '--commit-message',
  'retry-concurrent-writes': '--retry-concurrent-writes',
  repository: '--repo',
  'api-url': '--api-url',
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
