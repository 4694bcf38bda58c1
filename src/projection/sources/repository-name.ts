/** `owner/name` split at its first slash (every reader names repositories this way), and its template variables. */

/**
 * @example
 * splitRepository('octo/hello.js'); // { owner: 'octo', name: 'hello.js' }
 */
export function splitRepository(full: string): { owner: string; name: string } {
  const i = full.indexOf('/');
  return { owner: full.slice(0, i), name: full.slice(i + 1) };
}

/**
 * The template variables every per-repository source gives its items: `{owner}`, `{name}`, `{repo}`.
 *
 * @example
 * repositoryVars('octo/hello'); // { owner: 'octo', name: 'hello', repo: 'octo/hello' }
 */
export function repositoryVars(full: string): { owner: string; name: string; repo: string } {
  return { ...splitRepository(full), repo: full };
}
