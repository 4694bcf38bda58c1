/**
 * The read benchmark (issue 20): docdb's reads beside the peers' ways of reading the same documents, against
 * the emulator with 20 ms injected latency per request. Requests and bytes (received, at the fetch) are
 * exact; times are one run's wall clock (loopback, in-process emulator).
 *   docdb          RemoteApiRefStore (cold instance per row; archive reader as in the CLI and the Action)
 *   flat file      all documents in one JSON file on a branch, read with the contents API's raw media type
 *   tree + blobs   Decap-style: the branch's recursive tree, then one blob per document read
 *   contents       the contents API, one request per document
 * Rows: cold get of one document, get pinned to the previous version, changes() with 100 documents changed,
 * every document with data cold and warm, history() again with the tip unchanged, cold put of one document.
 *
 *   npx tsx bench/reads.ts [--sizes 1000,10000,100000] [--latency 20]
 * Writes bench/results/reads.json and bench/results/reads.md; `npm run bench:docs` then updates the README.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { nodeArchiveReader } from '../src/stores/remote-api/node-archive.js';
import { fetchTransport } from '../src/transport/index.js';
import { type Meter, meteredFetch } from './metered-fetch.js';
import { type ReadRow, table } from './reads-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const TOKEN = 'ghp_bench_reads_token_0123456789abcdef';
const REPO = 'bench/reads';
const REF = 'refs/docdb/documents';
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : def;
};
const SIZES = arg('sizes', '1000,10000,100000').split(',').map(Number);
const LATENCY = Number(arg('latency', '20'));
/** Peers that read one request per document are measured up to this size (beyond: by construction, N+1). */
const PER_DOC_MAX = 1000;

const key = (i: number) => `bench/item/g${i % 50}/item-${i}.json`;
const id = (i: number) => `g${i % 50}/item-${i}`;
const envelope = (i: number, salt: string) => ({
  data: { i, salt, tags: ['a', 'b'], text: 'x'.repeat(200) },
  id: id(i),
  namespace: 'bench',
  type: 'item',
});
const blob = (i: number, salt: string) => `${JSON.stringify(envelope(i, salt), null, 2)}\n`;

/** The section, the flat file (branch `flat`), as two commits: v1, then v2 with 100 documents changed. */
function seed(em: EmulatorHandle, n: number): { v1: string; v2: string } {
  em.state.createRepo(REPO);
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < n; i++) files[key(i)] = blob(i, 'v1');
  const v1 = em.state.commitFiles(REPO, { branch: REF, files, message: `seed ${n}` });
  const flat = Array.from({ length: n }, (_, i) => envelope(i, 'v1'));
  em.state.commitFiles(REPO, { branch: 'flat', files: { 'data.json': JSON.stringify(flat) }, message: 'flat' });
  const changed: Record<string, string> = {};
  for (let j = 0; j < 100; j++) changed[key((j * 7919) % n)] = blob((j * 7919) % n, 'v2');
  const v2 = em.state.commitFiles(REPO, { branch: REF, files: changed, message: 'change 100' });
  return { v1, v2 };
}

function meter(): Meter {
  return { requests: 0, writes: 0, sent: 0, received: 0 };
}

function docdb(url: string, m: Meter): RemoteApiRefStore {
  const fetch = meteredFetch(m);
  return new RemoteApiRefStore({
    transport: fetchTransport({ fetch, timeoutMs: 600_000 }),
    apiUrl: url,
    owner: 'bench',
    repo: 'reads',
    token: TOKEN,
    archive: nodeArchiveReader({ fetch }),
    cache: { maxBytes: 512 * 1024 * 1024 },
  });
}

async function row(read: string, strategy: string, n: number, fn: (m: Meter) => Promise<unknown>): Promise<ReadRow> {
  const m = meter();
  const start = performance.now();
  await fn(m);
  return { read, strategy, n, requests: m.requests, bytes: m.received, ms: Math.round(performance.now() - start) };
}

/** An authenticated GET through a meter. */
function getter(url: string, m: Meter) {
  const fetch = meteredFetch(m);
  return async (path: string, accept = 'application/vnd.github+json') => {
    const res = await fetch(`${url}/repos/${REPO}${path}`, { headers: { authorization: `Bearer ${TOKEN}`, accept } });
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    return accept.includes('raw') ? res.text() : res.json();
  };
}

