/**
 * Tables the docs show, each rendered from one results file: the peers summary and docdb's scaling series
 * (by the same code as bench/results/*.md), the store comparison, the sources runs and the backfill memory.
 */

import { compactionTable } from '../../bench/compaction-table.js';
import { indexesTable } from '../../bench/indexes-table.js';
import { migrateTable } from '../../bench/migrate-table.js';
import { peersSummaryTable, scalingRowsTable } from '../../bench/peers-table.js';
import { readmeRows, table as readsTable } from '../../bench/reads-table.js';
import { sizesTable } from '../../bench/retention-table.js';
import { searchTable } from '../../bench/search-table.js';
import { secondaryLimitsTable } from '../../bench/secondary-limits-table.js';
import { shardMergeTable } from '../../bench/shard-merge-table.js';
import { sqliteTable } from '../../bench/sqlite-export-table.js';
import { viewerTable } from '../../bench/viewer-table.js';
import { writesSummary } from '../../bench/writes-table.js';
import { bytes, duration, int, mib, ms } from './format.js';
import { bench, extra, gitHttpRow, type Results } from './results.js';

type Table = (r: Results) => string;

const STORES = [
  ['GitRefStore', 'GitRefStore (local bare repository)'],
  ['SubprocessGitRefStore (file://)', 'SubprocessGitRefStore (`file://` remote)'],
  ['RemoteApiRefStore (emulator)', 'RemoteApiRefStore (emulator on loopback)'],
] as const;

