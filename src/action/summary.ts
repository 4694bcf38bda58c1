/** The Markdown job summary: one row per projection, the commit link, requests and rate limit. */

import { code, mdText } from '../core/markdown-text.js';
import type { RateLimit } from '../core/refstore.js';
import type { RunReport } from '../projection/run/index.js';

// Moved down to src/core/markdown-text.ts (shared with src/review/); re-exported for the modes that use them.
export { code, mdText };

export interface SummaryInput {
  report: RunReport;
  repository: string;
  serverUrl: string;
  requests: number;
  rateLimit?: RateLimit | undefined;
  /** `verification` of the commit this run made, from GitHub's create-commit reply. */
  verification?: { verified: boolean; reason: string };
}

/** Removed keys named in the summary's text before "and N more" (all changed keys are in the <details> list). */
const REMOVED_SHOWN = 10;

/**
 * Render the job summary (GitHub-flavoured Markdown).
 *
 * @example
 * await core.summary.addRaw(renderSummary({ report, repository, serverUrl, requests })).write();
 */
export function renderSummary(input: SummaryInput): string {
  const { report } = input;
  const lines: string[] = [];
  const title = report.mode === 'dry-run' ? 'docdb dry run (nothing written)' : `docdb ${report.mode}`;
  const shard = report.shard && report.shard.count > 1 ? ` (shard ${report.shard.index}/${report.shard.count})` : '';
  lines.push(`### ${title}: ${code(report.ref)} in ${mdText(input.repository)}${shard}`, '');
  lines.push('| Projection | Source | Added | Changed | Removed | Unchanged | Skipped |');
  lines.push('|---|---|--:|--:|--:|--:|--:|');
  for (const p of report.projections) {
    lines.push(
      `| ${mdText(p.name)} | ${mdText(p.source)}${p.incremental ? ' (incremental)' : ''}${p.notModified ? ` (${p.notModified} page(s) not modified)` : ''} | ${p.added.length} | ${p.changed.length} | ${p.removed.length} | ${p.unchanged} | ${p.skipped} |`,
    );
  }
  lines.push('');
  // Every skip says why (issue 37 item 15), with the documents the skipped items would have been.
  for (const p of report.projections) {
    for (const sk of p.skips ?? []) {
      const more = sk.count - sk.keys.length;
      lines.push(
        `**${sk.count} skipped** in ${mdText(p.name)}: ${mdText(sk.reason)}: ${sk.keys.map(code).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
        '',
      );
    }
  }
  // Pruned documents are named outside the folded list: a deletion should not go unnoticed.
  const removed = report.projections.flatMap((p) => p.removed).sort();
  if (removed.length > 0) {
    const shown = removed.slice(0, REMOVED_SHOWN);
    const more = removed.length - shown.length;
    lines.push(
      `**${removed.length} ${report.mode === 'dry-run' ? 'would be removed' : 'removed'}**: ${shown.map(code).join(', ')}${more ? ` and ${more} more` : ''}`,
      '',
    );
  }
  const server = input.serverUrl.replace(/\/+$/, '');
  if (report.mode === 'dry-run') {
    lines.push(`Dry run: ${report.keys.length} document(s) would change; nothing was written.`);
  } else if (report.changed && report.version) {
    lines.push(
      `Commit: [\`${report.version.slice(0, 7)}\`](${server}/${input.repository}/commit/${report.version})` +
        (report.previousVersion ? ` (previous \`${report.previousVersion.slice(0, 7)}\`)` : ' (section created)') +
        (input.verification
          ? input.verification.verified
            ? ' · verified (signed by GitHub)'
            : ` · not verified (${mdText(input.verification.reason || 'unsigned')})`
          : ''),
    );
  } else {
    lines.push(
      `No changes: no commit, no write request. Section tip ${report.version ? `\`${report.version.slice(0, 7)}\`` : '(section does not exist yet)'}.`,
    );
  }
  const rl = input.rateLimit;
  lines.push(
    '',
    `Requests: ${input.requests}` +
      (rl ? ` · rate limit left: ${rl.remaining}/${rl.limit} (resets ${new Date(rl.reset * 1000).toISOString()})` : ''),
  );
  if (report.keys.length > 0) {
    const shown = report.keys.slice(0, 100);
    lines.push(
      '',
      `<details><summary>${report.keys.length} changed document key(s)</summary>`,
      '',
      ...shown.map((k) => `- ${code(k)}`),
      ...(report.keys.length > shown.length ? [`- … and ${report.keys.length - shown.length} more`] : []),
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n`;
}
