/**
 * Where the index's requests go in a first write of small documents (issue 42: ≈ 240-byte documents with 2
 * indexed fields cost 1.39× the requests of the same write without an index; the goal is ≤ 1.2×). A first
 * write's create-tree requests carry ≤ 1 MiB of inline content each and are filled to ≥ 96 % (measured:
 * bench/indexes.ts), so its requests follow its bytes: this bench builds the real format-2 index of
 * bench/indexes.ts's documents, then rewrites its rows in other layouts (the SHA stored once per document
 * in an id → SHA table; no SHA) and reports each layout's bytes and the requests those bytes need.
 * Pure CPU and bytes, no store: the estimate is ⌈(documents + index) / 1 MiB⌉ create-tree requests + 3
 * (ref read, commit, ref update), which is what the bench's first writes measure (28 and 39 at 100,000).
 *
 *   npx tsx bench/index-row-bytes.ts [--n 100000] [--text 100]   → bench/results/index-row-bytes.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blobSha } from '../src/core/git/objects.js';
import { canonicalJson } from '../src/document/canonical-json.js';
import { buildTypeIndex } from '../src/document/indexes/build.js';
import { serializeManifest } from '../src/document/indexes/format.js';
import { sharedPrefix } from '../src/document/indexes/rows.js';
import { shaToText } from '../src/document/indexes/sha-text.js';
import { INDEX, indexDocs } from './indexes-worker.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 100_000);
const TEXT = arg('text', 100);
const MIB = 1024 * 1024;
const enc = new TextEncoder();

/** Bytes of the documents as the write sends them (canonical JSON and a newline, as the store writes them). */
function documents() {
  const docs = indexDocs(N, TEXT);
  let bytes = 0;
  const indexed = docs.map((d) => {
    const value = enc.encode(`${canonicalJson(d)}\n`);
    bytes += value.length;
    return { id: d.id, blobSha: blobSha(value), data: d.data };
  });
  return { bytes, indexed };
}

/** A format-2 line `[k,"suffix","<27-char sha>",…]` without its SHA: `[k,"suffix",…]`. */
const withoutSha = (line: string) => line.replace(/,"[A-Za-z0-9_-]{27}"/, '');

/**
 * Bytes a part saves when a row leaves out the run's own value while it repeats the previous row's in the
 * part (runs are sorted by that value, so most rows repeat it): the value and its comma.
 */
function repeatedKeyBytes(text: string, fi: number): number {
  let prev: string | undefined;
  let saved = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const row = JSON.parse(line) as unknown[];
    const own = JSON.stringify(row[3 + fi]);
    if (own === prev) saved += own.length + 1;
    prev = own;
  }
  return saved;
}

/** An id → SHA table, sorted by id, front-coded as format 2 codes ids: `[k,"suffix","<sha>"]` per document. */
function shaTableBytes(docs: readonly { id: string; blobSha: string }[]): number {
  const sorted = [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let prev = '';
  let bytes = 0;
  for (const d of sorted) {
    const k = sharedPrefix(prev, d.id);
    bytes += `[${k},${JSON.stringify(d.id.slice(k))},"${shaToText(d.blobSha)}"]\n`.length;
    prev = d.id;
  }
  return bytes;
}

function main() {
  const docs = documents();
  const { manifest, files } = buildTypeIndex(INDEX, docs.indexed);
  let format2 = serializeManifest(manifest).length;
  let rowsWithoutSha = format2;
  let repeated = 0;
  let counts = 0;
  for (const [path, bytes] of files) {
    format2 += bytes.length;
    if (path.endsWith('counts.json')) {
      counts += bytes.length;
      rowsWithoutSha += bytes.length;
      continue;
    }
    const text = new TextDecoder().decode(bytes);
    repeated += repeatedKeyBytes(
      text,
      INDEX.fields.findIndex((f) => path.includes(`/${f}/`)),
    );
    rowsWithoutSha += text
      .split('\n')
      .map((l) => (l === '' ? '' : withoutSha(l)))
      .join('\n').length;
  }
  const table = shaTableBytes(docs.indexed);
  const requests = (indexBytes: number) => Math.ceil((docs.bytes + indexBytes) / MIB) + 3;
  const plain = requests(0);
  const layout = (name: string, bytes: number) => ({
    layout: name,
    indexBytes: bytes,
    bytesPerDocument: Math.round((bytes / N) * 10) / 10,
    requests: requests(bytes),
    ratio: Math.round((requests(bytes) / plain) * 100) / 100,
  });
  const result = {
    n: N,
    textChars: TEXT,
    documentBytes: docs.bytes,
    bytesPerDocument: Math.round(docs.bytes / N),
    countsBytes: counts,
    plainRequests: plain,
    layouts: [
      layout('format 2 (today): [k,"id suffix","sha",v…] in every run', format2),
      layout('format 2, the run’s own value left out while it repeats the previous row’s', format2 - repeated),
      layout('SHA once: runs [k,"id suffix",v…] + an id → SHA table', rowsWithoutSha + table),
      layout('no SHA: runs [k,"id suffix",v…] only', rowsWithoutSha),
    ],
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'index-row-bytes.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

main();
