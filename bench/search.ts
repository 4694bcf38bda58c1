/**
 * Issue 42's budgets for full-text search, against the emulator (loopback, no added latency), on the seeded
 * corpus of bench/search-corpus.ts (title ≈ 8 words, body ≈ 80, Zipf over 50,000 English-like words), for
 * each size N:
 *  - the first write of N documents with search of 2 fields declared in the same commit against the same
 *    write without search: requests and client CPU (each write in its own process: bench/search-worker.ts);
 *  - on the searchable section it wrote: the index's bytes against the searchable text's, its shards;
 *  - cold one-word searches (a common word, a rare word, a 3-letter prefix; the rare word also over every
 *    type of the namespace), each from a fresh store, with a token and anonymously: requests, bytes down;
 *  - a series of writes each updating 100 documents of the type (shards rewritten / shards, delta bytes
 *    written), the common and the rare word searched again after it, then a put of 1 document, then
 *    another (shards split as postings are added, so the shard count grows towards the 256 bound).
 * Run: npx tsx bench/search.ts [--n 10000,100000] [--runs 3] [--write-runs-above 1] [--series 5]
 *      → bench/results/search.{json,md}   (above 10,000 documents, first writes run once by default)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import { runChild } from './child.js';
import { benchQueries, type CorpusStats, corpusStats } from './search-corpus.js';
import { indexSizes, measureQuery, measureWrite } from './search-measure.js';
import {
  type SearchFile,
  type SearchFirstWrite,
  type SearchQueryRow,
  type SearchSize,
  searchTable,
} from './search-table.js';
import { SEARCH_TOKEN, type SearchWorkerMode, type SearchWriteOut } from './search-worker.js';
import { median } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);
const flag = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : dflt;
};
const SIZES = flag('n', '10000').split(',').map(Number);
const RUNS = Number(flag('runs', '3'));
/** Runs of each first write above 10,000 documents (they take minutes on a loaded machine). */
const RUNS_ABOVE = Number(flag('write-runs-above', '1'));
/** Writes of 100 documents in a row on each searchable section. */
const SERIES = Number(flag('series', '5'));

async function firstWrite(em: EmulatorHandle, repo: string, n: number, mode: SearchWorkerMode) {
  if (mode === 'plain' || mode === 'search') em.state.createRepo(`bench/${repo}`, {});
  const args = ['--import', 'tsx', join(here, 'search-worker.ts'), em.url, repo, String(n), mode];
  const r = await runChild(process.execPath, args);
  if (r.status !== 0) throw new Error(`search worker (${mode}, ${n}) failed\n${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as SearchWriteOut;
  log(`${mode} ${n}: ${out.requests} requests, ${(out.cpuUs / 1e6).toFixed(2)} s CPU`);
  return out;
}

/**
 * The first writes of `n` documents, alternating without and with search, and (up to 10,000 documents) the
 * build's stages alone in the same rotation: tokenizing only, and the whole build; the last searchable
 * repository.
 */
async function firstWrites(em: EmulatorHandle, n: number) {
  const runs = n > 10_000 ? RUNS_ABOVE : RUNS;
  const modes: SearchWorkerMode[] = n > 10_000 ? ['plain', 'search'] : ['plain', 'search', 'scan', 'build'];
  const outs: Record<SearchWorkerMode, SearchWriteOut[]> = { plain: [], search: [], scan: [], build: [] };
  for (let run = 0; run < runs; run++) {
    for (const mode of modes) outs[mode].push(await firstWrite(em, `${mode}-${n}-${run}`, n, mode));
  }
  const med = (xs: SearchWriteOut[]): SearchFirstWrite => ({
    requests: median(xs.map((x) => x.requests)),
    cpuMs: median(xs.map((x) => x.cpuUs)) / 1000,
    ms: median(xs.map((x) => x.ms)),
    sent: median(xs.map((x) => x.sent)),
  });
  const cpu = (xs: SearchWriteOut[]) => median(xs.map((x) => x.cpuUs)) / 1000;
  const stages = outs.scan.length > 0 ? { stages: { scanCpuMs: cpu(outs.scan), buildCpuMs: cpu(outs.build) } } : {};
  const measured = { runs, plain: med(outs.plain), search: med(outs.search), ...stages };
  return { repo: `search-${n}-${runs - 1}`, firstWrite: measured };
}

/** Each query cold, with a token and anonymously; then the rare word over every type of the namespace. */
async function queries(em: EmulatorHandle, repo: string, stats: CorpusStats): Promise<SearchQueryRow[]> {
  const { common, rare, prefix } = benchQueries(stats);
  const n = stats.n;
  const kinds = [
    { ...common, kind: 'common word' },
    { ...rare, kind: 'rare word' },
    { ...prefix, kind: '3-letter prefix' },
  ];
  const rows: SearchQueryRow[] = [];
  for (const q of kinds) {
    for (const auth of ['token', 'anonymous'] as const) {
      const row = await measureQuery(em.url, repo, q, auth);
      log(`search ${n} ${q.kind} "${q.text}" ${auth}: ${row.requests} requests, ${row.received} B, ${row.total} found`);
      rows.push(row);
    }
  }
  rows.push(await measureQuery(em.url, repo, { ...rare, kind: 'rare word, every type (no `type`)' }, 'token', true));
  return rows;
}

/** Writes of 100 documents in a row (generations 1, then 4…: the puts below take 2 and 3). */
async function writeSeries(em: EmulatorHandle, repo: string, n: number) {
  const out = [];
  for (let k = 0; k < SERIES; k++) {
    const w = await measureWrite(em, repo, n, 100, k === 0 ? 1 : k + 3);
    log(
      `write 100 #${k + 1} at ${n}: ${w.requests} requests, ${w.shardsRewritten}/${w.shards} shards, ${w.deltaBytes} B of delta in ${w.deltaFiles} files`,
    );
    out.push(w);
  }
  return out;
}

