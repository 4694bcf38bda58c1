/**
 * A 1-document put's index CPU on an indexed type of 10,000 and of 100,000 documents (issue 42: "make a
 * one-document write's index work proportional to the change, not to the type"). Pure CPU, no store: the
 * index is built in memory (bench/indexes-worker.ts's documents, 2 indexed fields, default part bound),
 * then each put does what the write hook does (src/document/index-write.ts `incremental`): parse the
 * manifest once, plan the parts to read, update them. Reported per type size: the median CPU of one put
 * over 40 puts (half moving both indexed values, half keeping them with a new blob) and the work counted
 * by src/document/indexes/work.ts — manifests and parts parsed, rows decoded and serialized.
 *
 *   npx tsx bench/index-put.ts      # writes bench/results/index-put.json
 */
import { writeFileSync } from 'node:fs';
import { blobSha } from '../src/core/git/objects.js';
import { buildIndex } from '../src/document/indexes/build.js';
import { parseManifest } from '../src/document/indexes/format.js';
import { manifestPath } from '../src/document/indexes/paths.js';
import { type IndexChange, partsToRead, updateIndex } from '../src/document/indexes/update.js';
import { type IndexWork, indexWork } from '../src/document/indexes/work.js';
import { INDEX, LANGS } from './indexes-worker.js';
import { median } from './stats.js';

const SIZES = [10_000, 100_000];
const PUTS = 40;
const decl = { version: 1 as const, indexes: [INDEX] };
const enc = new TextEncoder();
const data = (i: number, stars = (i * 7919) % 1000, language = LANGS[i % 7]) => ({ i, language, stars, text: 'x' });
const doc = (i: number, d = data(i)) => ({
  namespace: 'bench',
  type: 'item',
  id: `g${i % 50}/item-${i}`,
  blobSha: blobSha(enc.encode(JSON.stringify(d))),
  data: d,
});

/** One put through the hook's steps; its CPU in ms (the files are not changed: every put sees the same tip). */
function put(files: Map<string, Uint8Array>, change: IndexChange): number {
  const start = process.cpuUsage();
  const mpath = manifestPath(INDEX.namespace, INDEX.type);
  const parsed = new Map([[mpath, parseManifest(files.get(mpath)!, INDEX.namespace, INDEX.type)]]);
  const read = (p: string) => files.get(p);
  partsToRead(decl, read, [change], parsed);
  updateIndex(decl, read, [change], {}, parsed);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function measure(n: number) {
  const files = buildIndex(
    decl,
    Array.from({ length: n }, (_, i) => doc(i)),
  );
  const cpu: number[] = [];
  const before: IndexWork = { ...indexWork };
  for (let k = 0; k < PUTS; k++) {
    const i = (k * 2_654_435) % n;
    const moved = k % 2 === 0 ? data(i, 500 + k, 'Zig') : { ...data(i), text: `y${k}` };
    cpu.push(put(files, { namespace: 'bench', type: 'item', id: doc(i).id, before: doc(i), after: doc(i, moved) }));
  }
  const work = Object.fromEntries(
    Object.entries(indexWork).map(([k, v]) => [k, (v - before[k as keyof IndexWork]) / PUTS]),
  );
  const parts = [...files.keys()].filter((p) => p.endsWith('.jsonl')).length;
  return { documents: n, parts, putCpuMs: Number(median(cpu).toFixed(3)), workPerPut: work };
}

const out = { node: process.version, puts: PUTS, results: SIZES.map(measure) };
writeFileSync(new URL('./results/index-put.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify(out, null, 2));
