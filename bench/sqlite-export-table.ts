/** The SQLite export benchmark's rows and table (bench/sqlite-export.ts), shared with `npm run bench:docs`. */

export interface SqliteRow {
  case: string;
  requests: number;
  bytes: number;
  ms: number;
  /** history: commits replayed and the bytes of every document version written. */
  commits?: number;
  changedBytes?: number;
  /** history: requests per commit after the first (the first: head, the commit list, its whole read). */
  perCommit?: number;
  /** history: bytes read for the commits after the first, over the bytes of the documents they changed. */
  laterRatio?: number;
}

/** bench/results/sqlite-export.json. */
export interface SqliteFile {
  date: string;
  node: string;
  rows: SqliteRow[];
}

const size = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(2)} MB` : `${(b / 1024).toFixed(1)} KB`);

/**
 * The Markdown table of the rows.
 *
 * @example
 * sqliteTable(JSON.parse(readFileSync('bench/results/sqlite-export.json', 'utf8')).rows);
 */
export function sqliteTable(rows: readonly SqliteRow[]): string {
  const lines = [
    '| export (emulator, loopback) | requests | bytes down | time | notes |',
    '|---|---:|---:|---:|---|',
    ...rows.map((r) => {
      const notes =
        r.perCommit !== undefined
          ? `after the first commit: ${r.perCommit.toFixed(2)} requests per commit, ${(r.laterRatio ?? 0).toFixed(2)}× the bytes of the documents changed; in all ${(r.bytes / (r.changedBytes ?? 1)).toFixed(2)}× the ${size(r.changedBytes ?? 0)} of document versions`
          : '';
      return `| ${r.case} | ${r.requests} | ${size(r.bytes)} | ${r.ms} ms | ${notes} |`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
