/**
 * RemoteApiRefStore benchmarks against the local emulator (loopback, optional added latency).
 * Reports ms/op and the upstream requests per op measured from the emulator's request log.
 */
import { performance } from 'node:perf_hooks';
import { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { BenchResult } from './run.js';

const TOKEN = 'ghp_bench_token';

async function withEmulator<T>(fn: (url: string, requests: () => number) => Promise<T>): Promise<T> {
  const em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 10_000_000 });
  em.state.createRepo('bench/data');
  try {
    return await fn(em.url, () => em.requests.length);
  } finally {
    await em.stop();
  }
}

function store(url: string): RemoteApiRefStore {
  return new RemoteApiRefStore({
    transport: fetchTransport(),
    apiUrl: url,
    owner: 'bench',
    repo: 'data',
    token: TOKEN,
  });
}

/** The `n` bench documents (≈250 bytes of data each, 50 directories), shared by the store benchmarks. */
export function benchDocs(n: number, salt: string) {
  return Array.from({ length: n }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `group-${i % 50}/item-${i}`,
    data: { i, salt, tags: ['a', 'b'], text: 'x'.repeat(200) },
  }));
}

async function measure(
  name: string,
  iterations: number,
  requests: () => number,
  fn: (i: number) => Promise<void>,
): Promise<BenchResult> {
  const before = requests();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn(i);
  const totalMs = performance.now() - start;
  return {
    name,
    iterations,
    totalMs,
    perOpMs: totalMs / iterations,
    extra: { requestsPerOp: Number(((requests() - before) / iterations).toFixed(2)) },
  };
}

export async function remoteBatchWrite(quick: boolean): Promise<BenchResult> {
  const n = quick ? 500 : 5_000;
  return withEmulator(async (url, requests) => {
    const ds = new DocumentStore(store(url));
    await ds.putMany(benchDocs(10, 'warm-up'));
    return measure(`remote putMany ${n} docs (one commit)`, 1, requests, async () => {
      await ds.putMany(benchDocs(n, 'run'));
    });
  });
}

export async function remoteColdGet(quick: boolean): Promise<BenchResult> {
  return withEmulator(async (url, requests) => {
    await new DocumentStore(store(url)).putMany(benchDocs(1_000, 'seed'));
    return measure('remote cold get (1,000-doc section)', quick ? 20 : 100, requests, async (i) => {
      await new DocumentStore(store(url)).get({
        namespace: 'bench',
        doc_type: 'item',
        id: `group-${i % 50}/item-${i}`,
      });
    });
  });
}

export async function remoteWarmGet(quick: boolean): Promise<BenchResult> {
  return withEmulator(async (url, requests) => {
    const ds = new DocumentStore(store(url));
    await ds.putMany(benchDocs(1_000, 'seed'));
    await ds.get({ namespace: 'bench', doc_type: 'item', id: 'group-0/item-0' });
    return measure('remote warm get, unchanged tip', quick ? 100 : 1_000, requests, async () => {
      await ds.get({ namespace: 'bench', doc_type: 'item', id: 'group-0/item-0' });
    });
  });
}
