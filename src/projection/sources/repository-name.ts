/** `owner/name` split at its first slash (every reader names repositories this way). */

/**
 * @example
 * splitRepository('octo/hello.js'); // { owner: 'octo', name: 'hello.js' }
 */
export function splitRepository(full: string): { owner: string; name: string } {
  const i = full.indexOf('/');
  return { owner: full.slice(0, i), name: full.slice(i + 1) };
}
