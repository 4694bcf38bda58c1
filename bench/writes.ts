/**
 * The large-write benchmark (issue 21): CPU per document of a first `putMany`, on the client and on the
 * emulator, and how both grow with N. Each write runs in its own process (bench/writes-worker.ts: its CPU
 * time and peak RSS are its own) against one emulator in this process, on loopback with no added latency;
 * this process does nothing else meanwhile, so its CPU time over the write is the emulator's. For each
 * create-tree request the emulator's CPU since the previous answer is recorded (the client is serial), to
 * show whether create-tree cost grows within one write.
 *
 *   npx tsx bench/writes.ts [--sizes 1,10000,20000,40000,100000] [--orders spread,sorted] [--runs 1]
 *                           [--label "after"] [--out bench/results/writes.json] [--no-write]
 *   npx tsx bench/writes.ts --render     rewrite bench/results/writes.md from the .json files
 * The README's table is rendered from the same files by `npm run bench:docs` (figure `writes`).
 * Results: bench/results/writes.json (this build) and, when present, bench/results/writes-before.json (the
 * build before issue 21, measured with the same script) side by side in bench/results/writes.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';
import { runChild } from './child.js';
import type { BenchResult } from './run.js';
import { median } from './stats.js';
import { renderWrites, type WriteRow, type WritesFile } from './writes-table.js';
import { WRITES_TOKEN } from './writes-worker.js';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, 'writes-worker.ts');
export const WRITES_JSON = join(here, 'results', 'writes.json');
export const WRITES_BEFORE_JSON = join(here, 'results', 'writes-before.json');
export const WRITES_MD = join(here, 'results', 'writes.md');

interface WorkerOut {
  requests: number;
  writes: number;
  sent: number;
  ms: number;
  cpuUs: number;
  maxRssKiB: number;
}

/** Run one worker to completion (asynchronously: the emulator answering it lives in this process). */
async function runWorker(api: string, repo: string, n: number, order: string): Promise<WorkerOut> {
  const args = ['--import', 'tsx', WORKER, api, repo, String(n), order];
  const r = await runChild(process.execPath, args);
  if (r.status !== 0) throw new Error(`writes worker n=${n} failed\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as WorkerOut;
}

/** Quarter sums of a list (the last quarter takes the remainder). */
function quarters(xs: number[]): number[] {
  const q = Math.ceil(xs.length / 4);
  return [0, 1, 2, 3].map((i) => xs.slice(i * q, (i + 1) * q).reduce((a, b) => a + b, 0));
}

/** Measure every (N, order) `runs` times; rows hold medians. */
export async function runWrites(opts: { sizes: number[]; orders: string[]; runs: number }): Promise<WriteRow[]> {
  let treeCpu: number[] = [];
  let last = process.cpuUsage();
  const em = await startEmulator({
    onResponse: (r) => {
      const now = process.cpuUsage();
      if (r.method === 'POST' && r.path.endsWith('/git/trees')) {
        treeCpu.push(now.user + now.system - last.user - last.system);
      }
      last = now;
    },
  });
  em.state.addToken(WRITES_TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
  const rows: WriteRow[] = [];
  let seq = 0;
  try {
    for (const n of opts.sizes) {
      for (const order of opts.orders) {
        const samples: (WorkerOut & { emulatorCpuUs: number; treeQuarters: number[] })[] = [];
        for (let run = 0; run < opts.runs; run++) {
          const repo = `writes-${++seq}`;
          em.state.createRepo(`bench/${repo}`);
          treeCpu = [];
          const cpu0 = process.cpuUsage();
          last = cpu0;
          const out = await runWorker(em.url, repo, n, order);
          const cpu = process.cpuUsage(cpu0);
          samples.push({ ...out, emulatorCpuUs: cpu.user + cpu.system, treeQuarters: quarters(treeCpu) });
          console.error(
            `${new Date().toISOString()} n=${n} ${order} run ${run + 1}: ${out.ms.toFixed(0)} ms, client ${(out.cpuUs / 1000).toFixed(0)} ms CPU, ` +
              `emulator ${(cpu.user + cpu.system) / 1000} ms CPU, ${out.requests} requests, peak RSS ${(out.maxRssKiB / 1024).toFixed(0)} MiB`,
          );
        }
        const mid = (f: (s: (typeof samples)[number]) => number) => median(samples.map(f));
        rows.push({
          n,
          order,
          runs: opts.runs,
          requests: mid((s) => s.requests),
          writes: mid((s) => s.writes),
          bytesSent: mid((s) => s.sent),
          ms: mid((s) => s.ms),
          clientCpuMs: mid((s) => s.cpuUs) / 1000,
          emulatorCpuMs: mid((s) => s.emulatorCpuUs) / 1000,
          peakRssMiB: mid((s) => s.maxRssKiB) / 1024,
          createTreeCpuQuartersMs: [0, 1, 2, 3].map((i) => mid((s) => s.treeQuarters[i] ?? 0) / 1000),
        });
      }
    }
  } finally {
    await em.stop();
  }
  return rows;
}

/** The suite entry (`npm run bench`): a small first write, spread and sorted. */
export async function writesBench(quick: boolean): Promise<BenchResult[]> {
  const n = quick ? 2_000 : 20_000;
  const rows = await runWrites({ sizes: [n], orders: ['spread'], runs: 1 });
  return rows.map((r) => ({
    name: `remote first putMany ${n} docs over 50 directories (${r.order})`,
    iterations: 1,
    totalMs: r.ms,
    perOpMs: r.ms,
    extra: {
      clientCpuUsPerDoc: Number(((r.clientCpuMs * 1000) / n).toFixed(1)),
      emulatorCpuUsPerDoc: Number(((r.emulatorCpuMs * 1000) / n).toFixed(1)),
      requests: r.requests,
    },
  }));
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : fallback;
}

function readFile(path: string): WritesFile | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as WritesFile) : undefined;
}

/** Rewrite bench/results/writes.md from the JSON files (`npm run bench:docs` renders the README's table). */
function render(): void {
  const now = readFile(WRITES_JSON);
  if (!now) throw new Error(`${WRITES_JSON} is missing: run npx tsx bench/writes.ts first`);
  writeFileSync(WRITES_MD, renderWrites(now, readFile(WRITES_BEFORE_JSON)));
  console.error(`wrote ${WRITES_MD} (run npm run bench:docs for the README)`);
}

async function main() {
  if (process.argv.includes('--render')) return render();
  const rows = await runWrites({
    sizes: arg('sizes', '1,10000,20000,40000,100000').split(',').map(Number),
    orders: arg('orders', 'spread,sorted').split(','),
    runs: Number(arg('runs', '1')),
  });
  if (process.argv.includes('--no-write')) return;
  const out = arg('out', WRITES_JSON);
  const file: WritesFile = {
    date: new Date().toISOString(),
    node: process.version,
    label: arg('label', 'this build'),
    rows,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
  console.error(`wrote ${out}`);
  if (existsSync(WRITES_JSON)) render();
}

if (process.argv[1]?.endsWith('writes.ts')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
