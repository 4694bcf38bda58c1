/**
 * The shapes of names and addresses a spec may contain — repository names, `owner/*` selectors, key
 * segments, `rest` endpoint paths, plain-http hosts — as plain functions and regular expressions. A leaf
 * module because the same rules are checked twice: once when the spec is parsed, and again where a value
 * comes back from an untrusted place (the state file's repository names, an API URL before the token is
 * sent to it: see sources/api-url.ts).
 */

export const REPO_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
/** `owner/*`: every repository of an organisation or user. */
export const OWNER_WILDCARD_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/\*$/;
/** One segment of a document key (`namespace`, `type`). */
export const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `GET /path` on the API origin; `{owner}`, `{name}` and `{repo}` are filled per repository. */
export const ENDPOINT_RE =
  /^GET (\/(?:[A-Za-z0-9._~%-]+|\{(?:owner|name|repo)\})(?:\/(?:[A-Za-z0-9._~%-]+|\{(?:owner|name|repo)\}))*)$/;

/**
 * Loopback hosts, the only ones a plain-http URL may name.
 *
 * @example
 * isLoopbackHost(new URL('http://127.0.0.1:8080').hostname); // true
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}

/**
 * A segment that is, or that a server could read as, `.`/`..` after decoding (`..`, `%2e%2e`, `..%2f`,
 * `%2e%5c`).
 *
 * @example
 * hasDotSegment('/repos/o/r/%2e%2e/x'); // true
 * hasDotSegment('/repos/o/r/issues'); // false
 */
export function hasDotSegment(path: string): boolean {
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return true; // malformed escapes: refuse rather than guess how a server decodes them
    }
    if (decoded.split(/[\\/]/).some((part) => part === '.' || part === '..')) return true;
  }
  return false;
}
