/**
 * Source benchmarks (issue 13): requests, rate-limit budget spent and wall time at an injected latency for
 * an organisation of 10, 200 and 1,000 repositories, projected by the Action's core (runAction, in
 * process) against the emulator:
 * - REST one by one (`api: rest`, a fresh token per run, so no ETag matches — what every run cost before);
 * - GraphQL (`api: graphql`, the default), first run and no-change re-run;
 * - REST conditional re-run (same token: every source read is a 304);
 * and the 4-shard fan-out (4 concurrent runs with `shard: i/4`) against one job.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ActionInputs } from '../src/action/inputs.js';
import { runAction } from '../src/action/run-action.js';
import { type EmulatorHandle, startEmulator } from '../src/emulator/index.js';
import { parseShard } from '../src/projection/run/shard.js';
import type { BenchResult } from './run.js';

/** Added latency per request (ms): loopback is ~0 ms, api.github.com ~50–150 ms. */
const LATENCY_MS = 25;

async function org(n: number): Promise<EmulatorHandle> {
  const em = await startEmulator({ latencyMs: LATENCY_MS });
  em.state.createRepo('bench/data', { ownerType: 'Organization' });
  em.state.account('big', 'Organization');
  for (let i = 0; i < n; i++) {
    const name = `big/r${String(i).padStart(4, '0')}`;
    em.state.createRepo(name, { ownerType: 'Organization', description: `repo ${i}` });
    em.state.addBranch(name, 'develop');
  }
  return em;
}

function inputs(em: EmulatorHandle, token: string, section: string, shard?: string): ActionInputs {
  return {
    spec: 'docdb.yml',
    token,
    repository: 'bench/data',
    root: 'docdb',
    section,
    apiUrl: em.url,
    mode: 'project',
    projections: [],
    namespace: '',
    type: '',
    id: '',
    version: '',
    retryConcurrentWrites: 10,
    commitMessage: '',
    since: '',
    exportPath: 'docdb-export.jsonl',
    exportFormat: 'jsonl',
    shard: shard ? parseShard(shard) : undefined,
    minRateLimit: 0,
  };
}

/** One run: wall time, requests, REST budget and GraphQL points spent. */
async function measure(
  name: string,
  em: EmulatorHandle,
  runs: () => Promise<unknown>,
  tokens: string[],
): Promise<BenchResult> {
  const before = em.requests.length;
  const points = () => tokens.reduce((s, t) => s + (em.state.findToken(t)?.graphqlBudget.used ?? 0), 0);
  const p0 = points();
  const start = performance.now();
  await runs();
  const totalMs = performance.now() - start;
  const log = em.requests.slice(before);
  return {
    name,
    iterations: 1,
    totalMs,
    perOpMs: totalMs,
    extra: {
      requests: log.length,
      restBudget: log.filter((r) => r.costsBudget).length,
      graphqlPoints: points() - p0,
      notModified: log.filter((r) => r.status === 304).length,
      latencyMs: LATENCY_MS,
    },
  };
}

function workspace(api: 'graphql' | 'rest'): string {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-bench-'));
  writeFileSync(
    join(dir, 'docdb.yml'),
    `projections:\n  repos:\n    source: { type: repository, api: ${api}, repositories: "big/*" }\n    prune: true\n`,
  );
  return dir;
}

export async function sourceBenches(quick: boolean): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const n of quick ? [10, 200] : [10, 200, 1000]) {
    const em = await org(n);
    let tokens = 0;
    const token = (rate = 10_000_000) => {
      const t = `ghp_bench_${tokens++}`;
      em.state.addToken(t, { login: 'bench', repos: '*', rateLimit: rate, graphqlRateLimit: rate });
      return t;
    };
    const rest = workspace('rest');
    const gql = workspace('graphql');
    const run = (ws: string, t: string, section: string, shard?: string) =>
      runAction(inputs(em, t, section, shard), { workspace: ws });
    try {
      const pat = token();
      out.push(
        await measure(`sources ${n} repos: REST one by one (first run)`, em, () => run(rest, pat, 'rest'), [pat]),
      );
      const fresh = token();
      out.push(
        await measure(`sources ${n} repos: REST re-run, fresh token (no 304)`, em, () => run(rest, fresh, 'rest'), [
          fresh,
        ]),
      );
      out.push(
        await measure(`sources ${n} repos: REST conditional re-run (304s)`, em, () => run(rest, pat, 'rest'), [pat]),
      );
      const g = token();
      out.push(await measure(`sources ${n} repos: GraphQL (first run)`, em, () => run(gql, g, 'gql'), [g]));
      out.push(await measure(`sources ${n} repos: GraphQL re-run`, em, () => run(gql, g, 'gql'), [g]));
      const one = token();
      out.push(await measure(`sources ${n} repos: one job, REST`, em, () => run(rest, one, 'one'), [one]));
      const shards = [1, 2, 3, 4].map(() => token());
      out.push(
        await measure(
          `sources ${n} repos: 4 shards at once, REST`,
          em,
          () => Promise.all(shards.map((t, i) => run(rest, t, 'fan', `${i + 1}/4`))),
          shards,
        ),
      );
    } finally {
      await em.stop();
      rmSync(rest, { recursive: true, force: true });
      rmSync(gql, { recursive: true, force: true });
    }
  }
  return out;
}
