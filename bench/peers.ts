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
 *   npx tsx bench/peers.ts [--latency 20] [--runs 3] [--sizes 1,100,1000] [--strategies docdb,git]
 *                          [--scenarios first,changed,nochange] [--note "text"] [--replace] [--no-write]
 *   npx tsx bench/peers.ts --regen [--note "text"]   rewrite peers.md from peers.json (and add a note)
 *   npx tsx bench/peers.ts --summary                 print the README's compact table from peers.json
 *   npx tsx bench/peers.ts --scaling [--sizes 1,10000,100000]   docdb alone at latency 0 → scaling.json/.md
 * Merges into bench/results/peers.json: rows are keyed by (strategy, N, scenario); this run's rows replace
 * the same-key rows, the others are kept (refused if the file was measured at another latency; --replace
 * starts over). Each row is merged as soon as it is measured. bench/results/peers.md is regenerated from
 * all rows. A scenario runs on the state the previous one left, so `--scenarios nochange` still runs the
 * first write and the 1 % change before it, untimed and unrecorded.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import { runChild } from './child.js';
import {
  type PeerRow,
  type PeersFile,
  peersSummaryTable,
  peersTable,
  SCENARIOS,
  type ScalingFile,
  type Scenario,
  STRATEGIES,
  type Strategy,
  scalingTable,
  sortPeerRows,
} from './peers-table.js';
import type { BenchResult } from './run.js';
import { median } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, 'peers-worker.ts');
const TOKEN = 'ghp_bench_peers_token_0123456789abcdef';

/** CLI spellings of the scenarios (`--scenarios first,changed,nochange`). */
const SCENARIO_FLAGS: Record<string, Scenario> = { first: 'first', changed: '1% changed', nochange: 'no change' };

interface Sample {
  requests: number;
  writes: number;
  sent: number;
  received: number;
  ms: number;
  maxRssKiB: number;
  commits: number;
}

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
  const r = await runChild(cmd as string, argv as string[]);
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
  /** Scenarios to record (default all); the ones before the last selected still run, as setup. */
  scenarios?: readonly Scenario[];
  /** Called with each row as soon as its last run is measured. */
  onRow?: (row: PeerRow) => void;
}): Promise<PeerRow[]> {
  const selected = new Set(opts.scenarios ?? SCENARIOS);
  const upTo = Math.max(...SCENARIOS.map((s, i) => (selected.has(s) ? i : -1)));
  if (upTo < 0) throw new Error('no scenario selected');
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
        const finish = (i: number) => {
          const scenario = SCENARIOS[i] as Scenario;
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
            `${new Date().toISOString()} ${strategy.padEnd(14)} n=${String(n).padEnd(6)} ${scenario.padEnd(11)} req=${row.requests} writes=${row.writes} commits=${row.commits} ` +
              `up=${row.bytesSent} down=${row.bytesReceived} ${row.ms.toFixed(0)} ms ±${row.noisePct.toFixed(0)}% rss=${row.peakRssMiB.toFixed(0)} MiB`,
          );
          opts.onRow?.(row);
        };
        for (let run = 0; run < runs; run++) {
          const { target, cleanup } = newTarget(em, strategy);
          try {
            const changed = Math.max(1, Math.ceil(n / 100));
            const plan: [string, number][] = [
              ['base', 0],
              [`c${run}`, changed],
              [`c${run}`, changed],
            ];
            for (let i = 0; i <= upTo; i++) {
              const [salt, ch] = plan[i] as [string, number];
              const before = commitCount(em, strategy, target);
              const s = await runWorker(strategy, em.url, target, n, salt, ch);
              samples[i]?.push({ ...s, commits: commitCount(em, strategy, target) - before });
              // The last run of this scenario: its row is final (earlier runs did every scenario).
              if (run === runs - 1 && selected.has(SCENARIOS[i] as Scenario)) finish(i);
            }
          } finally {
            cleanup();
          }
        }
      }
    }
  } finally {
    await em.stop();
  }
  return rows;
}

const rowKey = (r: PeerRow) => `${r.strategy}\u0000${r.n}\u0000${r.scenario}`;

/**
 * Merge `rows` into `prev` (the same key replaces the old row, other rows are kept). Refuses rows measured
 * at another injected latency: a table mixing latencies would compare wall times that cannot be compared.
 */
