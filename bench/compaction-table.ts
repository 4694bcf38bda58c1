/**
 * The table of bench/results/compaction.json (bench/compaction.ts): the markdown file next to it and the
 * docs' `<!-- bench:compaction -->` figure are rendered by this one function.
 */

/** One compaction of the benchmark (bench/compaction-world.ts `CompactionRun`, without the result). */
export interface CompactionRow {
  scenario: string;
  requests: number;
  listPages: number;
  createCommit: number;
  graphqlQueries: number;
  graphqlMutations: number;
  contentCreating: number;
  secondaryLimitAnswers: number;
  insideRetryAfter: number;
  /** Virtual minutes: the wall time GitHub's limits imply, with requests taking no time. */
  minutes: number;
  /** Milliseconds this machine took (client and in-process emulator). */
  wallMs: number;
  /** The error's code when it stopped. */
  error?: string;
  /** The section afterwards: `compacted` (the kept commits, each with its original's tree), `untouched`. */
  section: 'compacted' | 'untouched' | 'other';
}

/** bench/results/compaction.json. */
export interface CompactionFile {
  date: string;
  node: string;
  commits: number;
  keep: number;
  cutAfter: number;
  limits: { perMinute: number; perHour: number };
  rows: CompactionRow[];
}

const int = (n: number) => n.toLocaleString('en-US');
const count = (n: number, one: string, many = `${one}s`) => `${int(n)} ${n === 1 ? one : many}`;

/** "62 min" / "1 h 57 min". */
function duration(minutes: number): string {
  const m = Math.round(minutes);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * @example
 * compactionTable(JSON.parse(readFileSync('bench/results/compaction.json', 'utf8')));
 */
export function compactionTable(f: CompactionFile): string {
  const budget = f.keep + 10;
  return [
    `| ${int(f.commits)} commits → the last ${int(f.keep)} (emulator, secondary limits on: ${f.limits.perMinute}/min, ${f.limits.perHour}/h) | requests (budget ${int(budget)}) | content-creating | secondary-limit answers | wall time at GitHub's limits | section after |`,
    '|---|---:|---:|---:|---:|---|',
    ...f.rows.map(
      (r) =>
        `| ${r.scenario} | ${int(r.requests)} (${count(r.listPages, 'listing page')}, ${count(r.createCommit, '`POST /git/commits`', '`POST /git/commits`')}, ${count(r.graphqlQueries, 'id query', 'id queries')}, ${r.graphqlMutations} \`updateRefs\`) | ${int(r.contentCreating)} | ${r.secondaryLimitAnswers}${r.insideRetryAfter ? ` (${r.insideRetryAfter} inside a retry-after)` : ''} | ${duration(r.minutes)} | ${r.section}${r.error ? ` (stopped: ${r.error})` : ''} |`,
    ),
  ].join('\n');
}

/**
 * One sentence of the first row: "8,760 → 720 in 730 requests (budget 730), 721 content-creating, 0
 * secondary-limit answers, 1 h 2 min at GitHub's limits".
 *
 * @example
 * compactionSummary(JSON.parse(readFileSync('bench/results/compaction.json', 'utf8')));
 */
export function compactionSummary(f: CompactionFile): string {
  const r = f.rows[0];
  if (!r) throw new Error('bench/results/compaction.json has no rows (npx tsx bench/compaction.ts writes them)');
  return `${int(f.commits)} → ${int(f.keep)} in ${int(r.requests)} requests (budget ${int(f.keep + 10)}), ${int(r.contentCreating)} content-creating, ${r.secondaryLimitAnswers} secondary-limit answers, ${duration(r.minutes)} at GitHub's limits`;
}
