/** The one identity of a token docdb keys things by (caches, ETags, rate-limit gates), never the token itself. */
import { utf8 } from './bytes.js';
import { sha1Hex } from './git/sha1.js';

/**
 * Identity of a token for cache keys and rate-limit gates: SHA-1 of a domain-separated string, so equal
 * tokens share ETags and different tokens never do, and the token cannot be read back from the key.
 * `undefined` (no token) is the anonymous identity.
 *
 * @example
 * tokenIdentity(undefined); // 'anonymous'
 * tokenIdentity('ghp_…'); // 40 hex characters
 */
export function tokenIdentity(token: string | undefined): string {
  if (token === undefined || token === '') return 'anonymous';
  return sha1Hex(utf8(`docdb token identity v1\u0000${token}`));
}
