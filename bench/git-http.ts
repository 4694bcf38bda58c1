/**
 * GitHttpRefStore next to SubprocessGitRefStore (same smart-HTTP server, through the git binary) and
 * RemoteApiRefStore (the GitHub API emulator): round trips, bytes up/down and wall time per operation,
 * on sections of N documents. Both git stores talk to git's own `git http-backend` on loopback (the
 * test server, Basic auth); no latency is injected, so wall times are local costs (server processes,
 * pack parsing), and round trips × your network's RTT is what a real remote adds.
 *
 *   npx tsx bench/git-http.ts [--sizes 1000,10000] [--no-write]
 * Writes bench/results/git-http.json and bench/results/git-http.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startGitHttpServer } from '../__tests__/git/http-git-server.js';
import type { RefStore } from '../src/core/refstore.js';
import { DocumentStore, deriveKey } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { SubprocessGitRefStore } from '../src/stores/git/index.js';
import { GitHttpRefStore } from '../src/stores/git-http/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import { type Meter, meteredFetch } from './metered-fetch.js';
import { benchDocs } from './remote.js';

const TOKEN = 'bench-git-http-token';
const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const SIZES = (process.argv.includes('--sizes') ? (arg('--sizes') ?? '') : '1000,10000').split(',').map(Number);

/** One measured operation: a store, a section size, round trips, bytes up and down, wall time. */
export interface Row {
  store: string;
  n: number;
  op: string;
  requests: number;
  up: number;
  down: number;
  ms: number;
}

/** Traffic so far of one store kind: requests and bytes. */
type Traffic = () => { requests: number; up: number; down: number };

interface Kind {
  name: string;
  /** A fresh, independent store on the section (its own cache). */
  make: () => RefStore;
  traffic: Traffic;
  close: () => Promise<void>;
}

async function op(rows: Row[], kind: Kind, n: number, name: string, fn: () => Promise<unknown>): Promise<void> {
  const before = kind.traffic();
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  const after = kind.traffic();
  rows.push({
    store: kind.name,
    n,
    op: name,
    requests: after.requests - before.requests,
    up: after.up - before.up,
    down: after.down - before.down,
    ms,
  });
}

const ID = (i: number) => ({ namespace: 'bench', doc_type: 'item', id: `group-${i % 50}/item-${i}` });

/** The workload: batch write, cold get, warm get, get after one change elsewhere, put, history. */
async function workload(kind: Kind, n: number, rows: Row[]): Promise<void> {
  const writer = new DocumentStore(kind.make());
  await op(rows, kind, n, `write ${n} docs (one commit)`, () => writer.putMany(benchDocs(n, 'seed')));
  const reader = new DocumentStore(kind.make());
  await op(rows, kind, n, 'cold get (new store)', () => reader.get(ID(7)));
  await op(rows, kind, n, 'warm get (tip unchanged)', () => reader.get(ID(8)));
  await writer.put({ ...benchDocs(n, 'changed')[9]!, data: { changed: true } });
  await op(rows, kind, n, 'get after 1 doc changed elsewhere', () => reader.get(ID(9)));
  await op(rows, kind, n, 'put 1 doc (warm store)', () =>
    reader.put({ ...benchDocs(n, 'x')[10]!, data: { by: 'reader' } }),
  );
  for (let i = 0; i < 9; i++) await writer.put({ ...benchDocs(n, 'h')[11]!, data: { v: i } });
  const fresh = kind.make();
  await op(rows, kind, n, 'history of a doc (10 commits, new store)', () => fresh.history(deriveKey(ID(11))));
}

