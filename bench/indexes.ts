/**
 * Issue 28's budget table, against the emulator (loopback, no added latency):
 *  - first write of N documents with 2 indexed fields (declared in the same commit) against the same write
 *    without an index: requests and client CPU (each write in its own process: bench/indexes-worker.ts);
 *  - then, on the indexed section: a cold query (50 matches, rows from the index), the same again (tip
 *    unchanged), the same returning the 50 documents in full, and a put of 1 document — requests, bytes
 *    down (and, for the query, the index files' own bytes), bytes up.
 * Run: npx tsx bench/indexes.ts [--n 100000] [--runs 3] [--text 1100]   → bench/results/indexes.{json,md}
 * (--text: filler characters per document; the table says the document size it was measured with; another
 * size than the default's writes bench/results/indexes-text<chars>.{json,md}, so the docs' table stays the
 * default's)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocumentStore } from '../src/document/index.js';
import { manifestPath, parseManifest, planQuery } from '../src/document/indexes/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';
import { runChild } from './child.js';
import { type IndexesFile, indexesTable } from './indexes-table.js';
import { INDEXES_TOKEN } from './indexes-worker.js';
import { median } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 100_000);
const RUNS = arg('runs', 3);
/** Filler characters per document: 1,100 ≈ 1.2 KB documents (bench/writes.ts); 100 ≈ 250 bytes. */
const TEXT = arg('text', 1100);

interface WriteOut {
  requests: number;
  sent: number;
  ms: number;
  cpuUs: number;
}

async function write(api: string, repo: string, mode: 'plain' | 'indexed'): Promise<WriteOut> {
  const r = await runChild(process.execPath, [
    '--import',
    'tsx',
    join(here, 'indexes-worker.ts'),
    api,
    repo,
    String(N),
    mode,
    String(TEXT),
  ]);
  if (r.status !== 0) throw new Error(`indexes worker (${mode}) failed\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as WriteOut;
}

function metered(api: string, repo: string) {
  const m = { requests: 0, received: 0, sent: 0 };
  const inner = fetchTransport({ timeoutMs: 0 });
  const transport: HttpTransport = {
    request: async (req) => {
      m.requests++;
      m.sent += req.body?.length ?? 0;
      const res = await inner.request(req);
      m.received += res.body.length;
      return res;
    },
  };
  const store = new RemoteApiRefStore({ transport, apiUrl: api, owner: 'bench', repo, token: INDEXES_TOKEN });
  return { m, docs: new DocumentStore(store) };
}

const QUERY = {
  namespace: 'bench',
  type: 'item',
  where: [
    { field: 'data.stars', op: '>=' as const, value: 900 },
    { field: 'data.language', op: '=' as const, value: 'Go' },
  ],
  orderBy: { field: 'data.stars', direction: 'desc' as const },
  limit: 50,
};

async function main() {
  const em = await startEmulator({});
  em.state.addToken(INDEXES_TOKEN, { login: 'bench', repos: '*', rateLimit: 1e9 });
  const plain: WriteOut[] = [];
  const indexed: WriteOut[] = [];
  let last = '';
  for (let run = 0; run < RUNS; run++) {
    for (const mode of ['plain', 'indexed'] as const) {
      const repo = `items-${mode}-${run}`;
      em.state.createRepo(`bench/${repo}`, {});
      (mode === 'plain' ? plain : indexed).push(await write(em.url, repo, mode));
      if (mode === 'indexed') last = repo;
    }
  }
  const med = (xs: WriteOut[], k: keyof WriteOut) => median(xs.map((x) => x[k]));
  // Queries and a put on the last indexed section, each from a fresh store (cold caches).
  const cold = metered(em.url, last);
  const q = await cold.docs.query({ ...QUERY, fields: ['data.stars', 'data.language'] });
  const db = em.state.repo(`bench/${last}`).db;
  const tree = db.getCommit(db.readRef('refs/docdb/documents')!).tree;
  const bytesOf = (p: string) => db.getBlob(db.lookupPath(tree, p)!.sha).length;
  const m = parseManifest(db.getBlob(db.lookupPath(tree, manifestPath('bench', 'item'))!.sha), 'bench', 'item');
  const plan = planQuery(m, { ...QUERY, fields: ['data.stars', 'data.language'] });
  const indexRead =
    plan.kind === 'index'
      ? plan.parts.reduce((n, p) => n + bytesOf(p.path), bytesOf(manifestPath('bench', 'item')))
      : 0;
  const before = cold.m.requests;
  await cold.docs.query({ ...QUERY, fields: ['data.stars', 'data.language'] });
  const warm = cold.m.requests - before;
  const full = metered(em.url, last);
  const f = await full.docs.query(QUERY);
  const put = metered(em.url, last);
  await put.docs.put({
    namespace: 'bench',
    type: 'item',
    id: 'g7/item-7',
    data: { i: 7, language: 'Go', stars: 5000, text: 'y' },
  });
  await em.stop();
  const result: IndexesFile = {
    n: N,
    textChars: TEXT,
    runs: RUNS,
    firstWrite: {
      plain: {
        requests: med(plain, 'requests'),
        cpuMs: med(plain, 'cpuUs') / 1000,
        ms: med(plain, 'ms'),
        sent: med(plain, 'sent'),
      },
      indexed: {
        requests: med(indexed, 'requests'),
        cpuMs: med(indexed, 'cpuUs') / 1000,
        ms: med(indexed, 'ms'),
        sent: med(indexed, 'sent'),
      },
    },
    query: { matches: q.rows.length, requests: cold.m.requests - warm, received: 0, indexBytes: indexRead, warm },
    full: { requests: full.m.requests, documents: f.documents?.length ?? 0 },
    put: { requests: put.m.requests, sent: put.m.sent },
  };
  result.query.received = cold.m.received;
  const md = indexesTable(result);
  mkdirSync(join(here, 'results'), { recursive: true });
  const stem = TEXT === 1100 ? 'indexes' : `indexes-text${TEXT}`;
  writeFileSync(join(here, 'results', `${stem}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(here, 'results', `${stem}.md`), `${md}\n`);
  console.log(md);
}

await main();
