/**
 * Peak memory of a GitHttpRefStore read (issue 27): the resident set above the process's baseline
 * while one `list()` fetches and reads a whole section, each in its own Node process
 * (`__tests__/memory/peak-rss.ts`), for
 * - honest sections served by git's own `git http-backend` on loopback: N MiB of documents that do
 *   not compress (random bytes, 1 MiB each — pack ≈ inflated) and JSON documents (compress ~4×), giving
 *   the memory an honest fetch needs per byte of pack and per inflated byte;
 * - refused zlib bombs served by a fake v2 server: 1 and 2 GiB of zeros declared honestly, 1 GiB
 *   declaring 100 bytes, eleven deltas each claiming 100 MiB from a 1-byte base, a header declaring
 *   2,000,000 objects; and, accepted, 1,000,000 tiny blobs (what bookkeeping per object costs).
 *
 *   npx tsx bench/pack-memory.ts [--random 16,64,256] [--json 16,64]
 * Writes bench/results/pack-memory.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startGitHttpServer } from '../__tests__/git/http-git-server.js';
import { BLOB, blob, entry, ofsDelta, packOf, servePack, zeros } from '../__tests__/git-http/pack-bombs.js';
import { MiB, peakRss } from '../__tests__/memory/peak-rss.js';

const SCENARIO = '__tests__/memory/scenarios/git-http-read.ts';
const arg = (name: string, def: string) =>
  (process.argv.includes(name) ? (process.argv[process.argv.indexOf(name) + 1] ?? '') : def)
    .split(',')
    .filter(Boolean)
    .map(Number);

export interface Row {
  case: string;
  /** Bytes of the pack on the wire (band-1 payload). */
  packBytes: number;
  /** Sum of the sizes its objects declare (what the pack expands to). */
  inflatedBytes: number;
  peakAboveBytes: number;
  baselineBytes: number;
  /** Peak above baseline per byte of pack. */
  perPackByte: number;
  ms: number;
  outcome: string;
}

async function run(name: string, remote: string, packBytes: number, inflatedBytes: number, extra = {}): Promise<Row> {
  const start = performance.now();
  const m = await peakRss(SCENARIO, [remote, JSON.stringify(extra)]);
  const ms = performance.now() - start;
  const outcome = m.error ? `${m.error.code ?? m.error.name}: ${m.error.message}` : `listed ${m.result} keys`;
  const row = {
    case: name,
    packBytes,
    inflatedBytes,
    peakAboveBytes: m.aboveBytes,
    baselineBytes: m.baselineBytes,
    perPackByte: m.aboveBytes / packBytes,
    ms,
    outcome,
  };
  console.log(
    `${name}: pack ${(packBytes / MiB).toFixed(1)} MiB, inflated ${(inflatedBytes / MiB).toFixed(0)} MiB → ` +
      `+${(m.aboveBytes / MiB).toFixed(0)} MiB (${row.perPackByte.toFixed(2)}/pack byte), ${ms.toFixed(0)} ms; ${outcome.slice(0, 120)}`,
  );
  return row;
}

/** `git fast-import` of `n` documents made by `doc(i)` onto refs/docdb/documents of `repo`. */
async function importDocs(repo: string, n: number, doc: (i: number) => Buffer): Promise<number> {
  const child = spawn('git', ['-C', repo, 'fast-import', '--quiet'], { stdio: ['pipe', 'inherit', 'inherit'] });
  const write = async (b: Buffer | string) => {
    if (!child.stdin.write(b)) await new Promise((r) => child.stdin.once('drain', r));
  };
  let total = 0;
  for (let i = 1; i <= n; i++) {
    const body = doc(i);
    total += body.length;
    await write(`blob\nmark :${i}\ndata ${body.length}\n`);
    await write(body);
    await write('\n');
  }
  await write('commit refs/docdb/documents\ncommitter docdb <docdb@example.com> 1700000000 +0000\ndata 5\nbench\n');
  for (let i = 1; i <= n; i++) await write(`M 100644 :${i} docs/${String(i).padStart(7, '0')}.json\n`);
  child.stdin.end();
  await new Promise((resolve, reject) =>
    child.on('exit', (c) => (c === 0 ? resolve(c) : reject(new Error(`fast-import ${c}`)))),
  );
  return total;
}

/** A JSON document of about 4 KiB that compresses like real records do. */
function jsonDoc(i: number): Buffer {
  const items = Array.from({ length: 40 }, (_, k) => ({
    id: `item-${i}-${k}`,
    title: `Record ${k} of document ${i}`,
    score: (i * 7919 + k * 104729) % 1000,
    tags: ['alpha', 'beta', randomBytes(4).toString('hex')],
  }));
  return Buffer.from(`${JSON.stringify({ id: i, items }, null, 2)}\n`);
}