export function mergePeers(prev: PeersFile | undefined, rows: PeerRow[], latencyMs: number, notes: string[] = []) {
  if (prev && prev.latencyMs !== latencyMs) {
    throw new Error(
      `bench/results/peers.json was measured at ${prev.latencyMs} ms of injected latency, this run at ${latencyMs} ms: ` +
        `refusing to merge (run with --latency ${prev.latencyMs}, or --replace to start a new table)`,
    );
  }
  const byKey = new Map((prev?.rows ?? []).map((r) => [rowKey(r), r]));
  for (const r of rows) byKey.set(rowKey(r), r);
  const allNotes = [...(prev?.notes ?? [])];
  for (const note of notes) if (!allNotes.includes(note)) allNotes.push(note);
  return {
    date: new Date().toISOString(),
    node: process.version,
    latencyMs,
    rows: sortPeerRows([...byKey.values()]),
    ...(allNotes.length ? { notes: allNotes } : {}),
  } satisfies PeersFile;
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
  const scaling = await runScaling(quick ? [1, 10_000] : [1, 10_000, 100_000]);
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
 * docdb alone up to 100,000 documents (no latency): requests, bytes and the memory per document →
 * scaling.json and scaling.md.
 */
async function runScaling(sizes: number[]): Promise<PeerRow[]> {
  const scaling = await runPeers({ latencyMs: 0, runs: 1, sizes, slowMax: 0, strategies: ['docdb'] });
  const file: ScalingFile = { date: new Date().toISOString(), node: process.version, rows: scaling };
  writeFileSync(join(here, 'results', 'scaling.json'), `${JSON.stringify(file, null, 2)}\n`);
  writeFileSync(join(here, 'results', 'scaling.md'), scalingTable(scaling, file.date));
  return scaling;
}

/** Merge `rows` into bench/results/peers.json (or start it over) and regenerate peers.md from all rows. */
function writePeers(rows: PeerRow[], latencyMs: number, opts: { replace?: boolean; notes?: string[] } = {}) {
  const dir = join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const jsonPath = join(dir, 'peers.json');
  const prev =
    !opts.replace && existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as PeersFile) : undefined;
  const merged = mergePeers(prev, rows, latencyMs, opts.notes);
  // Write-then-rename: a concurrent run merging into the same file never reads half a file.
  const atomic = (path: string, text: string) => {
    writeFileSync(`${path}.${process.pid}.tmp`, text);
    renameSync(`${path}.${process.pid}.tmp`, path);
  };
  atomic(jsonPath, `${JSON.stringify(merged, null, 2)}\n`);
  atomic(join(dir, 'peers.md'), peersTable(merged.rows, latencyMs, merged.notes));
  return merged;
}

/** Parse a comma-separated flag value against the allowed names (exits with the list on an unknown one). */
function list<T>(raw: string, known: Record<string, T>, what: string): T[] {
  return raw.split(',').map((name) => {
    const v = known[name.trim()];
    if (v === undefined) {
      console.error(`unknown ${what} "${name}"; known: ${Object.keys(known).join(', ')}`);
      process.exit(2);
    }
    return v;
  });
}

if (process.argv[1]?.endsWith('peers.ts') && process.argv.includes('--scaling')) {
  // docdb's scaling series alone (writes bench/results/scaling.md; peers.json is not touched).
  const rows = await runScaling(arg('sizes', '1,10000,100000').split(',').map(Number));
  console.log(scalingTable(rows, new Date().toISOString()));
} else if (process.argv[1]?.endsWith('peers.ts') && process.argv.includes('--summary')) {
  // Print the README's compact table from bench/results/peers.json; measures nothing.
  const file = JSON.parse(readFileSync(join(here, 'results', 'peers.json'), 'utf8')) as PeersFile;
  console.log(peersSummaryTable(file.rows, file.latencyMs));
} else if (process.argv[1]?.endsWith('peers.ts') && process.argv.includes('--regen')) {
  // Rewrite peers.md from peers.json (adding any --note); measures nothing.
  const file = JSON.parse(readFileSync(join(here, 'results', 'peers.json'), 'utf8')) as PeersFile;
  const notes = process.argv.flatMap((a, i) => (a === '--note' ? [process.argv[i + 1] as string] : []));
  writePeers([], file.latencyMs, { notes });
} else if (process.argv[1]?.endsWith('peers.ts')) {
  const latencyMs = Number(arg('latency', '20'));
  const noWrite = process.argv.includes('--no-write');
  const replace = process.argv.includes('--replace');
  const notes = process.argv.flatMap((a, i) => (a === '--note' ? [process.argv[i + 1] as string] : []));
  const jsonPath = join(here, 'results', 'peers.json');
  // Refuse a latency mismatch before measuring anything, not after an hour of runs.
  if (!noWrite && !replace && existsSync(jsonPath)) {
    mergePeers(JSON.parse(readFileSync(jsonPath, 'utf8')) as PeersFile, [], latencyMs);
  }
  let first = replace;
  const rows = await runPeers({
    latencyMs,
    runs: Number(arg('runs', '3')),
    sizes: arg('sizes', '1,100,1000').split(',').map(Number),
    slowMax: Number(arg('slow-max', 'Infinity')),
    strategies: list(
      arg('strategies', STRATEGIES.join(',')),
      Object.fromEntries(STRATEGIES.map((s) => [s, s])),
      'strategy',
    ),
    scenarios: list(arg('scenarios', Object.keys(SCENARIO_FLAGS).join(',')), SCENARIO_FLAGS, 'scenario'),
    // Each row lands in the results as soon as it is measured (a long run stopped midway keeps what it did).
    onRow: noWrite
      ? undefined
      : (row) => {
          writePeers([row], latencyMs, { replace: first, notes });
          first = false;
        },
  });
  if (noWrite) console.log(JSON.stringify(rows));
  else if (rows.length === 0) writePeers([], latencyMs, { replace, notes });
  console.log(peersTable(sortPeerRows(rows), latencyMs));
}
