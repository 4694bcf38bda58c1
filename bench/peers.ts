/**
 * The peers benchmark (issue 11): docdb's batch commit against the strategies users would otherwise pick,
 * on the same documents, against the emulator with a fixed injected latency per request:
 *   docdb          one batch: ref + tree + commit + ref update (cold instance per run)
 *   per-document   the seed's strategy: blob → tree → commit → ref update per document
 *   blob-per-file  octokit-commit-multiple-files / Decap: one blob per file, one tree, one commit
 *   contents       one GET + PUT /contents per file (one commit per changed file)
 *   git            git clone + commit + push over a local bare repository (no HTTP, no latency)
 * Scenarios per run: first write of N documents, 1 % changed, no change. Each strategy runs in its own
 * process (peak RSS is its own). Medians of `runs` runs; the spread (max−min)/median is reported as noise.
 *
 *   npx tsx bench/peers.ts [--latency 20] [--runs 3] [--sizes 1,100,1000]
 * Writes bench/results/peers.json and bench/results/peers.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import type { BenchResult } from './run.js';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, 'peers-worker.ts');
const TOKEN = 'ghp_bench_peers_token_0123456789abcdef';

export const STRATEGIES = ['docdb', 'blob-per-file', 'per-document', 'contents', 'git'] as const;
type Strategy = (typeof STRATEGIES)[number];
const SCENARIOS = ['first', '1% changed', 'no change'] as const;

export interface PeerRow {
  strategy: Strategy;
  n: number;
  scenario: (typeof SCENARIOS)[number];
  runs: number;
  requests: number;
  writes: number;
  commits: number;
  bytesSent: number;
  bytesReceived: number;
  ms: number;
  /** (max − min) / median of the wall times, in percent. */
  noisePct: number;
  peakRssMiB: number;
}

