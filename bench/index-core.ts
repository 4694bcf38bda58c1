/**
 * The index core (issue 28) at the size of its budgets: 100,000 documents of ~1.2 KB with 2 indexed
 * fields. Pure CPU and bytes — no store, no requests; the request figures are derived from the bytes
 * (a create-tree request carries ≤ 1 MiB of inline content, one contents read returns one file).
 *
 *   npx tsx bench/index-core.ts [--quick]      # writes bench/results/index-core.json
 *
 * Measured: the full build (client CPU against the CPU of serialising and hashing the documents
 * themselves), total index bytes and parts, the manifest; one put of each kind (parts read and
 * written, bytes up as a create-tree body would carry them); a 50-match query (parts read, bytes).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { blobSha } from '../src/core/git/objects.js';
import { canonicalJson } from '../src/document/canonical-json.js';
import { buildIndex } from '../src/document/indexes/build.js';
import { evaluate } from '../src/document/indexes/evaluate.js';
import { parseManifest, parsePart } from '../src/document/indexes/format.js';
import { planQuery } from '../src/document/indexes/plan.js';
import { type IndexChange, updateIndex } from '../src/document/indexes/update.js';

const quick = process.argv.includes('--quick');
const FULL = quick ? 20_000 : 100_000;
const MIB = 1024 * 1024;
const enc = new TextEncoder();
const LANGS = ['C', 'C++', 'Go', 'Java', 'JavaScript', 'Python', 'Ruby', 'Rust', 'TypeScript', 'Zig'];
const decl = {
  version: 1 as const,
  indexes: [{ namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] }],
};

/** A repository document of ~1.2 KB, as the projection writes them. */
function data(i: number) {
  return {
    name: `repo-${i}`,
    full_name: `owner-${i % 997}/repo-${i}`,
    language: LANGS[(i * 7) % LANGS.length],
    stars: (i * 7919) % 50_000,
    description: `A repository about ${'lorem ipsum dolor sit amet '.repeat(30)}`.slice(0, 900),
    topics: ['docdb', `t${i % 50}`],
    archived: i % 13 === 0,
  };
}

/** Bytes of `content` inside a create-tree JSON body (JSON escaping: quotes and newlines grow). */
const inlineBytes = (b: Uint8Array) => enc.encode(JSON.stringify(new TextDecoder().decode(b))).length;

function timed<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const out = fn();
  return [out, performance.now() - start];
}

