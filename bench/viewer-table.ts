/** bench/results/viewer.json as the README's table (bench/viewer.ts writes it; npm run bench:docs renders it). */

export interface ViewerFile {
  date: string;
  latencyMs: number;
  rows: { action: string; goal: string; requests: number; notModified: number; ms: number }[];
  pageWeight: { gzipBytes: number; jsGzipBytes: number; budget: number };
}

/**
 * @example
 * console.log(viewerTable(JSON.parse(readFileSync('bench/results/viewer.json', 'utf8'))));
 */
export function viewerTable(file: ViewerFile): string {
  return [
    `| visitor action, cold cache | goal (API requests) | measured | of which 304 | wall time at ${file.latencyMs} ms/request |`,
    '|---|---|---|---|---|',
    ...file.rows.map((r) => `| ${r.action} | ${r.goal} | ${r.requests} | ${r.notModified} | ${r.ms} ms |`),
    `| page weight, everything included (HTML + JS + CSS) | ≤ ${file.pageWeight.budget / 1024} KB min+gzip | ${(file.pageWeight.gzipBytes / 1024).toFixed(1)} KB | | |`,
  ].join('\n');
}
