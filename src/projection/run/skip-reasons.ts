/**
 * Why a projection skipped an item (issue 37 item 15: "1 skipped" alone leaves the reader guessing). An
 * item is skipped when its reducer returns null, or when an incremental run sees it no longer matching the
 * source's filter (an issue closed while `state: open`); each skip is counted under its reason, with the
 * first few document keys it would have had, and every report (progress line, text and Markdown summaries,
 * `--json`) carries the reasons.
 */
import type { ProjectionSpec } from '../spec/index.js';

/** Document keys kept per reason (the count is exact; the keys are examples). */
export const SKIP_KEYS_KEPT = 10;

/** The items of a projection skipped for one reason. */
export interface ProjectionSkip {
  /** Why, in words: "the reducer ./reducers/notes.mjs returned null", "it does not match the source filter (state: open)…". */
  reason: string;
  /** How many items were skipped for it. */
  count: number;
  /** The document keys those items would have had, the first SKIP_KEYS_KEPT. */
  keys: string[];
}

/**
 * The reason for an item whose reducer returned null, naming the reducer.
 *
 * @example
 * reducerSkipReason(p); // 'the reducer ./reducers/release-notes.mjs returned null (its way to skip an item)'
 */
export function reducerSkipReason(p: ProjectionSpec): string {
  const r = p.reducer;
  const which =
    'builtin' in r
      ? `the built-in reducer "${r.builtin}"`
      : `the reducer ${r.module}${r.export !== 'default' ? ` (export ${r.export})` : ''}`;
  return `${which} returned null (its way to skip an item)`;
}

/**
 * The reason for an item that does not match the source's filter (an incremental run sees items that left
 * it, e.g. an issue closed while `state: open`), naming the filter.
 *
 * @example
 * filterSkipReason(p); // 'it does not match the source filter (state: open, labels: bug); its document is pruned'
 */
export function filterSkipReason(p: ProjectionSpec): string {
  const s = p.source as { state?: string; labels?: string[]; base?: string };
  const filter = [
    s.state !== undefined ? `state: ${s.state}` : '',
    s.labels?.length ? `labels: ${s.labels.join(', ')}` : '',
    s.base !== undefined ? `base: ${s.base}` : '',
  ].filter(Boolean);
  const prune = p.prune ? 'its document is pruned' : 'its document stays (prune is off)';
  return `it does not match the source filter${filter.length ? ` (${filter.join(', ')})` : ''}; ${prune}`;
}

/**
 * Count one skip of `key` under `reason`.
 *
 * @example
 * addSkip(report.skips, reducerSkipReason(p), 'github/release/octo/a@v1.json');
 */
export function addSkip(skips: ProjectionSkip[], reason: string, key: string): void {
  let entry = skips.find((s) => s.reason === reason);
  if (!entry) {
    entry = { reason, count: 0, keys: [] };
    skips.push(entry);
  }
  entry.count++;
  if (entry.keys.length < SKIP_KEYS_KEPT) entry.keys.push(key);
}

/**
 * The skips in one phrase, for a progress line: each reason with its count.
 *
 * @example
 * skipsPhrase([{ reason: 'the reducer x.mjs returned null (…)', count: 2, keys: [] }]); // '2 because the reducer x.mjs returned null (…)'
 */
export function skipsPhrase(skips: readonly ProjectionSkip[]): string {
  return skips.map((s) => `${s.count} because ${s.reason}`).join('; ');
}
