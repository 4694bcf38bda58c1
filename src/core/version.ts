/** VersionIds are commit SHAs on the section ref: 40 lowercase hex characters. */
import { InvalidVersion } from './errors.js';
import { assertValidPrefix } from './keys.js';
import type { ChangesOptions, VersionId } from './refstore.js';

export type { VersionId } from './refstore.js';

const VERSION_RE = /^[0-9a-f]{40}$/;

/**
 * Throw `InvalidVersion` unless `v` is a 40-hex commit SHA. Called before any I/O.
 *
 * @example
 * assertValidVersion('0123456789abcdef0123456789abcdef01234567');
 */
export function assertValidVersion(v: unknown): asserts v is VersionId {
  if (typeof v !== 'string' || !VERSION_RE.test(v)) throw new InvalidVersion(v);
}

/**
 * Check the options of `RefStore.changes` before any I/O (every store calls it): `from` (and `to`, when
 * given) must be well-formed versions, `prefix` a valid key prefix. Returns the prefix ('' by default).
 *
 * @example
 * const prefix = checkChangesOptions({ from: v1, prefix: 'github/' });
 */
export function checkChangesOptions(options: ChangesOptions): string {
  const prefix = options?.prefix ?? '';
  assertValidPrefix(prefix);
  assertValidVersion(options?.from);
  if (options.to !== undefined) assertValidVersion(options.to);
  return prefix;
}