async function gitHttpKinds(root: string): Promise<{ kinds: Kind[]; stop: () => Promise<void> }> {
  const server = await startGitHttpServer(root, TOKEN);
  const logTraffic =
    (repo: string): Traffic =>
    () => {
      const mine = server.requests.filter((r) => r.url.startsWith(`/${repo}/`));
      return { requests: mine.length, up: 0, down: mine.reduce((s, r) => s + (r.bytes ?? 0), 0) };
    };
  const stores: GitHttpRefStore[] = [];
  execFileSync('git', ['init', '-q', '--bare', join(root, 'http.git')]);
  execFileSync('git', ['init', '-q', '--bare', join(root, 'sub.git')]);
  let caches = 0;
  const subStores: SubprocessGitRefStore[] = [];
  return {
    kinds: [
      {
        name: 'GitHttpRefStore',
        make: () => {
          const s = new GitHttpRefStore({ remote: `${server.url}/http.git`, token: TOKEN });
          stores.push(s);
          return s;
        },
        traffic: () => {
          const t = { requests: 0, up: 0, down: 0 };
          for (const s of stores) {
            t.requests += s.traffic.requests;
            t.up += s.traffic.bytesUp;
            t.down += s.traffic.bytesDown;
          }
          return t;
        },
        close: async () => {},
      },
      {
        name: 'SubprocessGitRefStore',
        make: () => {
          const s = new SubprocessGitRefStore({
            remote: `${server.url}/sub.git`,
            token: TOKEN,
            dir: join(root, `cache-${caches++}.git`),
          });
          subStores.push(s);
          return s;
        },
        traffic: logTraffic('sub.git'),
        close: async () => {
          await Promise.all(subStores.map((s) => s.close()));
        },
      },
    ],
    stop: () => server.stop(),
  };
}

async function apiKind(): Promise<{ kind: Kind; stop: () => Promise<void> }> {
  const em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
  em.state.createRepo('bench/git-http');
  const meter: Meter = { requests: 0, writes: 0, sent: 0, received: 0 };
  const transport = fetchTransport({ fetch: meteredFetch(meter) });
  return {
    kind: {
      name: 'RemoteApiRefStore',
      make: () => new RemoteApiRefStore({ transport, apiUrl: em.url, owner: 'bench', repo: 'git-http', token: TOKEN }),
      traffic: () => ({ requests: meter.requests, up: meter.sent, down: meter.received }),
      close: async () => {},
    },
    stop: () => em.stop(),
  };
}

const kb = (b: number) =>
  b < 1024 ? `${b} B` : b < 1024 * 1024 ? `${(b / 1024).toFixed(1)} KB` : `${(b / 1024 / 1024).toFixed(2)} MB`;

function markdown(rows: Row[]): string {
  const lines = [
    '# GitHttpRefStore vs SubprocessGitRefStore vs RemoteApiRefStore',
    '',
    `Node ${process.version}, git ${execFileSync('git', ['--version']).toString().trim().split(' ')[2]}, loopback, no injected latency; ` +
      'bytes are response/request bodies (SubprocessGitRefStore: responses only, from the server log).',
    '',
    '| store | N | operation | round trips | bytes up / down | wall time |',
    '|---|---:|---|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.store} | ${r.n} | ${r.op} | ${r.requests} | ${r.up ? kb(r.up) : '–'} / ${kb(r.down)} | ${r.ms.toFixed(0)} ms |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const rows: Row[] = [];
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'docdb-bench-git-http-'));
  const git = await gitHttpKinds(root);
  const api = await apiKind();
  try {
    for (const kind of [...git.kinds, api.kind]) {
      await workload(kind, n, rows);
      await kind.close();
      for (const r of rows.filter((x) => x.store === kind.name && x.n === n)) {
        console.log(
          `${kind.name.padEnd(22)} ${String(n).padStart(6)} ${r.op.padEnd(42)} ${String(r.requests).padStart(3)} req ${kb(r.up).padStart(10)} up ${kb(r.down).padStart(10)} down ${r.ms.toFixed(0).padStart(7)} ms`,
        );
      }
    }
  } finally {
    await git.stop();
    await api.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
if (!process.argv.includes('--no-write')) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  writeFileSync(
    join(dir, 'git-http.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'git-http.md'), markdown(rows));
  console.log(`\nwrote ${join(dir, 'git-http.md')}`);
}
