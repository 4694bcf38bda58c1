/** Timestamps as GitHub writes them. Imports nothing of the emulator. */

/** Creation date of seeded records and initial commits when none is given, so SHAs and bodies are stable. */
export const DEFAULT_DATE = '2024-01-01T00:00:00Z';

/**
 * ISO 8601 in whole seconds, the form of every timestamp in GitHub's JSON.
 *
 * @example
 * isoSeconds(Date.UTC(2024, 0, 1, 12)); // '2024-01-01T12:00:00Z'
 */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
