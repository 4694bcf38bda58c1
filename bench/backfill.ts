/**
 * The backfill memory benchmark (issue 11, "Memory"): does a backfill's memory grow with the size of its
 * source? One `http` projection reads pages of `per` items (~1 KB each) from a loopback page server and
 * writes every item as a document (first run: all new) through the GitHub API store on the emulator, in a
 * child process whose peak RSS is its own. Variants (bench/backfill-worker.ts):
 *   streamed   the Action today: changes stream into the commit in parts of 1,000
 *   gathered   the same run on a store without commitParts (every encoded change gathered, one commit)
 *   collect    the behaviour before streaming (every DocumentOp collected, one DocumentStore.commit)
 * Reported per N: peak RSS, peak JS heap and off-heap memory, what the run holds (after a full GC) once the
 * source is read and at the end, requests, write requests, bytes, wall time; the growth per document between
 * the smallest N above one page and the largest; and whether the largest N fits in a small V8 heap
 * (`--max-old-space-size`, i.e. the live set without the collector's slack), also with the store's caching
 * of its new trees switched off (diagnosis `no-remember`, see the worker).
 *
 *   npx tsx bench/backfill.ts [--sizes 100,10000,50000,100000] [--per 100] [--variants streamed,gathered,collect]
 *                             [--runs 1 (runs per size ≤ 10,000)] [--runs-large 1 (above)]
 *                             [--fit-limit 128,192 (0: skip)] [--no-write]
 * Writes bench/results/backfill.json and bench/results/backfill.md (--render: only the .md, from the .json).
 * BACKFILL_LOG=1 prints the workers' progress.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';
import {
  type BackfillRow,
  type BackfillSample,
  backfillTable,
  type Case,
  type FitRow,
  growth,
  labelOf,
  mib,
} from './backfill-table.js';
import { BACKFILL_TOKEN, VARIANTS, type Variant } from './backfill-worker.js';
import { runChild } from './child.js';
import type { BenchResult } from './run.js';
import { median } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, 'backfill-worker.ts');

/** Item `i` of the source: ~1 KB of JSON, deterministic (the same bytes on every run). */
export function backfillItem(i: number) {
  let text = '';
  for (let w = 0; text.length < 900; w++) text += `${((i * 7919 + w * 104729) % 99991).toString(36)} `;
  return { id: `item-${i}`, group: `group-${i % 50}`, number: i, title: `Item ${i}`, text };
}

