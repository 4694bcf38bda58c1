/** The benchmark suites run by bench/run.ts. Each returns one BenchResult or several. */
import { performance } from 'node:perf_hooks';
import { MemoryRefStore } from '../src/stores/memory/memory-refstore.js';
import { backfillBench } from './backfill.js';
import { browserBundleSize } from './bundle.js';
import { cpuBenches } from './cpu.js';
import { gitObjectBenches } from './git-objects.js';
import { guardedWriteBench } from './guarded-write.js';
import { peersBench } from './peers.js';
import { remoteBatchWrite, remoteColdGet, remoteWarmGet } from './remote.js';
import type { BenchResult } from './run.js';
import { schemaValidateBench } from './schema-validate.js';
import { sourceBenches } from './sources.js';
import { sqliteExportBench } from './sqlite-export.js';
import { storeComparison } from './stores.js';
import { viewDemoSeed } from './view-demo.js';
import { writesBench } from './writes.js';

/** A benchmark: one result, or several from one shared setup. */
type Bench = (quick: boolean) => Promise<BenchResult | BenchResult[]>;

async function time(name: string, iterations: number, fn: (i: number) => Promise<void> | void): Promise<BenchResult> {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn(i);
  const totalMs = performance.now() - start;
  return { name, iterations, totalMs, perOpMs: totalMs / iterations };
}

const memoryBatchCommit: Bench = async (quick) => {
  const n = quick ? 2_000 : 10_000;
  const store = new MemoryRefStore();
  const changes = Array.from({ length: n }, (_, i) => ({
    op: 'put' as const,
    key: `k/${i % 100}/${i}.json`,
    value: `{"i":${i}}\n`,
  }));
  return time(`memory commit of ${n} keys (one commit)`, 1, async () => {
    await store.commit(changes);
  });
};

const memoryWarmGet: Bench = async (quick) => {
  const store = new MemoryRefStore();
  await store.commit(
    Array.from({ length: 1000 }, (_, i) => ({ op: 'put' as const, key: `d/${i}.json`, value: `${i}` })),
  );
  return time('memory get (1,000-key section)', quick ? 1_000 : 10_000, async (i) => {
    await store.get(`d/${i % 1000}.json`);
  });
};

/** The suites by name, in run order (`npm run bench -- --only cpu,bundle` runs some of them). */
export const benches: Record<string, Bench> = {
  cpu: cpuBenches,
  bundle: browserBundleSize,
  'memory-commit': memoryBatchCommit,
  'memory-get': memoryWarmGet,
  'remote-cold-get': remoteColdGet,
  'remote-warm-get': remoteWarmGet,
  'remote-batch': remoteBatchWrite,
  writes: writesBench,
  sources: sourceBenches,
  stores: storeComparison,
  'git-objects': gitObjectBenches,
  peers: peersBench,
  backfill: backfillBench,
  'view-demo': viewDemoSeed,
  'schema-validate': schemaValidateBench,
  'guarded-write': guardedWriteBench,
  sqlite: sqliteExportBench,
};