function main(maxPartBytes: number, N = FULL) {
  const ids = Array.from({ length: N }, (_, i) => `owner-${i % 997}/repo-${i}`);
  const [docs, docCpuMs] = timed(() =>
    ids.map((id, i) => {
      const d = data(i);
      const bytes = enc.encode(canonicalJson({ id, namespace: 'github', type: 'repo', data: d }));
      return { namespace: 'github', type: 'repo', id, blobSha: blobSha(bytes), data: d, size: bytes.length, bytes };
    }),
  );
  const docBytes = docs.reduce((n, d) => n + d.size, 0);
  const [files, buildMs] = timed(() => buildIndex(decl, docs, { maxPartBytes }));
  const manifestKey = '_docdb/index/github/repo/manifest.json';
  const m = parseManifest(files.get(manifestKey)!, 'github', 'repo');
  const indexBytes = [...files.values()].reduce((n, b) => n + b.length, 0);
  const inlineIndex = [...files.values()].reduce((n, b) => n + inlineBytes(b), 0);
  const inlineDocs = docs.reduce((n, d) => n + inlineBytes(d.bytes), 0);
  const partSizes = [...files].filter(([p]) => p.endsWith('.jsonl')).map(([, b]) => b.length);

  const read = (p: string) => files.get(p);
  const put = (name: string, change: IndexChange) => {
    const [u, ms] = timed(() => updateIndex(decl, read, [change], { maxPartBytes }));
    const up = [...u.writes.values()].reduce((n, b) => n + inlineBytes(b), 0);
    const down = u.readPaths.reduce((n, p) => n + (files.get(p)?.length ?? 0), 0);
    return {
      name,
      cpuMs: +ms.toFixed(2),
      filesRead: u.readPaths.length,
      bytesRead: down,
      filesWritten: u.writes.size,
      deletes: u.deletes.length,
      inlineBytesUp: up,
      manifestRewritten: u.writes.has(manifestKey),
    };
  };
  const d7 = docs[7]!;
  const before = { blobSha: d7.blobSha, data: d7.data };
  const edited = { ...d7.data, description: 'changed' };
  const moved = { ...d7.data, stars: 49_999, language: d7.data.language === 'C' ? 'Zig' : 'C' };
  const puts = [
    put('edit, no indexed value changes', {
      namespace: 'github',
      type: 'repo',
      id: d7.id,
      before,
      after: { blobSha: 'e'.repeat(40), data: edited },
    }),
    put('edit moving both indexed values', {
      namespace: 'github',
      type: 'repo',
      id: d7.id,
      before,
      after: { blobSha: 'e'.repeat(40), data: moved },
    }),
    put('new document', {
      namespace: 'github',
      type: 'repo',
      id: 'new/doc',
      after: { blobSha: 'e'.repeat(40), data: data(N + 1) },
    }),
    put('delete', { namespace: 'github', type: 'repo', id: d7.id, before }),
  ];

  const query = {
    namespace: 'github',
    type: 'repo',
    where: [
      { field: 'data.language', op: '=' as const, value: 'Rust' },
      { field: 'data.stars', op: '>=' as const, value: 49_500 },
    ],
    orderBy: { field: 'data.stars', direction: 'desc' as const },
    limit: 50,
  };
  const [answer, queryMs] = timed(() => {
    const plan = planQuery(m, query);
    if (plan.kind !== 'index') throw new Error(plan.message);
    const fi = m.fields.indexOf(plan.field);
    const rows = plan.parts.flatMap((p) => parsePart(m, fi, p.index, files.get(p.path)!));
    const partBytes = plan.parts.reduce((n, p) => n + files.get(p.path)!.length, 0);
    return { plan, result: evaluate(m, query, rows), partBytes };
  });
  const matches = answer.result.kind === 'rows' ? answer.result.rows.length : -1;
  return {
    maxPartBytes,
    documents: N,
    fields: decl.indexes[0]!.fields,
    build: {
      cpuMs: Math.round(buildMs),
      documentSerialiseAndHashCpuMs: Math.round(docCpuMs),
      cpuRatio: +(buildMs / docCpuMs).toFixed(2),
      indexBytes,
      parts: m.runs.map((r) => ({ field: r.field, parts: r.parts.length })),
      partBytes: {
        min: Math.min(...partSizes),
        max: Math.max(...partSizes),
        mean: Math.round(indexBytes / partSizes.length),
      },
      manifestBytes: files.get(manifestKey)!.length,
      documentBytes: docBytes,
      createTreeRequests: {
        documentsAlone: Math.ceil(inlineDocs / MIB),
        index: Math.ceil(inlineIndex / MIB),
        extraFraction: +(inlineIndex / inlineDocs).toFixed(3),
      },
    },
    puts,
    query: {
      matches,
      partsRead: answer.plan.kind === 'index' ? answer.plan.parts.length : 0,
      partBytes: answer.partBytes,
      manifestBytes: files.get(manifestKey)!.length,
      requests: 1 + 1 + (answer.plan.kind === 'index' ? answer.plan.parts.length : 0),
      cpuMs: +queryMs.toFixed(1),
    },
  };
}

main(128 * 1024, 10_000); // warm-up: JIT and lazy module setup are not part of the figures
const results = (quick ? [128 * 1024] : [64 * 1024, 128 * 1024, 256 * 1024]).map((size) => main(size));
const out = { date: new Date().toISOString(), node: process.version, quick, results };
writeFileSync(new URL('./results/index-core.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
console.log(JSON.stringify(out, null, 2));
