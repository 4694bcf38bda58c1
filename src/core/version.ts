/** VersionIds are commit SHAs on the section ref: 40 lowercase hex characters. */
import { InvalidVersion } from './errors.js';

/** A commit SHA on the section ref. */
export type VersionId = string;

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
