/**
 * Contention figures for issue 12 §1 (timings live in bench/, never in tests):
 *  1. 16 RemoteApiRefStore instances × 50 puts on one section against the emulator, DEFAULT settings
 *     (real timers, default backoff and 60 s budget): writes landed, ConcurrentUpdate count, retries,
 *     requests per retry (counted per writer, from a rejected ref update to its next one), wall time.
 *  2. 8 concurrent runs of the built Action (dist/index.js, run as a runner would by runLikeRunner) on one
 *     section, each writing its own projection: how many succeed.
 * Run: npx tsx bench/contention.ts [--quick]   → writes bench/results/contention.json
 * (dist/index.js must be built: npm run build:action)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLikeRunner } from '../src/action/local-runner.js';
import { ConcurrentUpdate } from '../src/core/errors.js';
import { DEMO_SEED, startEmulator } from '../src/emulator/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const WRITERS = 16;
const PUTS = quick ? 10 : 50;
const RUNS = 8;
const TOKEN = 'ghp_BenchTokenValue0123456789abcdefABCDEF';

async function libraryWriters() {
  const em = await startEmulator({ latencyMs: { min: 0, max: 3 } });
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 10_000_000 });
  em.state.createRepo('octo/data', {});
  const base = fetchTransport({ timeoutMs: 30_000 });
  // Each writer's own request sequence: a retry's cost is what it sends from a rejected ref update
  // (HTTP 422) up to and including its next ref update.
  const sequences: { method: string; status: number }[][] = [];
  const mk = (logger?: (e: { message: string }) => void, seq?: { method: string; status: number }[]) =>
    new RemoteApiRefStore({
      transport: seq
        ? {
            request: async (req) => {
              const res = await base.request(req);
              seq.push({ method: req.method, status: res.status });
              return res;
            },
          }
        : base,
      apiUrl: em.url,
      owner: 'octo',
      repo: 'data',
      token: TOKEN,
      ...(logger ? { logger } : {}),
    });
  await mk().put('seed.json', '0');
  const from = em.requests.length;
  const t0 = performance.now();
  const perWrite: { retries: number; requests: number; ok: boolean; error?: string }[] = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      let retries = 0;
      const seq: { method: string; status: number }[] = [];
      sequences.push(seq);
      // Every lost fast-forward: a race on a confirmed tip, or a cached tip gone stale.
      const s = mk((e) => {
        if (e.message.includes('retrying on the new tip') || e.message.includes('was stale')) retries++;
      }, seq);
      for (let i = 0; i < PUTS; i++) {
        retries = 0;
        try {
          const r = await s.put(`k/w${w}-${i}.json`, JSON.stringify({ w, i }));
          perWrite.push({ retries, requests: r.requests ?? 0, ok: r.changed });
        } catch (e) {
          perWrite.push({
            retries,
            requests: 0,
            ok: false,
            error: e instanceof ConcurrentUpdate ? 'ConcurrentUpdate' : String(e),
          });
        }
      }
    }),
  );
  const ms = performance.now() - t0;
  const reqs = em.requests.slice(from);
  const byOp: Record<string, number> = {};
  for (const r of reqs) byOp[`${r.method} ${r.operation}`] = (byOp[`${r.method} ${r.operation}`] ?? 0) + 1;
  const retried = perWrite.filter((p) => p.retries > 0 && p.ok);
  const perRetry: number[] = [];
  for (const seq of sequences) {
    let from = -1;
    seq.forEach((q, i) => {
      if (q.method !== 'PATCH') return;
      if (from >= 0) perRetry.push(i - from);
      from = q.status === 422 ? i : -1;
    });
  }
  const landed = (await mk().list({ prefix: 'k/' })).entries.length;
  await em.stop();
  return {
    writers: WRITERS,
    putsEach: PUTS,
    landed,
    of: WRITERS * PUTS,
    failed: perWrite.filter((p) => !p.ok).length,
    concurrentUpdate: perWrite.filter((p) => p.error === 'ConcurrentUpdate').length,
    wallMs: Math.round(ms),
    writesRetried: retried.length,
    totalRetries: perWrite.reduce((a, p) => a + p.retries, 0),
    maxRetriesOneWrite: Math.max(...perWrite.map((p) => p.retries)),
    requestsTotal: reqs.length,
    requestsByOperation: byOp,
    retriesMeasured: perRetry.length,
    maxRequestsPerRetry: perRetry.length ? Math.max(...perRetry) : 0,
    retriesAtMost4Requests: perRetry.filter((n) => n <= 4).length,
    meanRequestsPerRetry: perRetry.length
      ? Number((perRetry.reduce((a, b) => a + b, 0) / perRetry.length).toFixed(2))
      : 0,
  };
}

async function actionRuns() {
  const em = await startEmulator({ seed: DEMO_SEED, latencyMs: { min: 0, max: 5 } });
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-ws-'));
  const spec = `projections:\n${Array.from(
    { length: RUNS },
    (_, i) =>
      `  p${i}:\n    source: { type: repository, repositories: [octo-org/widgets] }\n    identity: { namespace: github, type: run${i}, id: "{owner}/{name}" }\n`,
  ).join('')}`;
  mkdirSync(join(dir, '.github'), { recursive: true });
  writeFileSync(join(dir, '.github/docdb.yml'), spec);
  const entry = resolve(here, '../dist/index.js');
  const run = (i: number) =>
    runLikeRunner({
      entry,
      cwd: dir,
      env: { GITHUB_WORKSPACE: dir },
      inputs: {
        token: 'ghp_demo_write',
        'api-url': em.url,
        repository: 'octo-org/widgets',
        section: 'bench-race',
        projections: `p${i}`,
        mode: 'project',
        spec: '.github/docdb.yml',
        root: 'docdb',
        'commit-message': `run ${i}`,
      },
    });
  const t0 = performance.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => run(i)));
  const ms = performance.now() - t0;
  const patches = em.requests.filter(
    (r) => r.method === 'PATCH' || (r.method === 'POST' && r.path.endsWith('/git/refs')),
  );
  await em.stop();
  rmSync(dir, { recursive: true, force: true });
  return {
    runs: RUNS,
    succeeded: runs.filter((r) => r.code === 0 && r.outputs.changed === 'true').length,
    failures: runs
      .filter((r) => r.code !== 0)
      .map((r) => (r.stdout + r.stderr).split('\n').find((l) => l.includes('::error')) ?? r.code),
    refUpdates: patches.map((p) => p.status).join(','),
    wallMs: Math.round(ms),
  };
}

const result = {
  date: new Date().toISOString(),
  node: process.version,
  quick,
  library: await libraryWriters(),
  action: await actionRuns(),
};
console.log(JSON.stringify(result, null, 2));
const out = join(here, 'results', 'contention.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${out}`);
