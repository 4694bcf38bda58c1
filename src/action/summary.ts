/** The Markdown job summary: one row per projection, the commit link, requests and rate limit. */
import type { RateLimit } from '../core/refstore.js';
import type { RunReport } from '../projection/run.js';

export interface SummaryInput {
  report: RunReport;
  repository: string;
  serverUrl: string;
  requests: number;
  rateLimit?: RateLimit | undefined;
}

const esc = (s: string) => s.replace(/\|/g, '\\|');

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
  lines.push(`### ${title}: \`${report.ref}\` in ${input.repository}${shard}`, '');
  lines.push('| Projection | Source | Added | Changed | Removed | Unchanged | Skipped |');
  lines.push('|---|---|--:|--:|--:|--:|--:|');
  for (const p of report.projections) {
    lines.push(
      `| ${esc(p.name)} | ${p.source}${p.incremental ? ' (incremental)' : ''}${p.notModified ? ` (${p.notModified} page(s) not modified)` : ''} | ${p.added.length} | ${p.changed.length} | ${p.removed.length} | ${p.unchanged} | ${p.skipped} |`,
    );
  }
  lines.push('');
  const server = input.serverUrl.replace(/\/+$/, '');
  if (report.mode === 'dry-run') {
    lines.push(`Dry run: ${report.keys.length} document(s) would change; nothing was written.`);
  } else if (report.changed && report.version) {
    lines.push(
      `Commit: [\`${report.version.slice(0, 7)}\`](${server}/${input.repository}/commit/${report.version})` +
        (report.previousVersion ? ` (previous \`${report.previousVersion.slice(0, 7)}\`)` : ' (section created)'),
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
      ...shown.map((k) => `- \`${k}\``),
      ...(report.keys.length > shown.length ? [`- … and ${report.keys.length - shown.length} more`] : []),
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n`;
}