/** bench/stores.ts at 10,000 documents: one row per store; requests per operation where counted. */
function storesTable(r: Results): string {
  const cell = (name: string, what: string, fmt: (x: number) => string) => {
    const x = bench(r, `${name}: ${what}`);
    const req = x.extra?.requestsPerOp;
    return req === undefined ? fmt(x.perOpMs) : `${fmt(x.perOpMs)} (${req} request${req === 1 ? '' : 's'})`;
  };
  const rows = STORES.map(
    ([name, label]) =>
      `| ${label} | ${cell(name, 'putMany 10000 docs (one commit)', duration)} | ${cell(name, 'list 10000 keys', ms)} | ` +
      `${cell(name, 'warm get (10000-doc section)', ms)} | ${cell(name, 'put 1 doc (10000-doc section)', ms)} |`,
  );
  return [
    '| Store | 10,000-doc batch | list 10,000 keys | warm get | put 1 doc |',
    '|---|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/** bench/sources.ts: whole Action runs over 10, 200 and 1,000 repositories. */
function sourcesTable(r: Results): string {
  const row = (n: number) => {
    const x = (what: string) => `sources ${n} repos: ${what}`;
    const req = (what: string) => int(extra(r, x(what), 'requests'));
    const budget = (what: string) => int(extra(r, x(what), 'restBudget'));
    const time = (what: string) => duration(bench(r, x(what)).perOpMs);
    const first = 'REST one by one (first run)';
    const fresh = 'REST re-run, fresh token (no 304)';
    const same = 'REST conditional re-run (304s)';
    const gql = 'GraphQL (first run)';
    const gqlAgain = 'GraphQL re-run';
    return (
      `| ${int(n)} | ${req(first)} req · ${budget(first)} budget · ${time(first)} | ${req(fresh)} · ${budget(fresh)} · ${time(fresh)} | ` +
      `${req(same)} req · **${budget(same)}** budget (${int(extra(r, x(same), 'notModified'))} × 304) · ${time(same)} | ` +
      `**${req(gql)} req** · ${budget(gql)} + ${int(extra(r, x(gql), 'graphqlPoints'))} points · ${time(gql)} | ` +
      `${req(gqlAgain)} req · ${time(gqlAgain)} | ${time('4 shards at once, REST')} vs ${time('one job, REST')} |`
    );
  };
  return [
    '| Repositories | REST one by one | REST re-run, fresh token | REST re-run, same token | GraphQL | GraphQL re-run | 4 shards (REST) vs one job |',
    '|--:|---|---|---|---|---|---|',
    ...[10, 200, 1000].map(row),
  ].join('\n');
}

/** bench/backfill.ts: peak RSS and what is held, streamed against collecting every change first. */
function backfillSummary(r: Results): string {
  const { rows, per } = r.backfill;
  const of = (label: string, n: number) => rows.find((x) => x.label === label && x.n === n);
  const sizes = [...new Set(rows.map((x) => x.n))].filter((n) => n > per && of('streamed', n) && of('collect', n));
  const rss = (x: (typeof rows)[number]) =>
    `${mib(x.peakRssMiB)}${x.runs > 1 ? ` (median of ${x.runs}, ±${Math.round(x.rssNoisePct)} %)` : ''}`;
  const body = sizes.map((n) => {
    const s = of('streamed', n)!;
    const c = of('collect', n)!;
    const held = `${Math.round(s.heldWhenRead / 2 ** 20)} / ${mib(c.heldWhenRead / 2 ** 20)}`;
    return `| ${int(n)} | ${rss(s)} | ${rss(c)} | ${held} |`;
  });
  return [
    '| N | peak RSS, streamed | peak RSS, collected first (before streaming) | held once the source is read, streamed / collected |',
    '|---:|---:|---:|---:|',
    ...body,
  ].join('\n');
}

/** Tables by marker name (block markers). */
/** Bytes as bench/results/git-http.md writes them (MB with two decimals). */
const packBytes = (b: number) => (b < 1024 * 1024 ? bytes(b) : `${(b / 1024 / 1024).toFixed(2)} MB`);

/** bench/git-http.ts at N = 10,000: each operation on the three remote stores (requests, bytes, time). */
function gitHttpTable(r: Results): string {
  const n = 10_000;
  const stores = ['GitHttpRefStore', 'SubprocessGitRefStore', 'RemoteApiRefStore'];
  const ops = [
    'cold get (new store)',
    'warm get (tip unchanged)',
    'get after 1 doc changed elsewhere',
    'put 1 doc (warm store)',
    'history of a doc (10 commits, new store)',
    `write ${n} docs (one commit)`,
  ];
  const cell = (store: string, op: string) => {
    const x = gitHttpRow(r, store, n, op);
    return `${x.requests} req, ${x.up ? packBytes(x.up) : '–'} / ${packBytes(x.down)}, ${Math.round(x.ms)} ms`;
  };
  return [
    `| N = ${int(n)} documents | GitHttpRefStore | SubprocessGitRefStore (\`https://\`) | RemoteApiRefStore (emulator) |`,
    '|---|---|---|---|',
    ...ops.map((op) => `| ${op.replace(String(n), int(n))} | ${stores.map((s) => cell(s, op)).join(' | ')} |`),
  ].join('\n');
}

export const tables: Record<string, Table> = {
  'peers-summary': (r) => peersSummaryTable(r.peers.rows, r.peers.latencyMs).trim(),
  scaling: (r) => scalingRowsTable(r.scaling.rows).trim(),
  stores: storesTable,
  sources: sourcesTable,
  'backfill-summary': backfillSummary,
  'git-http': gitHttpTable,
  reads: (r) => readsTable(readmeRows(r.reads.rows)),
  writes: (r) => writesSummary(r.writes, r.writesBefore).trim(),
  'secondary-limits': (r) => secondaryLimitsTable(r.secondaryLimits),
  compaction: (r) => compactionTable(r.compaction),
  'shard-merge': (r) => shardMergeTable(r.shardMerge),
  viewer: (r) => viewerTable(r.viewer),
  indexes: (r) => indexesTable(r.indexes),
  retention: (r) => sizesTable(r.retention).join('\n'),
  migrate: (r) => migrateTable(r.migrate),
  'sqlite-export': (r) => sqliteTable(r.sqlite.rows).trim(),
  'export-formats': (r) => sqliteTable(r.exportFormats.rows).trim(),
  search: (r) => searchTable(r.search),
};