/** The common and the rare word again, once the series left entries pending in the delta parts. */
async function afterSeries(em: EmulatorHandle, repo: string, stats: CorpusStats): Promise<SearchQueryRow[]> {
  const { common, rare } = benchQueries(stats);
  const rows: SearchQueryRow[] = [];
  for (const q of [
    { ...common, kind: 'common word' },
    { ...rare, kind: 'rare word' },
  ]) {
    const row = await measureQuery(em.url, repo, q, 'token');
    log(`search after the series ${stats.n} ${q.kind}: ${row.requests} requests, ${row.received} B`);
    rows.push(row);
  }
  return rows;
}

async function measureSize(em: EmulatorHandle, n: number): Promise<SearchSize> {
  const { repo, firstWrite } = await firstWrites(em, n);
  const index = indexSizes(em, repo);
  const stats = corpusStats(n);
  const rows = await queries(em, repo, stats);
  const series = await writeSeries(em, repo, n);
  const write100 = series[0]!;
  const queriesAfter = await afterSeries(em, repo, stats);
  const put1 = await measureWrite(em, repo, n, 1, 2);
  log(`put 1 at ${n}: ${put1.requests} requests, ${put1.shardsRewritten}/${put1.shards} shards`);
  // Shards split as writes add postings: one more put shows whether the type still fits the shard bound.
  const putAgain = await measureWrite(em, repo, n, 1, 3);
  log(
    `put 1 again at ${n}: ${putAgain.requests} requests, ${putAgain.shardsRewritten}/${putAgain.shards} shards ${putAgain.refused ?? ''}`,
  );
  return {
    n,
    textBytes: stats.textBytes,
    index,
    firstWrite,
    queries: rows,
    write100,
    series,
    queriesAfter,
    put1,
    putAgain,
  };
}

function save(sizes: SearchSize[]): string {
  const result: SearchFile = { date: new Date().toISOString(), node: process.version, sizes };
  const md = searchTable(result);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'search.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(here, 'results', 'search.md'), `${md}\n`);
  return md;
}

async function main() {
  const em = await startEmulator({ unauthenticatedRateLimit: 1e9 });
  em.state.addToken(SEARCH_TOKEN, { login: 'bench', repos: '*', rateLimit: 1e9 });
  const sizes: SearchSize[] = [];
  try {
    // Saved after each size: a larger size that fails or is stopped keeps the smaller ones' figures.
    for (const n of SIZES) {
      sizes.push(await measureSize(em, n));
      save(sizes);
    }
  } finally {
    await em.stop();
  }
  console.log(save(sizes));
}
await main();
