/**
 * The read benchmark's rows and table (bench/reads.ts writes them; `npm run bench:docs` renders the README's
 * table from bench/results/reads.json with the same code). Pure: no I/O.
 */

export interface ReadRow {
  read: string;
  strategy: string;
  n: number;
  requests: number;
  bytes: number;
  ms: number;
}

const human = (b: number) =>
  b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(2)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${b} B`;

/** The markdown table of read rows. */
export function table(rows: readonly ReadRow[]): string {
  const out = ['| read | strategy | N | requests | bytes down | time |', '|---|---|---:|---:|---:|---:|'];
  for (const r of rows)
    out.push(
      `| ${r.read} | ${r.strategy} | ${r.n.toLocaleString('en-US')} | ${r.requests} | ${human(r.bytes)} | ${r.ms} ms |`,
    );
  return out.join('\n');
}

/** Reads the README compares with the peers (the others are docdb's alone: warm, history, cold put). */
const COMPARED = ['cold get', 'pinned get', 'changes', 'all'];

/**
 * The rows the README shows: docdb at every size, and the peers for every read they were measured on (cold and
 * pinned get, changes, every document).
 *
 * @example
 * table(readmeRows(results.rows));
 */
export function readmeRows(rows: readonly ReadRow[]): ReadRow[] {
  return rows.filter((r) => r.strategy === 'docdb' || COMPARED.some((read) => r.read.startsWith(read)));
}
