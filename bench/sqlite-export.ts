/**
 * The SQLite export benchmark (issue 41): `exportSqlite` against the emulator (loopback, no injected latency),
 * through the CLI's store (the GitHub API store with the archive reader). Requests and bytes (received) are exact;
 * times are one run's wall clock on this machine.
 *   cold         a type of N documents (flat ids) into a new file
 *   unchanged    the same file again, the section unchanged
 *   history      `--history` over C commits of a section of S documents, each commit changing `churn` of them:
 *                requests per commit after the first, and bytes read against the bytes of the documents changed
 *
 *   npx tsx bench/sqlite-export.ts [--sizes 10000,100000] [--section 10000] [--commits 720] [--churn 100]
 *   npx tsx bench/sqlite-export.ts --render   (only the .md, from the .json)
 * Writes bench/results/sqlite-export.json and bench/results/sqlite-export.md; `npm run bench -- --only sqlite`
 * runs a smaller version (bench/suites.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { envelopeText } from '../src/document/envelope.js';
import { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import { exportSqlite } from '../src/export/sqlite/export-sqlite.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { nodeArchiveReader } from '../src/stores/remote-api/node-archive.js';
import { fetchTransport } from '../src/transport/index.js';
import { type Meter, meteredFetch } from './metered-fetch.js';
import type { BenchResult } from './run.js';
import { type SqliteFile, type SqliteRow, sqliteTable } from './sqlite-export-table.js';

const here = dirname(fileURLToPath(import.meta.url));
export const TOKEN = 'ghp_bench_sqlite_token_0123456789abcdef';
export const REF = 'refs/docdb/documents';

/**
 * A scraped record of about 1.6 KB as docdb stores it (canonical JSON, envelopeText), of which a scrape changes a
 * few fields (temp, rev, updated_at).
 */
export const record = (i: number, rev: number) =>
  envelopeText({
    data: {
      temp: i + rev,
      rev,
      station: { name: `s${i}`, lat: 48 + i / 1e5, lon: 2 + i / 1e5 },
      updated_at: `2026-01-01T00:${String(rev % 60).padStart(2, '0')}:00Z`,
      description: `Weather station ${i}, operated by the city; readings every ten minutes. `.repeat(8),
      links: Object.fromEntries(
        ['html', 'api', 'history', 'map', 'owner'].map((k) => [k, `https://example.org/${k}/${i}`]),
      ),
      sensors: Array.from({ length: 8 }, (_, j) => ({
        kind: `sensor-${j}`,
        model: `m${(i + j) % 5}`,
        since: 2020 + j,
      })),
    },
    id: `c${i}`,
    namespace: 'city',
    type: 'weather',
  });

/** A small record (≈ 300 bytes). */
export const small = (i: number) =>
  `${JSON.stringify({ data: { temp: i % 40, station: `s${i}`, city: `c${i % 500}`, ok: i % 2 === 0, tags: ['a', 'b'] }, id: `c${i}`, namespace: 'city', type: 'weather' }, null, 2)}\n`;

const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);

/** A DocumentStore over the emulator's `repo` as the CLI builds it (archive reader on), metered by `m`. */
export function docs(em: EmulatorHandle, repo: string, m: Meter): DocumentStore {
  const fetch = meteredFetch(m);
  const [owner, name] = repo.split('/') as [string, string];
  return new DocumentStore(
    new RemoteApiRefStore({
      transport: fetchTransport({ fetch, timeoutMs: 600_000 }),
      apiUrl: em.url,
      owner,
      repo: name,
      token: TOKEN,
      archive: nodeArchiveReader({ fetch }),
      cache: { maxBytes: 1024 * 1024 * 1024 },
    }),
  );
}

export const meter = (): Meter => ({ requests: 0, writes: 0, sent: 0, received: 0 });

async function exportOnce(em: EmulatorHandle, repo: string, file: string, history: boolean) {
  const m = meter();
  const d = docs(em, repo, m);
  const start = performance.now();
  const version = (await d.head()) as string;
  const result = await exportSqlite(d, { file, section: `${repo} ${REF}`, version, history });
  return { m, result, ms: Math.round(performance.now() - start) };
}

/** Cold export of a type of `n` documents, then the same file again with the section unchanged. */
async function coldRows(em: EmulatorHandle, dir: string, n: number): Promise<SqliteRow[]> {
  const repo = `bench/sqlite-cold-${n}`;
  em.state.createRepo(repo);
  const files: Record<string, string> = {};
  // Small records (≈ 300 bytes): 100,000 of the 1.6 KB ones would pass the archive's 160 MiB limit (then read in
  // GraphQL batches instead), which is the archive reader's bound, not the export's.
  for (let i = 0; i < n; i++) files[`city/weather/c${i}.json`] = small(i);
  em.state.commitFiles(repo, { branch: REF, files, orphan: true, message: `seed ${n}` });
  log(`cold ${n}: seeded`);
  const file = join(dir, `cold-${n}.db`);
  const cold = await exportOnce(em, repo, file, false);
  log(`cold ${n}: ${cold.m.requests} requests, ${cold.ms} ms`);
  if (cold.result.rows !== n) throw new Error(`cold export wrote ${cold.result.rows} rows, expected ${n}`);
  const again = await exportOnce(em, repo, file, false);
  return [
    {
      case: `cold, a type of ${n.toLocaleString('en')}`,
      requests: cold.m.requests,
      bytes: cold.m.received,
      ms: cold.ms,
    },
    {
      case: `again, unchanged (${n.toLocaleString('en')})`,
      requests: again.m.requests,
      bytes: again.m.received,
      ms: again.ms,
    },
  ];
}

