/**
 * The token for a git remote (`--refstore git-http`, `--refstore subprocess` with an http(s) URL),
 * chosen by the remote's host so that a GitHub credential never reaches another server:
 * 1. `--token-env NAME` — the user named the variable for this command, any host;
 * 2. `$DOCDB_GIT_TOKEN` — set only for docdb's git remotes, any host (the way `docdb project`, whose
 *    `--token-env` names the sources' token, gives a non-GitHub section store its token);
 * 3. only for a GitHub host: `$GITHUB_TOKEN`, `$GH_TOKEN`, `gh auth token --hostname HOST`;
 * 4. none: anonymous (public repositories), or `AuthMissing` saying how to give one.
 *
 * A GitHub host is github.com, a `*.ghe.com` tenant, the host of `$GITHUB_SERVER_URL` (what Actions
 * sets on GitHub Enterprise Server and ghe.com runners) or the host named by `$GH_HOST` (the GitHub
 * CLI's own way to name a GitHub Enterprise host). Every other host — a Gitea, a GitLab, a test server
 * on loopback — gets a token only when the user gives one for it.
 */
import { type GhRunner, type ResolvedToken, resolveToken, tokenFromVariable } from './token.js';

/** The variable docdb reads a git remote's token from when `--token-env` is not given (any host). */
export const GIT_TOKEN_VARIABLE = 'DOCDB_GIT_TOKEN';

/** A URL's `host` (lowercase, with a non-default port), or undefined when it is not a URL. */
function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `host` (a URL's `host`: name and non-default port) is a GitHub host, to which GitHub's own
 * token sources apply.
 *
 * @example
 * isGitHubHost('github.com', {}); // true
 * isGitHubHost('gitea.example.com', {}); // false
 * isGitHubHost('ghe.corp.example', { GITHUB_SERVER_URL: 'https://ghe.corp.example' }); // true
 */
export function isGitHubHost(host: string, env: NodeJS.ProcessEnv): boolean {
  const h = host.toLowerCase();
  const hostname = h.replace(/:\d+$/, '');
  if (hostname === 'github.com' || hostname.endsWith('.ghe.com')) return h === hostname; // default port only
  if (h === hostOf(env.GITHUB_SERVER_URL)) return true;
  const named = env.GH_HOST?.trim().toLowerCase();
  return !!named && (h === named || h === hostOf(`https://${named}`));
}

/**
 * Resolve the token for a git remote (see the order above). `remote` is its http(s) URL.
 *
 * @example
 * const { token } = await resolveRemoteToken({ tokenEnv: undefined, env: process.env, remote: 'https://gitea.example.com/o/r.git' });
 * // undefined unless DOCDB_GIT_TOKEN is set: GITHUB_TOKEN is for GitHub hosts only
 */
export async function resolveRemoteToken(options: {
  /** `--token-env`: the name of the variable holding the token. */
  tokenEnv: string | undefined;
  env: NodeJS.ProcessEnv;
  remote: string;
  gh?: GhRunner;
}): Promise<ResolvedToken> {
  const { tokenEnv, env } = options;
  if (tokenEnv !== undefined) return tokenFromVariable(tokenEnv, env);
  if (env[GIT_TOKEN_VARIABLE]) return { token: env[GIT_TOKEN_VARIABLE], source: `$${GIT_TOKEN_VARIABLE}` };
  const host = hostOf(options.remote);
  if (host === undefined || !isGitHubHost(host, env)) return { token: undefined, source: 'none' };
  return resolveToken({ tokenEnv: undefined, env, ghHost: host, ...(options.gh ? { gh: options.gh } : {}) });
}
