/**
 * The GitHub token a process finds in its environment: `GITHUB_TOKEN`, else `GH_TOKEN` (the variable Actions
 * sets, then the one the GitHub CLI reads). One order for every entry point that reads the environment — the
 * CLI (src/cli/token.ts, after `--token-env`) and the Astro loader (src/astro/) — so a token that works for one
 * works for the other. The environment is passed in: nothing here reads `process`, so the core stays
 * platform-neutral.
 */

/** The variables looked in, in order. */
export const TOKEN_VARIABLES = ['GITHUB_TOKEN', 'GH_TOKEN'] as const;

/** A token and where it came from (for messages: never the value). */
export interface EnvToken {
  token: string | undefined;
  /** `$GITHUB_TOKEN`, `$GH_TOKEN`, or `none`. */
  source: string;
}

/**
 * The first non-empty {@link TOKEN_VARIABLES} variable of `env`, or none.
 *
 * @example
 * tokenFromEnvironment({ GH_TOKEN: 't0k' }); // { token: 't0k', source: '$GH_TOKEN' }
 * tokenFromEnvironment({}); // { token: undefined, source: 'none' }
 */
export function tokenFromEnvironment(env: Readonly<Record<string, string | undefined>>): EnvToken {
  for (const name of TOKEN_VARIABLES) {
    const value = env[name];
    if (value) return { token: value, source: `$${name}` };
  }
  return { token: undefined, source: 'none' };
}
