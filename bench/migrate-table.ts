/** The table of bench/results/migrate.json (bench/migrate.ts), as docs/migrations.md shows it (scripts/bench-docs). */

/** One scenario of bench/migrate.ts. */
export interface MigrateRow {
  scenario: string;
  requests: number;
  contentCreating: number;
  /** requests / the from-scratch write's requests (absent on that row). */
  ratio?: number;
  commits: number;
  wallMs: number;
  heapMiB: number;
  counts?: unknown;
  /** Requests other than create-tree, by `METHOD operation status`. */
  reads?: Record<string, number>;
}

/** bench/results/migrate.json. */
export interface MigrateFile {
  date: string;
  node: string;
  documents: number;
  budgetRatio: number;
  rows: MigrateRow[];
}

/**
 * The Markdown table of a run.
 *
 * @example
 * console.log(migrateTable(JSON.parse(readFileSync('bench/results/migrate.json', 'utf8'))));
 */
export function migrateTable(file: MigrateFile): string {
  return [
    `Migrating ${file.documents.toLocaleString('en-US')} documents of ~1.2 KB on the emulator (cold store, archive reads; ${file.date.slice(0, 10)}, Node ${file.node}):`,
    '',
    '| scenario | requests | content-creating | × from scratch | commits | time | heap after |',
    '|---|---|---|---|---|---|---|',
    ...file.rows.map(
      (r) =>
        `| ${r.scenario} | ${r.requests} | ${r.contentCreating} | ${r.ratio === undefined ? '—' : `${r.ratio}×`} | ${r.commits} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.heapMiB} MiB |`,
    ),
  ].join('\n');
}
