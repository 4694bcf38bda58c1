/**
 * A projection run in plain text, for a terminal: what was projected, the counts per projection, the keys
 * that were removed (a `prune: true` projection deletes what its source no longer produces, and a newcomer
 * should see that happen), the new version and the rate limit. The Markdown job summary (action/summary.ts)
 * is for GitHub's run page; in a terminal its `<code>` and `<details>` are noise.
 */
import type { SummaryInput } from '../action/summary.js';

/** Keys listed by name before "and N more". */
export const LISTED_KEYS = 10;

/**
 * At most `max` keys, then how many were left out.
 *
 * @example
 * keyList(['a', 'b', 'c'], 2); // 'a, b and 1 more'
 */
export function keyList(keys: readonly string[], max = LISTED_KEYS): string {
  const shown = keys.slice(0, max).join(', ');
  return keys.length > max ? `${shown} and ${keys.length - max} more` : shown;
}

/**
 * A document's one-word name (`namespace/type/id`, what `docdb doc get` and `doc changes` take and print)
 * from its key in the section, which ends in `.json`.
 *
 * @example
 * documentName('github/repo/octo-org/api.json'); // 'github/repo/octo-org/api'
 */
export function documentName(key: string): string {
  return key.endsWith('.json') ? key.slice(0, -'.json'.length) : key;
}

/** One line per projection, columns aligned. */
function projectionLines(input: SummaryInput): string[] {
  const rows = input.report.projections.map((p) => [
    p.name,
    `${p.source}${p.incremental ? ' (incremental)' : ''}`,
    `${p.added.length} added, ${p.changed.length} modified, ${p.removed.length} removed, ${p.unchanged} unchanged` +
      (p.skipped ? `, ${p.skipped} skipped` : '') +
      (p.notModified ? `, ${p.notModified} page(s) not modified` : ''),
  ]);
  const width = (i: number) => rows.reduce((w, r) => Math.max(w, (r[i] as string).length), 0);
  const [w0, w1] = [width(0), width(1)];
  return rows.map(([name, source, counts]) => `  ${name?.padEnd(w0)}  ${source?.padEnd(w1)}  ${counts}`);
}

/**
 * Every skip with its reason (issue 37 item 15): one line per projection and reason, with the documents the
 * skipped items would have been (the first few).
 */
function skipLines(input: SummaryInput): string[] {
  return input.report.projections.flatMap((p) =>
    (p.skips ?? []).map((s) => {
      const names = s.keys.map(documentName);
      const shown = s.count > names.length ? `${names.join(', ')} and ${s.count - names.length} more` : keyList(names);
      return `${s.count} skipped in ${p.name}: ${s.reason}: ${shown}`;
    }),
  );
}

/** What happened to the section: the commit, no change, or (dry run) what would change. */
function outcomeLine(input: SummaryInput): string {
  const { report } = input;
  if (report.mode === 'dry-run') return `dry run: ${report.keys.length} document(s) would change; nothing was written`;
  if (report.changed && report.version) {
    const signed = input.verification
      ? input.verification.verified
        ? '; verified (signed by GitHub)'
        : `; not verified (${input.verification.reason || 'unsigned'})`
      : '';
    return `new version ${report.version} (${report.previousVersion ? `previous ${report.previousVersion}` : 'section created'})${signed}`;
  }
  return `no changes: no commit, no write request; the section is at ${report.version ?? '(no section yet)'}`;
}

/**
 * Render a run for a terminal: no Markdown, no HTML, no workflow commands.
 *
 * @example
 * io.stdout(renderTextSummary({ report, repository: 'octo-org/widgets', serverUrl: '', requests: 12 }));
 * // docdb project: refs/docdb/documents in octo-org/widgets
 * //   repos  repository  2 added, 0 modified, 1 removed, 0 unchanged
 * // 1 removed: github/repo/octo-org/api
 * // new version 2ce87ab… (previous 9f1c…)
 * // 12 requests, rate limit left 4988/5000 (resets 2026-11-27T22:00:00.000Z)
 */
export function renderTextSummary(input: SummaryInput): string {
  const { report } = input;
  const title = report.mode === 'dry-run' ? 'docdb dry run (nothing written)' : `docdb ${report.mode}`;
  const shard = report.shard && report.shard.count > 1 ? ` (shard ${report.shard.index}/${report.shard.count})` : '';
  const removed = report.projections.flatMap((p) => p.removed.map(documentName)).sort();
  const rl = input.rateLimit;
  return `${[
    `${title}: ${report.ref} in ${input.repository}${shard}`,
    ...projectionLines(input),
    ...skipLines(input),
    ...(removed.length
      ? [`${removed.length} ${report.mode === 'dry-run' ? 'would be removed' : 'removed'}: ${keyList(removed)}`]
      : []),
    outcomeLine(input),
    `${input.requests} request(s)` +
      (rl ? `, rate limit left ${rl.remaining}/${rl.limit} (resets ${new Date(rl.reset * 1000).toISOString()})` : ''),
  ].join('\n')}\n`;
}

/**
 * A run told only by the Action's step outputs (what `docdb demo` has of the built dist/index.js run):
 * the counts, the version and the rate limit, in plain text.
 *
 * @example
 * outputsSummary({ changed: 'true', written: '3', deleted: '0', unchanged: '0', version: 'ab…', requests: '9' });
 * // '3 document(s) written (added or modified), 0 removed, 0 unchanged\nnew version ab… (section created)\n9 request(s)\n'
 */
export function outputsSummary(
  outputs: Readonly<Record<string, string | undefined>>,
  /** The removed documents' names, when the caller could read them (the outputs give only their number). */
  removed?: readonly string[],
): string {
  const o = (k: string) => outputs[k] ?? '';
  const deleted = Number(o('deleted') || 0);
  const version =
    o('changed') === 'true'
      ? `new version ${o('version')} (${o('previous-version') ? `previous ${o('previous-version')}` : 'section created'})`
      : `no changes: no commit; the section is at ${o('version') || '(no section yet)'}`;
  const rate = o('rate-limit-remaining')
    ? `, rate limit left ${o('rate-limit-remaining')} (resets ${o('rate-limit-reset')})`
    : '';
  return `${[
    `${o('written') || 0} document(s) written (added or modified), ${o('deleted') || 0} removed, ${o('unchanged') || 0} unchanged`,
    ...(deleted > 0 ? [removedLine(deleted, removed, o('previous-version'))] : []),
    version,
    `${o('requests') || 0} request(s)${rate}`,
  ].join('\n')}\n`;
}

/**
 * What prune removed, told from step outputs: by name when the caller read them, else how many and where
 * they are named (the Action's outputs list removed keys only among all the changed `keys`).
 */
function removedLine(count: number, removed: readonly string[] | undefined, previousVersion: string): string {
  if (removed && removed.length > 0) return `${removed.length} removed: ${keyList([...removed].sort())}`;
  return `${count} removed by prune, named in the Markdown job summary (GITHUB_STEP_SUMMARY) and by docdb doc changes --since ${previousVersion.slice(0, 7) || 'PREVIOUS'} (lines D)`;
}