/** The page server: GET /page/<p> → a JSON array of items p·per … p·per + per − 1 (no ETag). */
async function startPageServer(per: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const m = /^\/page\/(\d+)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const p = Number(m[1]);
    const body = JSON.stringify(Array.from({ length: per }, (_, k) => backfillItem(p * per + k)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Options of one worker run: a V8 old-space limit (MiB), a diagnosis mode (BACKFILL_DIAG in the worker). */
interface WorkerOptions {
  heapLimitMiB?: number | undefined;
  diag?: string | undefined;
}

/** One worker run; `{ oom: true }` when it ran out of the heap it was given. */
async function runWorker(args: string[], o: WorkerOptions = {}): Promise<BackfillSample | { oom: true; ms: number }> {
  const limit = o.heapLimitMiB ? [`--max-old-space-size=${o.heapLimitMiB}`] : [];
  const argv = ['--expose-gc', ...limit, '--import', 'tsx', WORKER, ...args];
  const env = o.diag ? { ...process.env, BACKFILL_DIAG: o.diag } : process.env;
  const start = Date.now();
  const r = await runChild(process.execPath, argv, { env, echo: Boolean(process.env.BACKFILL_LOG) });
  if (r.status !== 0 && o.heapLimitMiB && /heap out of memory/.test(r.stderr))
    return { oom: true, ms: Date.now() - start };
  if (r.status !== 0) throw new Error(`backfill worker ${args.join(' ')} failed\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as BackfillSample;
}

/** The emulator and the page server of a series; `run` writes one backfill into a new, empty repository. */
async function harness(per: number) {
  const em = await startEmulator({ latencyMs: 0 });
  em.state.addToken(BACKFILL_TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
  const pages = await startPageServer(per);
  return {
    async run(variant: Variant, n: number, o: WorkerOptions = {}) {
      const repo = `backfill-${variant}-${++repoSeq}`;
      em.state.createRepo(`bench/${repo}`);
      try {
        const x = await runWorker([variant, em.url, repo, pages.url, String(Math.ceil(n / per)), String(per)], o);
        if ('oom' in x) return x;
        const tip = em.state.repo(`bench/${repo}`).db.readRef('refs/docdb/documents');
        if (!tip || tip !== x.version)
          throw new Error(`${variant} n=${n}: the section's tip is ${tip}, not ${x.version}`);
        return x;
      } finally {
        // The emulator keeps every repository in this process: drop the one just measured.
        (em.state as unknown as { repos?: Map<string, unknown> }).repos?.delete(`bench/${repo}`);
      }
    },
    async stop() {
      await new Promise<void>((r) => pages.server.close(() => r()));
      await em.stop();
    },
  };
}

let repoSeq = 0;

/** Run every (variant, N) `runs` times; each run writes into a new, empty repository. */
export async function runBackfill(opts: {
  sizes: number[];
  per: number;
  cases: readonly Case[];
  runs: number | ((n: number) => number);
}): Promise<BackfillRow[]> {
  const h = await harness(opts.per);
  const rows: BackfillRow[] = [];
  try {
    for (const n of opts.sizes) {
      const runs = typeof opts.runs === 'function' ? opts.runs(n) : opts.runs;
      for (const c of opts.cases) {
        const { variant } = c;
        const xs: BackfillSample[] = [];
        for (let run = 0; run < runs; run++) xs.push((await h.run(variant, n, { diag: c.diag })) as BackfillSample);
        const rss = xs.map((x) => x.maxRssKiB / 1024);
        const pick = (f: (x: BackfillSample) => number) => median(xs.map(f));
        const row: BackfillRow = {
          variant,
          label: labelOf(c),
          ...(c.diag ? { diag: c.diag } : {}),
          n: (xs[0] as BackfillSample).n,
          runs,
          requests: pick((x) => x.requests),
          writes: pick((x) => x.writes),
          sent: pick((x) => x.sent),
          received: pick((x) => x.received),
          sourceRequests: pick((x) => x.sourceRequests),
          sourceBytes: pick((x) => x.sourceBytes),
          ms: pick((x) => x.ms),
          peakRssMiB: median(rss),
          rssNoisePct: runs > 1 ? (100 * (Math.max(...rss) - Math.min(...rss))) / median(rss) : 0,
          peakHeapUsed: pick((x) => x.peakHeapUsed),
          peakExternal: pick((x) => x.peakExternal),
          peakHeapTotal: pick((x) => x.peakHeapTotal),
          retainedHeap: pick((x) => x.retainedHeap),
          heldWhenRead: pick((x) => x.heldWhenRead),
        };
        rows.push(row);
        console.error(
          `${row.label.padEnd(9)} n=${String(row.n).padEnd(7)} rss=${row.peakRssMiB.toFixed(0)} MiB (±${row.rssNoisePct.toFixed(0)}%, ${runs} run${runs > 1 ? 's' : ''}) ` +
            `heap peak=${mib(row.peakHeapUsed)} held when read=${mib(row.heldWhenRead)} at end=${mib(row.retainedHeap)} req=${row.requests} writes=${row.writes} ${row.ms.toFixed(0)} ms`,
        );
      }
    }
  } finally {
    await h.stop();
  }
  return rows;
}

export async function runFits(opts: {
  n: number;
  per: number;
  heapLimitMiB: number;
  cases: readonly Case[];
}): Promise<FitRow[]> {
  const h = await harness(opts.per);
  const rows: FitRow[] = [];
  try {
    for (const c of opts.cases) {
      const x = await h.run(c.variant, opts.n, { heapLimitMiB: opts.heapLimitMiB, diag: c.diag });
      const row: FitRow = {
        variant: c.variant,
        ...(c.diag ? { diag: c.diag } : {}),
        n: opts.n,
        heapLimitMiB: opts.heapLimitMiB,
        fits: !('oom' in x),
        ...('oom' in x ? {} : { peakRssMiB: x.maxRssKiB / 1024 }),
        ms: x.ms,
      };
      rows.push(row);
      console.error(
        `fit ${c.variant}${c.diag ? ` (${c.diag})` : ''} n=${opts.n} heap ≤ ${opts.heapLimitMiB} MiB: ${row.fits ? `fits, rss=${row.peakRssMiB?.toFixed(0)} MiB` : 'out of memory'}`,
      );
    }
  } finally {
    await h.stop();
  }
  return rows;
}

function write(rows: BackfillRow[], fits: FitRow[], per: number) {
  const dir = join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const labels = [...new Set(rows.map((r) => r.label))];
  const growths = Object.fromEntries(labels.map((l) => [l, growth(rows, l, per)]).filter(([, g]) => g));
  writeFileSync(
    join(dir, 'backfill.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, per, rows, growth: growths, fits }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'backfill.md'), backfillTable(rows, fits, per));
}

/**
 * As a bench suite (npm run bench): the streamed backfill at 1 page, 10,000 and 30,000 documents and the
 * old collect-then-commit one at 30,000, about a minute (quick: streamed at 1 page and 10,000).
 */
export async function backfillBench(quick: boolean): Promise<BenchResult[]> {
  const per = 100;
  const rows = [
    ...(await runBackfill({
      sizes: quick ? [per, 10_000] : [per, 10_000, 30_000],
      per,
      cases: [{ variant: 'streamed' }],
      runs: 1,
    })),
    ...(quick ? [] : await runBackfill({ sizes: [30_000], per, cases: [{ variant: 'collect' }], runs: 1 })),
  ];
  return rows.map((r) => ({
    name: `backfill ${r.variant} n=${r.n} (latency 0)`,
    iterations: 1,
    totalMs: r.ms,
    perOpMs: r.ms,
    extra: {
      requests: r.requests,
      writes: r.writes,
      rssMiB: Math.round(r.peakRssMiB),
      heapMiB: Math.round(r.peakHeapUsed / 2 ** 20),
    },
  }));
}

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : def;
}

if (process.argv[1]?.endsWith('backfill.ts') && process.argv.includes('--render')) {
  // Rewrite backfill.md from backfill.json (no run).
  const saved = JSON.parse(readFileSync(join(here, 'results', 'backfill.json'), 'utf8'));
  writeFileSync(join(here, 'results', 'backfill.md'), backfillTable(saved.rows, saved.fits, saved.per));
} else if (process.argv[1]?.endsWith('backfill.ts')) {
  const per = Number(arg('per', '100'));
  const runs = Number(arg('runs', '1'));
  const sizes = arg('sizes', `${per},10000,50000,100000`).split(',').map(Number);
  const variants = arg('variants', VARIANTS.join(',')).split(',') as Variant[];
  // Also the streamed run without the store's caching of its new trees (--no-diag: without it).
  const diag: Case[] = process.argv.includes('--no-diag') ? [] : [{ variant: 'streamed', diag: 'no-remember' }];
  const cases: Case[] = [...variants.map((variant) => ({ variant })), ...diag];
  const rows = await runBackfill({
    sizes,
    per,
    cases,
    // --runs up to 10,000 documents, --runs-large above (default 1).
    runs: (n) => (n <= 10_000 ? runs : Number(arg('runs-large', '1'))),
  });
  const fits: FitRow[] = [];
  for (const limit of arg('fit-limit', '128').split(',').map(Number)) {
    if (limit > 0) fits.push(...(await runFits({ n: Math.max(...sizes), per, heapLimitMiB: limit, cases })));
  }
  if (!process.argv.includes('--no-write')) write(rows, fits, per);
  console.log(backfillTable(rows, fits, per));
}