/** Honest sections: `mib` MiB of documents of one kind, served by git http-backend. */
async function honest(rows: Row[], kind: 'random' | 'json', sizes: number[]): Promise<void> {
  for (const mib of sizes) {
    const root = mkdtempSync(join(tmpdir(), 'docdb-pack-memory-'));
    try {
      const repo = join(root, 'data.git');
      sh('git', ['init', '-q', '--bare', repo]);
      const n = kind === 'random' ? mib : mib * 256;
      const inflated = await importDocs(repo, n, kind === 'random' ? () => randomBytes(MiB) : jsonDoc);
      sh('git', ['-C', repo, 'repack', '-adq']);
      const packBytes = Number(sh('sh', ['-c', `cat ${repo}/objects/pack/*.pack | wc -c`]).trim());
      const server = await startGitHttpServer(root, undefined);
      try {
        rows.push(
          await run(`honest ${kind}: ${mib} MiB of documents`, `${server.url}/data.git`, packBytes, inflated, {
            maxFetchBytes: 4096 * MiB,
            maxInflatedBytes: 65536 * MiB,
            cacheMaxBytes: 4096 * MiB,
          }),
        );
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8' });
}

async function tinyBlobs(): Promise<Buffer> {
  return packOf(Array.from({ length: 1_000_000 }, (_, i) => blob(`${i}`)));
}

/** Refused bombs, served by the fake v2 server (the store's default limits unless a case says otherwise). */
async function bombs(rows: Row[]): Promise<void> {
  const base = blob('x');
  const deltas: Buffer[] = [base];
  for (let i = 0, back = base.length; i < 11; i++) {
    const d = ofsDelta(back, 1, 100 * MiB);
    deltas.push(d);
    back += d.length;
  }
  const cases: [string, () => Promise<Buffer>, number, Record<string, number>?][] = [
    [
      'bomb: 1 GiB of zeros, declared',
      async () => packOf([entry(BLOB, 1024 * MiB, await zeros(1024 * MiB))]),
      1024 * MiB,
    ],
    [
      'bomb: 2 GiB of zeros, declared',
      async () => packOf([entry(BLOB, 2048 * MiB, await zeros(2048 * MiB))]),
      2048 * MiB,
    ],
    [
      'bomb: 1 GiB of zeros declaring 100 bytes',
      async () => packOf([entry(BLOB, 100, await zeros(1024 * MiB))]),
      1024 * MiB,
    ],
    ['bomb: 11 deltas claiming 100 MiB each', async () => packOf(deltas), 1100 * MiB],
    // Refused at once, but only once downloaded: what a refused pack's download costs by itself — the
    // worst a server can send under the default maxFetchBytes (64 MiB), and 256 MiB with it raised.
    [
      'refused: 64 MiB of random bytes that are not zlib (default maxFetchBytes)',
      async () => packOf([entry(BLOB, 100, randomBytes(64 * MiB - 64 * 1024))]),
      0,
    ],
    [
      'refused: 256 MiB of random bytes that are not zlib (maxFetchBytes raised)',
      async () => packOf([entry(BLOB, 100, randomBytes(256 * MiB))]),
      0,
      { maxFetchBytes: 512 * MiB },
    ],
    ['refused: a 65 MiB reply (over the default maxFetchBytes)', async () => randomBytes(65 * MiB), 0],
    ['bomb: a header declaring 2,000,000 objects', async () => packOf([blob('x')], 2_000_000), 0],
    // What holding tiny objects costs: 1,000,000 of them is over the default maxInflatedBytes (1 KiB of
    // bookkeeping charged each); with it raised, read whole (the fake server's tip is not in the pack, so the
    // read then fails: the pack was read whole first).
    ['refused: 1,000,000 tiny blobs (default maxInflatedBytes)', tinyBlobs, 0],
    ['accepted: 1,000,000 tiny blobs (maxInflatedBytes raised)', tinyBlobs, 0, { maxInflatedBytes: 2048 * MiB }],
  ];
  for (const [name, make, inflated, options] of cases) {
    const pack = await make();
    const server = await servePack(pack);
    try {
      rows.push(await run(name, server.remote, pack.length, inflated, options));
    } finally {
      await server.close();
    }
  }
}

const rows: Row[] = [];
await bombs(rows);
await honest(rows, 'random', arg('--random', '16,64,256'));
await honest(rows, 'json', arg('--json', '16,64'));
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'pack-memory.json');
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
console.log(`wrote ${out}`);
