/**
 * Where the CLI's token comes from — never a flag value (it would sit in shell history and in the
 * process list): `--token-env NAME`, else `GITHUB_TOKEN`, else `GH_TOKEN`, else `gh auth token` when
 * the GitHub CLI is installed and logged in, else none (anonymous reads of public repositories).
 * This order is for GitHub itself (the API store); a git remote's token is chosen by its host in
 * token-remote.ts, so a GitHub token never goes to another host.
 */
import { spawn } from 'node:child_process';
import { tokenFromEnvironment } from '../core/env-token.js';
import { UsageError } from './io.js';

export interface ResolvedToken {
  token: string | undefined;
  /** Where it came from, for messages (never the value): `$GITHUB_TOKEN`, `gh auth token`, `none`. */
  source: string;
}

/** Runs `gh auth token --hostname HOST`; resolves the token or undefined (gh missing / not logged in). */
export type GhRunner = (host: string, env: NodeJS.ProcessEnv) => Promise<string | undefined>;

/** The real GitHub CLI (https://cli.github.com/manual/gh_auth_token). */
export const runGh: GhRunner = (host, env) =>
  new Promise((resolve) => {
    let out = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('gh', ['auth', 'token', '--hostname', host], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      resolve(undefined);
      return;
    }
    const timer = setTimeout(() => child.kill(), 10_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined); // gh is not installed
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const token = out.trim();
      resolve(code === 0 && /^[\x21-\x7e]+$/.test(token) ? token : undefined);
    });
  });

/** The host `gh` knows a token for: github.com for api.github.com, the server for GHES `/api/v3`. */
export function ghHostFor(apiUrl: string): string {
  const host = new URL(apiUrl).host;
  return host === 'api.github.com' ? 'github.com' : host;
}

/**
 * Resolve the token for a command.
 *
 * @example
 * const { token } = await resolveToken({ tokenEnv: undefined, env: process.env, ghHost: 'github.com' });
 */
export async function resolveToken(options: {
  /** `--token-env`: the name of the variable holding the token. */
  tokenEnv: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Host to ask `gh` about; undefined skips `gh`. */
  ghHost: string | undefined;
  gh?: GhRunner;
}): Promise<ResolvedToken> {
  const { tokenEnv, env } = options;
  if (tokenEnv !== undefined) return tokenFromVariable(tokenEnv, env);
  const fromEnv = tokenFromEnvironment(env);
  if (fromEnv.token !== undefined) return fromEnv;
  if (options.ghHost) {
    const token = await (options.gh ?? runGh)(options.ghHost, env);
    if (token) return { token, source: 'gh auth token' };
  }
  return { token: undefined, source: 'none' };
}

/**
 * The token in the variable `--token-env` names: a usage error when the name is not a variable name
 * (someone passed the token itself) or the variable is unset or empty — never a silent fallback.
 *
 * @example
 * tokenFromVariable('GITEA_TOKEN', { GITEA_TOKEN: 't0k' }); // { token: 't0k', source: '$GITEA_TOKEN' }
 */
export function tokenFromVariable(tokenEnv: string, env: NodeJS.ProcessEnv): ResolvedToken {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv)) {
    throw new UsageError(
      `--token-env takes the NAME of an environment variable (letters, digits, _), not a token`,
      '--token-env',
    );
  }
  const value = env[tokenEnv];
  if (value === undefined || value === '') {
    throw new UsageError(`--token-env ${tokenEnv}: the environment variable ${tokenEnv} is not set`, '--token-env');
  }
  return { token: value, source: `$${tokenEnv}` };
}
