/**
 * The Parquet export and the Atom feed benchmark (issue 41): `exportParquet` and `sectionFeed` against the emulator
 * (loopback, no injected latency) through the CLI's store, as bench/sqlite-export.ts measures the SQLite export.
 * Requests and bytes (received) are exact; times are one run's wall clock on this machine.
 *   parquet cold       a type of N small documents (≈ 300 bytes) into a new directory
 *   parquet unchanged  the same directory again, the section unchanged
 *   parquet update     after a commit changing 1 % of the type: only that type's file is rebuilt
 *   feed cold          the newest 50 commits of a 10,000-document section (100 changed documents a commit)
 *   feed unchanged     the same file again
 *   feed update        after 2 new commits
 *
 *   npx tsx bench/export-formats.ts [--sizes 10000,100000]
 * Writes bench/results/export-formats.json and .md (rows in the SQLite bench's shape, bench/sqlite-export-table.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import { sectionFeed } from '../src/export/feed/section-feed.js';
import { exportParquet } from '../src/export/parquet/export-parquet.js';
import type { Meter } from './metered-fetch.js';
import { docs, meter, REF, record, small, TOKEN } from './sqlite-export.js';
import { type SqliteRow, sqliteTable } from './sqlite-export-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);

/** One metered run of `work` on a fresh store (nothing cached from the run before, as a new CLI process). */
async function measured(
  em: EmulatorHandle,
  repo: string,
  label: string,
  work: (d: DocumentStore) => Promise<unknown>,
): Promise<SqliteRow> {
  const m: Meter = meter();
  const d = docs(em, repo, m);
  const start = performance.now();
  await work(d);
  const ms = Math.round(performance.now() - start);
  log(`${label}: ${m.requests} requests, ${ms} ms`);
  return { case: label, requests: m.requests, bytes: m.received, ms };
}

async function parquetRows(em: EmulatorHandle, dir: string, n: number): Promise<SqliteRow[]> {
  const repo = `bench/parquet-${n}`;
  em.state.createRepo(repo);
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`city/weather/c${i}.json`] = small(i);
  em.state.commitFiles(repo, { branch: REF, files, orphan: true, message: `seed ${n}` });
  const out = join(dir, `parquet-${n}`);
  const run = (d: DocumentStore) =>
    d.head().then((version) => exportParquet(d, { dir: out, section: `${repo} ${REF}`, version: version as string }));
  const size = n.toLocaleString('en');
  const rows = [await measured(em, repo, `parquet: cold, a type of ${size}`, run)];
  rows.push(await measured(em, repo, `parquet: again, unchanged (${size})`, run));
  const change: Record<string, string> = {};
  for (let i = 0; i < n / 100; i++)
    change[`city/weather/c${i * 100}.json`] = small(i * 100).replace('"ok": ', '"rev": 1,\n    "ok": ');
  em.state.commitFiles(repo, { branch: REF, files: change, message: '1 % changed' });
  rows.push(await measured(em, repo, `parquet: after a commit changing 1 % (${size})`, run));
  return rows;
}

async function feedRows(em: EmulatorHandle, dir: string): Promise<SqliteRow[]> {
  const repo = 'bench/feed';
  em.state.createRepo(repo);
  const size = 10_000;
  const churn = 100;
  const files: Record<string, string> = {};
  for (let i = 0; i < size; i++) files[`city/weather/c${i}.json`] = record(i, 0);
  em.state.commitFiles(repo, { branch: REF, files, orphan: true, message: 'seed' });
  const commit = (k: number) => {
    const change: Record<string, string> = {};
    for (let j = 0; j < churn; j++) {
      const i = (k * churn + j) % size;
      change[`city/weather/c${i}.json`] = record(i, k);
    }
    em.state.commitFiles(repo, { branch: REF, files: change, message: `scrape ${k}` });
  };
  for (let k = 1; k <= 60; k++) commit(k);
  const file = join(dir, 'feed.xml');
  const run = (d: DocumentStore) => sectionFeed(d, { file, section: `${repo} ${REF}`, repository: repo });
  const rows = [await measured(em, repo, 'feed: cold, newest 50 of 61 commits (100 changed each)', run)];
  rows.push(await measured(em, repo, 'feed: again, unchanged', run));
  commit(61);
  commit(62);
  rows.push(await measured(em, repo, 'feed: after 2 new commits', run));
  return rows;
}

/** The rows for the sizes asked. */
export async function runExportFormatsBench(sizes: number[]): Promise<SqliteRow[]> {
  const em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
  const dir = mkdtempSync(join(tmpdir(), 'docdb-formats-bench-'));
  try {
    const rows: SqliteRow[] = [];
    for (const n of sizes) rows.push(...(await parquetRows(em, dir, n)));
    rows.push(...(await feedRows(em, dir)));
    return rows;
  } finally {
    await em.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('export-formats.ts')) {
  const i = process.argv.indexOf('--sizes');
  const sizes = (i >= 0 ? (process.argv[i + 1] as string) : '10000,100000').split(',').map(Number);
  const rows = await runExportFormatsBench(sizes);
  const file = { date: new Date().toISOString(), node: process.version, rows };
  writeFileSync(join(here, 'results', 'export-formats.json'), `${JSON.stringify(file, null, 2)}\n`);
  const md = `# Parquet export and Atom feed (issue 41)\n\nEmulator on loopback, no injected latency; requests and bytes received are exact, times one run on a loaded 2-core machine. Parquet: records of ≈ 300 bytes in one type. Feed: records of ≈ 1.6 KB, 100 changed a commit.\n\n${sqliteTable(rows)}`;
  writeFileSync(join(here, 'results', 'export-formats.md'), md);
  console.log(md);
}
