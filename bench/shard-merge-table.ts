/**
 * The table of bench/results/shard-merge.json (bench/shard-merge.ts): the markdown file next to it, and
 * the README's figure, are rendered by this one function.
 */

/** One scenario of bench/results/shard-merge.json. */
export interface ShardMergeRow {
  shards: number;
  way: 'direct' | 'merge';
  landed: number;
  failures: Record<string, number>;
  failedDefinite: number;
  merged: boolean | null;
  documents: number;
  sameAsUnsharded: boolean;
  contentCreating: number;
  contentCreatingShards: number;
  contentCreatingMerge: number;
  budget: number;
  lostRaces: number;
  secondaryLimitAnswers: number;
  sentBeforeTheirRetryAfter: number;
  insideAnotherJobsWindow: number;
  shardRefsLeft: number;
  virtualMinutes: number;
}

/** bench/results/shard-merge.json. */
export interface ShardMergeFile {
  rows: number;
  results: ShardMergeRow[];
}

/**
 * @example
 * shardMergeTable(JSON.parse(readFileSync('bench/results/shard-merge.json', 'utf8')));
 */
export function shardMergeTable(file: ShardMergeFile): string {
  const lines = [
    `| ${file.rows} rows, one section (secondary limits on, GitHub's figures, virtual clock) | jobs land | content-creating requests (goal) | lost races | secondary-limit answers | requests before their job's retry-after | section = unsharded run |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of file.results) {
    const failed = Object.entries(r.failures)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    const lands =
      r.way === 'merge'
        ? `${r.landed}/${r.shards} + merge ${r.merged ? 'landed' : 'failed'}`
        : `${r.landed}/${r.shards}${failed ? ` (${failed}; ${r.failedDefinite} with nothing written)` : ''}`;
    const content =
      r.way === 'merge'
        ? `**${r.contentCreating}** (${r.contentCreatingShards} shards + ${r.contentCreatingMerge} merge; ≤ ${r.budget})`
        : `${r.contentCreating} (≤ ${r.budget} is merge mode's goal)`;
    const answers = `${r.secondaryLimitAnswers}${r.insideAnotherJobsWindow > 0 ? ` (${r.insideAnotherJobsWindow} requests inside another job's window)` : ''}`;
    lines.push(
      `| ${r.shards} concurrent Action runs, ${r.way} mode | ${lands} | ${content} | ${r.lostRaces} | ${answers} | ${r.sentBeforeTheirRetryAfter} | ${r.sameAsUnsharded ? 'yes' : 'no'}${r.shardRefsLeft ? `, ${r.shardRefsLeft} shard refs left` : ''} |`,
    );
  }
  return lines.join('\n');
}
