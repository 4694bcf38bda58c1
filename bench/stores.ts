/**
 * The three persistent stores side by side on one workload: a 10,000-document batch (one commit), a
 * list of 10,000 keys, a warm get (tip unchanged) and a single-document put, for
 * GitRefStore (local bare repository), SubprocessGitRefStore (file:// remote + cache) and
 * RemoteApiRefStore (the emulator on loopback). Targets (docs/git-stores.md): GitRefStore warm get
 * ≤ 2 ms, a 10,000-document batch ≤ 2 s.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { RefStore } from '../src/core/refstore.js';
import { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { GitRefStore, SubprocessGitRefStore } from '../src/stores/git/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import { benchDocs } from './remote.js';
import type { BenchResult } from './run.js';

const TOKEN = 'ghp_bench_stores_token';

interface Subject {
  name: string;
  store: RefStore;
  /** Upstream requests so far (RemoteApiRefStore), for requests per op. */
  requests?: () => number;
  close: () => Promise<void>;
}

async function measure(
  subject: Subject,
  what: string,
  iterations: number,
  fn: (i: number) => Promise<unknown>,
): Promise<BenchResult> {
  const before = subject.requests?.();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn(i);
  const totalMs = performance.now() - start;
  const r: BenchResult = { name: `${subject.name}: ${what}`, iterations, totalMs, perOpMs: totalMs / iterations };
  if (before !== undefined)
    r.extra = { requestsPerOp: Number(((subject.requests!() - before) / iterations).toFixed(2)) };
  return r;
}

async function workload(subject: Subject, n: number, quick: boolean): Promise<BenchResult[]> {
  const ds = new DocumentStore(subject.store);
  const results: BenchResult[] = [];
  try {
    results.push(await measure(subject, `putMany ${n} docs (one commit)`, 1, () => ds.putMany(benchDocs(n, 'batch'))));
    results.push(await measure(subject, `list ${n} keys`, quick ? 2 : 5, () => subject.store.list()));
    const ids = benchDocs(n, 'batch').map((d) => ({ namespace: d.namespace, doc_type: d.type, id: d.id }));
    await ds.get(ids[0]!); // warm: the reader runs, the tip is known
    results.push(
      await measure(subject, `warm get (${n}-doc section)`, quick ? 50 : 300, (i) => ds.get(ids[(i * 7919) % n]!)),
    );
    results.push(
      await measure(subject, `put 1 doc (${n}-doc section)`, quick ? 5 : 20, (i) =>
        ds.put({ namespace: 'bench', type: 'item', id: `single-${i}`, data: { i } }),
      ),
    );
  } finally {
    await subject.close();
  }
  return results;
}

function bareRepo(parent: string, name: string): string {
  const dir = join(parent, name);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return dir;
}

/** All three stores; returns one result per store and measurement. */
export async function storeComparison(quick: boolean): Promise<BenchResult[]> {
  const n = quick ? 2_000 : 10_000;
  const tmp = mkdtempSync(join(tmpdir(), 'docdb-bench-'));
  const results: BenchResult[] = [];
  try {
    const local = new GitRefStore({ dir: bareRepo(tmp, 'local.git') });
    results.push(...(await workload({ name: 'GitRefStore', store: local, close: () => local.close() }, n, quick)));

    const remote = pathToFileURL(bareRepo(tmp, 'remote.git')).href;
    const sub = new SubprocessGitRefStore({ remote, dir: join(tmp, 'cache.git') });
    results.push(
      ...(await workload({ name: 'SubprocessGitRefStore (file://)', store: sub, close: () => sub.close() }, n, quick)),
    );

    const em = await startEmulator();
    em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
    em.state.createRepo('bench/stores');
    const api = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      owner: 'bench',
      repo: 'stores',
      token: TOKEN,
    });
    results.push(
      ...(await workload(
        {
          name: 'RemoteApiRefStore (emulator)',
          store: api,
          requests: () => em.requests.length,
          close: () => em.stop(),
        },
        n,
        quick,
      )),
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}