async function docdbRows(em: EmulatorHandle, n: number, v: { v1: string; v2: string }): Promise<ReadRow[]> {
  const url = em.url;
  const rows: ReadRow[] = [];
  const ident = { namespace: 'bench', doc_type: 'item', id: id(n - 1) };
  rows.push(await row('cold get', 'docdb', n, (m) => new DocumentStore(docdb(url, m)).get(ident)));
  rows.push(await row('pinned get', 'docdb', n, (m) => new DocumentStore(docdb(url, m)).get(ident, { version: v.v1 })));
  rows.push(
    await row('changes (100 changed)', 'docdb', n, (m) => new DocumentStore(docdb(url, m)).changes({ from: v.v1 })),
  );
  const warm = meter();
  const warmStore = new DocumentStore(docdb(url, warm));
  rows.push(await row('all documents with data, cold', 'docdb', n, () => all(warmStore)));
  rows[rows.length - 1] = { ...rows[rows.length - 1]!, requests: warm.requests, bytes: warm.received };
  const before = { r: warm.requests, b: warm.received };
  const t = performance.now();
  await all(warmStore);
  rows.push({
    read: 'all documents with data, warm',
    strategy: 'docdb',
    n,
    requests: warm.requests - before.r,
    bytes: warm.received - before.b,
    ms: Math.round(performance.now() - t),
  });
  const h = docdb(url, meter());
  await h.history(key(n - 1));
  rows.push(
    await row('history again, tip unchanged', 'docdb', n, async (m) => {
      // The same store instance, metered from here on.
      const r = await h.history(key(n - 1));
      m.requests += r.requests ?? 0;
    }),
  );
  rows.push(await row('cold put', 'docdb', n, (m) => docdb(url, m).put(key(3), blob(3, 'put'))));
  return rows;
}

async function all(docs: DocumentStore): Promise<void> {
  let count = 0;
  for await (const d of docs.stream({ withData: true, pageSize: 100_000 })) if (d.document) count++;
  if (count === 0) throw new Error('no documents read');
}

async function peerRows(em: EmulatorHandle, n: number, v: { v1: string; v2: string }): Promise<ReadRow[]> {
  const url = em.url;
  const rows: ReadRow[] = [];
  const raw = 'application/vnd.github.raw+json';
  rows.push(await row('cold get', 'flat file', n, (m) => getter(url, m)('/contents/data.json?ref=flat', raw)));
  rows.push(
    await row('all documents with data, cold', 'flat file', n, (m) =>
      getter(url, m)('/contents/data.json?ref=flat', raw),
    ),
  );
  rows.push(
    await row('cold get', 'tree + blobs', n, async (m) => {
      const tree = (await getter(url, m)(`/git/trees/${encodeURIComponent(REF)}?recursive=1`)) as {
        tree: { path: string; sha: string }[];
      };
      const e = tree.tree.find((x) => x.path === key(n - 1));
      if (e) await getter(url, m)(`/git/blobs/${e.sha}`);
    }),
  );
  rows.push(
    await row('cold get', 'contents', n, (m) =>
      getter(url, m)(`/contents/${key(n - 1)}?ref=${encodeURIComponent(REF)}`),
    ),
  );
  rows.push(await row('pinned get', 'contents', n, (m) => getter(url, m)(`/contents/${key(n - 1)}?ref=${v.v1}`)));
  if (n <= PER_DOC_MAX) {
    rows.push(
      await row('all documents with data, cold', 'tree + blobs', n, async (m) => {
        const get = getter(url, m);
        const tree = (await get(`/git/trees/${v.v2}?recursive=1`)) as { tree: { type: string; sha: string }[] };
        for (const e of tree.tree) if (e.type === 'blob') await get(`/git/blobs/${e.sha}`);
      }),
    );
    rows.push(
      await row('all documents with data, cold', 'contents', n, async (m) => {
        const get = getter(url, m);
        for (let i = 0; i < n; i++) await get(`/contents/${key(i)}?ref=${v.v2}`);
      }),
    );
  }
  rows.push(
    await row('changes (100 changed)', 'tree + blobs', n, async (m) => {
      const get = getter(url, m);
      await get(`/git/trees/${v.v1}?recursive=1`);
      await get(`/git/trees/${v.v2}?recursive=1`);
    }),
  );
  return rows;
}

async function main(): Promise<void> {
  const rows: ReadRow[] = [];
  for (const n of SIZES) {
    const em = await startEmulator({ latencyMs: LATENCY });
    em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 10_000_000, graphqlRateLimit: 10_000_000 });
    try {
      const v = seed(em, n);
      rows.push(...(await docdbRows(em, n, v)), ...(await peerRows(em, n, v)));
      console.error(`measured N=${n}`);
    } finally {
      await em.stop();
    }
  }
  const reads = [
    'cold get',
    'pinned get',
    'changes (100 changed)',
    'all documents with data, cold',
    'all documents with data, warm',
    'history again, tip unchanged',
    'cold put',
  ];
  const order = (r: ReadRow) =>
    `${reads.indexOf(r.read)}|${r.n.toString().padStart(7, '0')}|${r.strategy === 'docdb' ? 0 : 1}${r.strategy}`;
  rows.sort((a, b) => (order(a) < order(b) ? -1 : 1));
  const dir = join(here, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'reads.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, latencyMs: LATENCY, rows }, null, 2)}\n`,
  );
  const md = `# Reads (issue 20)\n\nInjected latency: ${LATENCY} ms per request (emulator on loopback, in-process). Requests and bytes (received) are exact; times are one run. Peers reading one request per document are measured up to N = ${PER_DOC_MAX.toLocaleString('en-US')} (beyond that they cost N + 1 requests by construction). At 100,000 documents GitHub's recursive listing is truncated at 7 MB (about 28,000 entries): the tree + blobs peer does not find the document in it, and docdb's listing of the whole section walks the truncated levels (hence more than 5 requests there).\n\n${table(rows)}\n`;
  writeFileSync(join(dir, 'reads.md'), md);
  console.log(table(rows));
}

await main();