interface Sample {
  requests: number;
  writes: number;
  sent: number;
  received: number;
  ms: number;
  maxRssKiB: number;
  commits: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

let repoSeq = 0;

function commitCount(em: EmulatorHandle | undefined, strategy: Strategy, target: string): number {
  if (strategy === 'git') {
    return Number(execFileSync('git', ['--git-dir', target, 'rev-list', '--count', 'main']).toString().trim());
  }
  const db = (em as EmulatorHandle).state.repo(`bench/${target}`).db;
  const ref = strategy === 'docdb' ? 'refs/docdb/documents' : 'refs/heads/main';
  let n = 0;
  for (let sha = db.readRef(ref); sha; sha = db.getCommit(sha).parents[0]) n++;
  return n;
}

function newTarget(em: EmulatorHandle, strategy: Strategy): { target: string; cleanup: () => void } {
  const name = `peers-${strategy}-${++repoSeq}`;
  if (strategy !== 'git') {
    em.state.createRepo(`bench/${name}`);
    return { target: name, cleanup: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'docdb-peers-bare-'));
  const bare = join(dir, 'repo.git');
  const seed = join(dir, 'seed');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', seed]);
  writeFileSync(join(seed, 'README.md'), '# bench\n');
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@e',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@e',
  };
  execFileSync('git', ['-C', seed, 'add', '-A'], { env });
  execFileSync('git', ['-C', seed, 'commit', '--quiet', '-m', 'init'], { env });
  execFileSync('git', ['-C', seed, 'push', '--quiet', bare, 'main'], { env });
  return { target: bare, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Run one worker; asynchronously, since the emulator answering it lives in this process. */
async function runWorker(strategy: Strategy, api: string, target: string, n: number, salt: string, changed: number) {
  // /usr/bin/time -f %M: peak RSS (KiB) of the worker or of its largest child (git's own processes).
  const args = ['--import', 'tsx', WORKER, strategy, api, target, String(n), salt, String(changed)];
  const useTime = process.platform === 'linux';
  const [cmd, argv] = useTime
    ? ['/usr/bin/time', ['-f', 'PEAKRSS %M', process.execPath, ...args]]
    : [process.execPath, args];
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  if (r.status !== 0) throw new Error(`${strategy} n=${n}: worker failed\n${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) as string;
  const s = JSON.parse(line) as Omit<Sample, 'commits'>;
  const peak = /PEAKRSS (\d+)/.exec(r.stderr);
  return { ...s, maxRssKiB: peak ? Math.max(Number(peak[1]), s.maxRssKiB) : s.maxRssKiB };
}

/** Run the peers benchmark; returns one row per (strategy, N, scenario). */
export async function runPeers(opts: {
  latencyMs: number;
  runs: number;
  sizes: number[];
  slowMax: number;
  strategies?: readonly Strategy[];
}): Promise<PeerRow[]> {
  const em = await startEmulator({ latencyMs: opts.latencyMs });
  em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
  const rows: PeerRow[] = [];
  try {
    for (const n of opts.sizes) {
      for (const strategy of opts.strategies ?? STRATEGIES) {
        // Strategies whose requests grow with N; per-document and contents are also capped by slowMax.
        const perFile = strategy === 'per-document' || strategy === 'contents' || strategy === 'blob-per-file';
        const slow = strategy === 'per-document' || strategy === 'contents';
        if (slow && n > opts.slowMax) continue;
        // Slow strategies at the largest size run once (their request counts are exact; only wall time varies).
        const runs = perFile && n >= 1000 ? 1 : opts.runs;
        const samples: Sample[][] = SCENARIOS.map(() => []);
        for (let run = 0; run < runs; run++) {
          const { target, cleanup } = newTarget(em, strategy);
          try {
            const changed = Math.max(1, Math.ceil(n / 100));
            const plan: [string, number][] = [
              ['base', 0],
              [`c${run}`, changed],
              [`c${run}`, changed],
            ];
            for (let i = 0; i < SCENARIOS.length; i++) {
              const [salt, ch] = plan[i] as [string, number];
              const before = commitCount(em, strategy, target);
              const s = await runWorker(strategy, em.url, target, n, salt, ch);
              samples[i]?.push({ ...s, commits: commitCount(em, strategy, target) - before });
            }
          } finally {
            cleanup();
          }
        }
        SCENARIOS.forEach((scenario, i) => {
          const xs = samples[i] as Sample[];
          const ms = median(xs.map((x) => x.ms));
          const row: PeerRow = {
            strategy,
            n,
            scenario,
            runs,
            requests: median(xs.map((x) => x.requests)),
            writes: median(xs.map((x) => x.writes)),
            commits: median(xs.map((x) => x.commits)),
            bytesSent: median(xs.map((x) => x.sent)),
            bytesReceived: median(xs.map((x) => x.received)),
            ms,
            noisePct:
              xs.length > 1 ? (100 * (Math.max(...xs.map((x) => x.ms)) - Math.min(...xs.map((x) => x.ms)))) / ms : 0,
            peakRssMiB: median(xs.map((x) => x.maxRssKiB)) / 1024,
          };
          rows.push(row);
          console.error(
            `${strategy.padEnd(14)} n=${String(n).padEnd(6)} ${scenario.padEnd(11)} req=${row.requests} writes=${row.writes} commits=${row.commits} ` +
              `up=${row.bytesSent} down=${row.bytesReceived} ${row.ms.toFixed(0)} ms ±${row.noisePct.toFixed(0)}% rss=${row.peakRssMiB.toFixed(0)} MiB`,
          );
        });
      }
    }
  } finally {
    await em.stop();
  }
  return rows;
}

const kb = (b: number) =>
  b < 1024 ? `${b} B` : b < 1024 * 1024 ? `${(b / 1024).toFixed(1)} KB` : `${(b / 1024 / 1024).toFixed(1)} MB`;

/** The README table. */
export function peersTable(rows: PeerRow[], latencyMs: number): string {
  const head =
    `| strategy | N | scenario | requests | write requests | commits | bytes up / down | wall time (median) | noise | peak RSS |\n` +
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n';
  const body = rows
    .map((r) => {
      const http = r.strategy !== 'git';
      return `| ${r.strategy} | ${r.n} | ${r.scenario} | ${http ? r.requests : 'n/a'} | ${http ? r.writes : 'n/a'} | ${r.commits} | ${
        http ? `${kb(r.bytesSent)} / ${kb(r.bytesReceived)}` : 'n/a'
      } | ${r.ms.toFixed(0)} ms | ±${r.noisePct.toFixed(0)}% (${r.runs} run${r.runs > 1 ? 's' : ''}) | ${r.peakRssMiB.toFixed(0)} MiB |`;
    })
    .join('\n');
  return `Injected latency: ${latencyMs} ms per request (emulator on loopback; git runs locally without latency).\n\n${head}${body}\n`;
}

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : def;
}

/** As a bench suite (npm run bench): a small configuration, a few minutes at most. */
export async function peersBench(quick: boolean): Promise<BenchResult[]> {
  const latencyMs = 20;
  // A few minutes on 2 cores: per-document and contents stop at N = 100 here (bench/peers.ts runs them at 1,000).
  const rows = await runPeers({
    latencyMs,
    runs: quick ? 1 : 3,
    sizes: quick ? [1, 100] : [1, 100, 1000],
    slowMax: 100,
  });
  writePeers(rows, latencyMs);
  // docdb alone up to 100,000 documents (no latency): requests, bytes and the memory per document.
  const scaling = await runPeers({
    latencyMs: 0,
    runs: 1,
    sizes: quick ? [1, 10_000] : [1, 10_000, 100_000],
    slowMax: 0,
    strategies: ['docdb'],
  });
  writeFileSync(join(here, 'results', 'scaling.md'), scalingTable(scaling));
  return [...rows, ...scaling].map((r) => ({
    name: `peers ${r.strategy} n=${r.n} ${r.scenario}${r.n >= 10_000 && r.strategy === 'docdb' ? ' (latency 0)' : ''}`,
    iterations: r.runs,
    totalMs: r.ms * r.runs,
    perOpMs: r.ms,
    extra: {
      requests: r.requests,
      writes: r.writes,
      commits: r.commits,
      up: r.bytesSent,
      down: r.bytesReceived,
      rssMiB: Math.round(r.peakRssMiB),
    },
  }));
}

/**
 * docdb's scaling series, with the memory per document: (peak RSS of the first write − peak RSS of the
 * 1-document first write) / N, which includes the document itself (input object and encoded bytes).
 */
export function scalingTable(rows: PeerRow[]): string {
  const base = rows.find((r) => r.n === 1 && r.scenario === 'first')?.peakRssMiB ?? 0;
  const head =
    '| N | scenario | requests | write requests | commits | bytes up / down | wall time | peak RSS | RSS per document |\n' +
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|\n';
  const body = rows
    .map((r) => {
      const per = r.n > 1 ? `${(((r.peakRssMiB - base) * 1024) / r.n).toFixed(1)} KB` : '';
      return `| ${r.n.toLocaleString('en-US')} | ${r.scenario} | ${r.requests} | ${r.writes} | ${r.commits} | ${kb(r.bytesSent)} / ${kb(
        r.bytesReceived,
      )} | ${r.ms.toFixed(0)} ms | ${r.peakRssMiB.toFixed(0)} MiB | ${per} |`;
    })
    .join('\n');
  return `docdb alone, no injected latency, 1 run each.\n\n${head}${body}\n`;
}

function writePeers(rows: PeerRow[], latencyMs: number) {
  const dir = join(here, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'peers.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, latencyMs, rows }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'peers.md'), peersTable(rows, latencyMs));
}

if (process.argv[1]?.endsWith('peers.ts')) {
  const latencyMs = Number(arg('latency', '20'));
  const rows = await runPeers({
    latencyMs,
    runs: Number(arg('runs', '3')),
    sizes: arg('sizes', '1,100,1000').split(',').map(Number),
    slowMax: Number(arg('slow-max', '1000')),
    strategies: arg('strategies', STRATEGIES.join(',')).split(',') as Strategy[],
  });
  if (process.argv.includes('--no-write')) console.log(JSON.stringify(rows));
  else writePeers(rows, latencyMs);
  console.log(peersTable(rows, latencyMs));
}