/** `--history` over `commits` commits of a `size`-document section, `churn` documents changed per commit. */
async function historyRow(
  em: EmulatorHandle,
  dir: string,
  size: number,
  commits: number,
  churn: number,
): Promise<SqliteRow> {
  const repo = `bench/sqlite-history-${size}-${commits}`;
  em.state.createRepo(repo);
  const files: Record<string, string> = {};
  for (let i = 0; i < size; i++) files[`city/weather/c${i}.json`] = record(i, 0);
  let firstBytes = 0;
  for (const v of Object.values(files)) firstBytes += Buffer.byteLength(v);
  em.state.commitFiles(repo, { branch: REF, files, orphan: true, message: 'seed' });
  let laterBytes = 0;
  for (let k = 1; k < commits; k++) {
    const change: Record<string, string> = {};
    for (let j = 0; j < churn; j++) {
      const i = (k * churn + j) % size;
      change[`city/weather/c${i}.json`] = record(i, k);
    }
    for (const v of Object.values(change)) laterBytes += Buffer.byteLength(v);
    em.state.commitFiles(repo, { branch: REF, files: change, message: `scrape ${k}` });
    if (k % 100 === 0) log(`history: ${k} commits seeded`);
  }
  const file = join(dir, `history-${size}-${commits}.db`);
  const m = meter();
  const d = docs(em, repo, m);
  // What the first commit cost (head, the commit list, the first commit read whole): taken when it is written.
  const first = { requests: 0, bytes: 0 };
  const onProgress = (n: number) => {
    if (n === 1) Object.assign(first, { requests: m.requests, bytes: m.received });
    if (n % 100 === 0) log(`history: ${n} commits exported`);
  };
  const start = performance.now();
  const version = (await d.head()) as string;
  const result = await exportSqlite(d, { file, section: `${repo} ${REF}`, version, history: true, onProgress });
  const ms = Math.round(performance.now() - start);
  const expected = size + (commits - 1) * churn;
  if (result.rows !== expected) throw new Error(`history wrote ${result.rows} version rows, expected ${expected}`);
  return {
    case: `--history, ${commits} commits of ${size.toLocaleString('en')} (${churn} changed each)`,
    requests: m.requests,
    bytes: m.received,
    ms,
    commits,
    changedBytes: firstBytes + laterBytes,
    perCommit: (m.requests - first.requests) / (commits - 1),
    laterRatio: (m.received - first.bytes) / laterBytes,
  };
}

/** The rows for the sizes asked. */
export async function runSqliteBench(o: {
  sizes: number[];
  section: number;
  commits: number;
  churn: number;
}): Promise<SqliteRow[]> {
  const em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'bench', repos: '*', rateLimit: 100_000_000 });
  const dir = mkdtempSync(join(tmpdir(), 'docdb-sqlite-bench-'));
  try {
    const rows: SqliteRow[] = [];
    for (const n of o.sizes) rows.push(...(await coldRows(em, dir, n)));
    rows.push(await historyRow(em, dir, o.section, o.commits, o.churn));
    return rows;
  } finally {
    await em.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench` (bench/suites.ts): a smaller run. */
export async function sqliteExportBench(quick: boolean): Promise<BenchResult[]> {
  const rows = await runSqliteBench(
    quick
      ? { sizes: [10_000], section: 1000, commits: 30, churn: 10 }
      : { sizes: [10_000], section: 10_000, commits: 100, churn: 100 },
  );
  return rows.map((r) => ({
    name: `sqlite export: ${r.case}`,
    iterations: 1,
    totalMs: r.ms,
    perOpMs: r.ms,
    extra: {
      requests: r.requests,
      bytes: r.bytes,
      ...(r.perCommit !== undefined ? { perCommit: Number(r.perCommit.toFixed(2)) } : {}),
    },
  }));
}

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : def;
}

if (process.argv[1]?.endsWith('sqlite-export.ts')) {
  const rows = process.argv.includes('--render')
    ? (JSON.parse(readFileSync(join(here, 'results', 'sqlite-export.json'), 'utf8')) as SqliteFile).rows
    : await runSqliteBench({
        sizes: arg('sizes', '10000,100000').split(',').map(Number),
        section: Number(arg('section', '10000')),
        commits: Number(arg('commits', '720')),
        churn: Number(arg('churn', '100')),
      });
  const md = `# SQLite export (issue 41)\n\nEmulator on loopback, no injected latency; requests and bytes received are exact, times one run on a loaded 2-core machine. Cold: records of ≈ 300 bytes in one type (flat ids). History: records of ≈ 1.6 KB (a scraped station) as docdb writes them (canonical JSON), of which a commit changes \`temp\`, \`rev\` and \`updated_at\` in each changed document; each changed document is rebuilt from the version before and the compare's patch. At 100,000 a recursive tree listing would be truncated (7 MB): the archive is read first, and its verified tree is the listing.\n\n${sqliteTable(rows)}`;
  if (!process.argv.includes('--render')) {
    const file: SqliteFile = { date: new Date().toISOString(), node: process.version, rows };
    writeFileSync(join(here, 'results', 'sqlite-export.json'), `${JSON.stringify(file, null, 2)}\n`);
  }
  writeFileSync(join(here, 'results', 'sqlite-export.md'), md);
  console.log(md);
}
