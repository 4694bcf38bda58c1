/**
 * The secrets of a run, redacted from every error `runProjections` throws (library use included, not only
 * where the Action or the CLI print it): the token the client sends, whatever its shape — GitHub-shaped
 * tokens are redacted anyway, a GHES, proxy or legacy 40-hex token is not recognisable by shape — and the
 * values of the `http` sources' secret headers. An upstream may echo either in an error body, which source
 * errors quote. They are looked up only when an error is on its way out.
 */
import { redactError } from '../../core/redact.js';
import type { RunOptions } from './options.js';

/**
 * `e` with every secret of the run replaced by `[REDACTED]` in its message, stack, data and causes.
 *
 * @example
 * try { … } catch (e) { throw await redactRunError(e, options); }
 */
export async function redactRunError(e: unknown, options: RunOptions): Promise<unknown> {
  return redactError(e, [await clientToken(options.client), ...headerSecrets(options)]);
}

/**
 * The token of an Octokit client: its `auth()` hook answers `{ type: 'token', token }` for a token (and
 * throws or answers without a token for other strategies, e.g. a GitHub App, whose tokens are GitHub-shaped).
 */
async function clientToken(client: RunOptions['client']): Promise<string | undefined> {
  const auth = (client as { auth?: unknown }).auth;
  if (typeof auth !== 'function') return undefined;
  try {
    const answer = (await auth.call(client)) as { token?: unknown } | undefined;
    return typeof answer?.token === 'string' ? answer.token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The environment `http` sources read secret headers from: the run's `env`, else `process.env` where it exists.
 *
 * @example
 * envOf({ ...options, env: { DATA_API_KEY: 'k' } }).DATA_API_KEY; // 'k'
 */
export function envOf(options: Pick<RunOptions, 'env'>): Readonly<Record<string, string | undefined>> {
  return options.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** The values of the environment variables `http` sources send as a secret header. */
function headerSecrets(options: RunOptions): string[] {
  const env = envOf(options);
  return options.spec.projections.flatMap((p) => {
    const value = p.source.type === 'http' && p.source.header ? env[p.source.header.env] : undefined;
    return value ? [value] : [];
  });
}
