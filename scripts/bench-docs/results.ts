/**
 * The committed benchmark results (bench/results/*.json), loaded once and looked up by name. A missing file,
 * result or field is an error that names the bench to run: a figure in the docs never falls back to a guess.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackfillFile } from '../../bench/backfill-table.js';
import type { CompactionFile } from '../../bench/compaction-table.js';
import type { Row as GitHttpRow } from '../../bench/git-http.js';
import type { IndexesFile } from '../../bench/indexes-table.js';
import type { MigrateFile } from '../../bench/migrate-table.js';
import type { PeerRow, PeersFile, ScalingFile } from '../../bench/peers-table.js';
import type { ReadRow } from '../../bench/reads-table.js';
import type { RetentionFile } from '../../bench/retention-table.js';
import type { BenchResult, LatestFile } from '../../bench/run.js';
import type { SearchFile } from '../../bench/search-table.js';
import type { SecondaryLimitsFile } from '../../bench/secondary-limits-table.js';
import type { ShardMergeFile } from '../../bench/shard-merge-table.js';
import type { SqliteFile } from '../../bench/sqlite-export-table.js';
import type { ViewerFile } from '../../bench/viewer-table.js';
import type { WritesFile } from '../../bench/writes-table.js';

/** bench/results/contention.json (`npx tsx bench/contention.ts`). */
export interface ContentionFile {
  date: string;
  quick: boolean;
  library: {
    writers: number;
    putsEach: number;
    landed: number;
    of: number;
    totalRetries: number;
    maxRequestsPerRetry: number;
    meanRequestsPerRetry: number;
    retriesMeasured: number;
    retriesAtMost4Requests: number;
  };
  action: { runs: number; succeeded: number };
}

/** bench/results/git-http.json (`npx tsx bench/git-http.ts`). */
export interface GitHttpFile {
  date: string;
  node: string;
  rows: GitHttpRow[];
}

/** bench/results/reads.json (`npx tsx bench/reads.ts`). */
export interface ReadsFile {
  date: string;
  node: string;
  latencyMs: number;
  rows: ReadRow[];
}

/** Every results file the docs quote. */
export interface Results {
  reads: ReadsFile;
  latest: LatestFile;
  gitHttp: GitHttpFile;
  peers: PeersFile;
  scaling: ScalingFile;
  backfill: BackfillFile;
  contention: ContentionFile;
  secondaryLimits: SecondaryLimitsFile;
  compaction: CompactionFile;
  shardMerge: ShardMergeFile;
  viewer: ViewerFile;
  indexes: IndexesFile;
  retention: RetentionFile;
  migrate: MigrateFile;
  sqlite: SqliteFile;
  /** bench/export-formats.ts: the Parquet export and the Atom feed (rows in the SQLite bench's shape). */
  exportFormats: SqliteFile;
  /** bench/search.ts: issue 42's full-text search budgets. */
  search: SearchFile;
  /** bench/writes.ts: this build, and the build before issue 21 measured with the same script. */
  writes: WritesFile;
  writesBefore: WritesFile;
}

/** Read bench/results/{latest,git-http,peers,scaling,backfill,contention,secondary-limits,compaction,shard-merge,viewer,indexes,retention,reads,writes,writes-before,sqlite-export,export-formats,search}.json from `dir`. */
export function loadResults(dir: string): Results {
  const read = <T>(name: string, bench: string): T => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8')) as T;
    } catch (e) {
      throw new Error(`bench/results/${name} is missing or unreadable (${bench} writes it): ${(e as Error).message}`);
    }
  };
  return {
    latest: read('latest.json', 'npm run bench'),
    gitHttp: read('git-http.json', 'npx tsx bench/git-http.ts'),
    peers: read('peers.json', 'npx tsx bench/peers.ts'),
    scaling: read('scaling.json', 'npx tsx bench/peers.ts --scaling'),
    backfill: read('backfill.json', 'npx tsx bench/backfill.ts'),
    contention: read('contention.json', 'npx tsx bench/contention.ts'),
    secondaryLimits: read('secondary-limits.json', 'npx tsx bench/secondary-limits.ts'),
    compaction: read('compaction.json', 'npx tsx bench/compaction.ts'),
    shardMerge: read('shard-merge.json', 'npx tsx bench/shard-merge.ts'),
    viewer: read('viewer.json', 'npx tsx bench/viewer.ts'),
    indexes: read('indexes.json', 'npx tsx bench/indexes.ts'),
    retention: read('retention.json', 'npx tsx bench/retention.ts'),
    migrate: read('migrate.json', 'npx tsx bench/migrate.ts'),
    sqlite: read('sqlite-export.json', 'npx tsx bench/sqlite-export.ts'),
    exportFormats: read('export-formats.json', 'npx tsx bench/export-formats.ts'),
    search: read('search.json', 'npx tsx bench/search.ts --n 10000,100000'),
    reads: read('reads.json', 'npx tsx bench/reads.ts'),
    writes: read('writes.json', 'npx tsx bench/writes.ts'),
    writesBefore: read(
      'writes-before.json',
      'npx tsx bench/writes.ts --out bench/results/writes-before.json (on the old build)',
    ),
  };
}

/** The latest.json result called `name`. */
export function bench(r: Results, name: string): BenchResult {
  const found = r.latest.results.find((x) => x.name === name);
  if (!found) throw new Error(`bench/results/latest.json has no result "${name}" (npm run bench writes it)`);
  return found;
}

/** A numeric extra of the latest.json result called `name` (requests, bytes, MiB/s…). */
export function extra(r: Results, name: string, key: string): number {
  const v = bench(r, name).extra?.[key];
  if (typeof v !== 'number') throw new Error(`bench/results/latest.json "${name}" has no numeric "${key}"`);
  return v;
}

/** The row of `rows` for (strategy, N, scenario); `file` names the results file in the error. */
export function peerRow(
  rows: readonly PeerRow[],
  file: string,
  strategy: string,
  n: number,
  scenario: string,
): PeerRow {
  const row = rows.find((x) => x.strategy === strategy && x.n === n && x.scenario === scenario);
  if (!row) throw new Error(`bench/results/${file} has no row ${strategy} N=${n} "${scenario}"`);
  return row;
}

/** The git-http.json row for (store, N, operation). */
export function gitHttpRow(r: Results, store: string, n: number, op: string): GitHttpRow {
  const row = r.gitHttp.rows.find((x) => x.store === store && x.n === n && x.op === op);
  if (!row) throw new Error(`bench/results/git-http.json has no row ${store} N=${n} "${op}"`);
  return row;
}

/** The reads.json row of `read` by `strategy` at `n` documents. */
export function readRow(r: Results, read: string, strategy: string, n: number): ReadRow {
  const row = r.reads.rows.find((x) => x.read === read && x.strategy === strategy && x.n === n);
  if (!row) throw new Error(`bench/results/reads.json has no row "${read}" of ${strategy} at ${n}`);
  return row;
}
