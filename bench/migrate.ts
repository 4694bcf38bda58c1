/**
 * Issue 38's migration budget, measured: migrating a 50,000-document type costs at most 1.2x the requests
 * of writing those documents from scratch. On the GitHub API emulator (loopback, no pacing), each store as
 * a fresh process would have it (cold caches; the Node entry point's archive reader):
 *  1. from scratch: `putMany` of N documents of ~1.2 KB into an empty section;
 *  2. dry run: `docs.migrate({ dryRun: true })` of the same type (reads only);
 *  3. migration: rename + cast + set on every document, in one commit;
 *  4. move-type: every document moved to another type (old keys deleted, new written).
 * Counted at the emulator (its request log): requests, content-creating requests (POST/PATCH, GraphQL
 * mutations excluded here: none is sent), and the ratio to row 1; wall time and the heap after each row
 * (timings belong here, never in tests — __tests__/remote-api/migrate-budget.test.ts asserts the ratio
 * at 5,000 documents with create-tree requests cut to the same count per document).
 *   npx tsx bench/migrate.ts [--quick (5,000 documents), written to the temp directory] → bench/results/migrate.json and .md
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { nodeArchiveReader } from '../src/stores/remote-api/node-archive.js';
import { fetchTransport } from '../src/transport/index.js';
import { type MigrateFile, type MigrateRow, migrateTable } from './migrate-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const N = quick ? 5_000 : 50_000;
const TOKEN = 'ghp_bench_migrate_token';
const REPO = 'octo/migrate';

const em = await startEmulator();
em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 100_000_000 });
em.state.createRepo(REPO);

/** A store as a new process has it: nothing cached. */
const docs = () =>
  new DocumentStore(
    new RemoteApiRefStore({
      transport: fetchTransport({ timeoutMs: 0 }),
      apiUrl: em.url,
      owner: 'octo',
      repo: 'migrate',
      token: TOKEN,
      archive: nodeArchiveReader(),
    }),
  );

const documents = Array.from({ length: N }, (_, i) => ({
  namespace: 'gh',
  type: 'repo',
  id: `octo/r${String(i).padStart(6, '0')}`,
  data: { name: `r${i}`, stars: String(i % 5000), topics: ['a', 'b'], about: 'x'.repeat(1100) },
}));

type Row = MigrateRow;

/** The requests other than create-tree, by operation (where a row's requests beyond its uploads go). */
function readsOf(sent: { method: string; operation?: string; status: number }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of sent) {
    if (r.operation === 'git/create-tree') continue;
    const k = `${r.method} ${r.operation ?? '?'} ${r.status}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

async function row(scenario: string, run: () => Promise<unknown>): Promise<Row> {
  const from = em.requests.length;
  const t0 = performance.now();
  const result = (await run()) as { counts?: unknown };
  const wallMs = Math.round(performance.now() - t0);
  const sent = em.requests.slice(from);
  const out: Row = {
    scenario,
    requests: sent.length,
    contentCreating: sent.filter((r) => r.method === 'POST' && r.operation !== 'graphql').length,
    commits: sent.filter((r) => r.operation === 'git/create-commit').length,
    wallMs,
    heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    ...(result?.counts ? { counts: result.counts } : {}),
    reads: readsOf(sent),
  };
  process.stderr.write(`${JSON.stringify(out)}\n`);
  return out;
}

const operations = [
  { op: 'rename', from: 'data.name', to: 'data.title' },
  { op: 'cast', field: 'data.stars', to: 'number' },
  { op: 'set', field: 'data.source', value: 'api' },
] as const;
const rows = [
  await row(`write ${N.toLocaleString('en-US')} documents from scratch`, () => docs().putMany(documents)),
  await row('dry run (reads only)', () =>
    docs().migrate({ namespace: 'gh', type: 'repo', operations: [...operations], dryRun: true }),
  ),
  await row('migration: rename + cast + set on every document', () =>
    docs().migrate({ namespace: 'gh', type: 'repo', operations: [...operations] }),
  ),
  await row('move-type to another type', () =>
    docs().migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'move-type', namespace: 'hub', type: 'repo' }],
    }),
  ),
];
await em.stop();
const scratch = rows[0]?.requests ?? 1;
for (const r of rows.slice(1)) r.ratio = Math.round((r.requests / scratch) * 100) / 100;

const file: MigrateFile = {
  date: new Date().toISOString(),
  node: process.version,
  documents: N,
  budgetRatio: 1.2,
  rows,
};
const md = migrateTable(file);
console.log(md);
// A quick run proves the pipeline; its figures are not the table's: it never replaces the committed results.
const base = quick ? join(tmpdir(), 'docdb-migrate-quick') : join(here, 'results', 'migrate');
mkdirSync(dirname(base), { recursive: true });
writeFileSync(`${base}.json`, `${JSON.stringify(file, null, 2)}\n`);
writeFileSync(`${base}.md`, `${md}\n`);
console.log(`wrote ${base}.json`);
