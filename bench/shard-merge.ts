/**
 * Shard fan-out figures for issue 30 item 3 (timings live in bench/, never in tests): n concurrent runs of
 * the Action's engine (runAction from src/, in-process, as a matrix of n jobs would run it) on one section,
 * with `shard-commit: direct` (every shard commits to the section and retries lost races) and with
 * `shard-commit: merge` followed by one `mode: merge`. Counted at the emulator: content-creating requests
 * (POST of git objects and refs), all mutating requests, rejected ref updates (422: a lost race), and
 * whether every shard landed. The emulator runs WITHOUT secondary limits here (see bench/contention.ts for
 * that side); the point is how many requests each way spends.
 * Run: npx tsx bench/shard-merge.ts [--quick]   → writes bench/results/shard-merge.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readInputs } from '../src/action/inputs.js';
import { runAction } from '../src/action/run-action.js';
import { type RequestLogEntry, startEmulator } from '../src/emulator/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const SHARDS = quick ? [4] : [16, 32];
const ROWS = 640;
const TOKEN = 'ghp_BenchShardMergeToken0123456789abcdef';
const REPO = 'octo/fanout';

const creating = (log: readonly RequestLogEntry[]) =>
  log.filter((r) => r.method === 'POST' && /\/git\/(blobs|trees|commits|refs)$/.test(r.path)).length;
const mutating = (log: readonly RequestLogEntry[]) =>
  log.filter((r) => r.method !== 'GET' && !r.path.endsWith('/graphql')).length;
const lostRaces = (log: readonly RequestLogEntry[]) =>
  log.filter((r) => r.method === 'PATCH' && r.status === 422).length;

async function scenario(n: number, way: 'direct' | 'merge') {
  const em = await startEmulator({ latencyMs: { min: 0, max: 3 } });
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 100_000_000 });
  const cwd = mkdtempSync(join(tmpdir(), 'docdb-bench-shards-'));
  mkdirSync(join(cwd, '.github'));
  writeFileSync(
    join(cwd, '.github/docdb.yml'),
    'projections:\n  rows:\n    source: { type: files, glob: rows.csv }\n    identity: { id: "{item.key}" }\n    prune: true\n',
  );
  writeFileSync(
    join(cwd, 'rows.csv'),
    `key,value\n${Array.from({ length: ROWS }, (_, i) => `k${i},v${i}`).join('\n')}\n`,
  );
  const step = (given: Record<string, string>) =>
    runAction(
      readInputs((k) => ({ token: TOKEN, 'api-url': em.url, repository: REPO, section: 'fan', ...given })[k] ?? '', {}),
      { workspace: cwd, writeSpacingMs: 0, run: { id: 1000 + n, attempt: 1 } },
    );
  const started = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      step({ shard: `${i + 1}/${n}`, ...(way === 'merge' ? { 'shard-commit': 'merge' } : {}) }),
    ),
  );
  const shardLog = [...em.requests];
  em.clearLog();
  const landed = results.filter((r) => r.status === 'fulfilled').length;
  if (way === 'merge') await step({ mode: 'merge', shards: String(n) });
  const mergeLog = [...em.requests];
  const ms = Math.round(performance.now() - started);
  const db = em.state.repo(REPO).db;
  const tip = db.readRef('refs/docdb/fan');
  const docs = tip
    ? db.flattenTree(db.getCommit(tip).tree).filter((e) => e.type === 'blob' && !e.path.startsWith('_docdb/')).length
    : 0;
  await em.stop();
  rmSync(cwd, { recursive: true, force: true });
  const all = [...shardLog, ...mergeLog];
  return {
    shards: n,
    way,
    landed: `${landed}/${n}`,
    documents: docs,
    contentCreating: creating(all),
    budget: 3 * n + 5,
    mutating: mutating(all),
    lostRaces: lostRaces(all),
    mergeRequests: mergeLog.length,
    ms,
  };
}

const rows = [];
for (const n of SHARDS) for (const way of ['direct', 'merge'] as const) rows.push(await scenario(n, way));
console.table(rows);
const out = resolve(here, 'results/shard-merge.json');
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows: ROWS, results: rows }, null, 2)}\n`,
);
console.log(`wrote ${out}`);
