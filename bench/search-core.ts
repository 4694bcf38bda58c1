/**
 * The search core (issue 42) at the size of its budgets: 10,000 and 100,000 English-like documents
 * (Zipf words; a title of ~8 words, a body of ~80) with 2 searchable fields. Pure CPU and bytes — no
 * store, no requests (the store's request counts are asserted in the DocumentStore tests).
 *
 *   npx tsx bench/search-core.ts [--quick]      # writes bench/results/search-core.json
 *
 * Measured: the build (client CPU against serialising and hashing the documents themselves), index
 * bytes against the searchable text's bytes, shards; a one-word query (files and bytes: manifest,
 * shards, the table parts of the first 20 hits); a one-document write and a 100-document write (files
 * read and rewritten, the fraction of the shards rewritten).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { zipfCorpus } from '../__tests__/document/search/corpus.js';
import { blobSha } from '../src/core/git/objects.js';
import { canonicalJson } from '../src/document/canonical-json.js';
import {
  buildSearch,
  fieldText,
  NeedFiles,
  parseSearchText,
  rankedPage,
  rankSearch,
  type SearchRead,
  updateSearch,
} from '../src/document/search/index.js';

const quick = process.argv.includes('--quick');
const enc = new TextEncoder();
const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };

function timed<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const out = fn();
  return [out, performance.now() - start];
}

/** Run a step, fetching what it asks for; the files and bytes it read. */
function fetching<T>(files: Map<string, Uint8Array>, step: (read: SearchRead) => T) {
  const have = new Set<string>();
  let rounds = 0;
  for (;;) {
    try {
      const value = step((p) => (have.has(p) ? (files.get(p) ?? null) : undefined));
      const bytes = [...have].reduce((n, p) => n + (files.get(p)?.length ?? 0), 0);
      return { value, rounds, files: have.size, bytes };
    } catch (e) {
      if (!(e instanceof NeedFiles)) throw e;
      rounds++;
      for (const p of e.paths) have.add(p);
    }
  }
}

function measure(n: number) {
  const docs = zipfCorpus(n);
  const [, docCpuMs] = timed(() =>
    docs.map((d) => blobSha(enc.encode(canonicalJson({ id: d.id, namespace: 'n', type: 't', data: d.data })))),
  );
  const text = docs.reduce(
    (s, d) => s + enc.encode(fieldText(d, 'data.title')).length + enc.encode(fieldText(d, 'data.body')).length,
    0,
  );
  const [files, buildMs] = timed(() => buildSearch(t, docs));
  const indexBytes = [...files.values()].reduce((s, b) => s + b.length, 0);
  const shards = [...files.keys()].filter((p) => p.includes('/terms/')).length;
  // A word of middling frequency (the 200th of the vocabulary by first use), 5+ letters: typo tolerant.
  const word = [...new Set(docs.flatMap((d) => (d.data as { body: string }).body.split(/\W+/)))].filter(
    (w) => w.length >= 5,
  )[200]!;
  const q = parseSearchText(word);
  const query = fetching(files, (read) => {
    const ranked = rankSearch(t, q, read);
    return { total: ranked.total, page: rankedPage(t, ranked.hits, 0, 20, read) };
  });
  const one = docs[n >> 1]!;
  const oneWrite = fetching(files, (read) =>
    updateSearch(t, read, [{ id: one.id, before: one.data, after: { ...(one.data as object), title: 'a new title' } }]),
  );
  const hundred = zipfCorpus(100, 7).map((d) => ({ id: `new-${d.id}`, after: d.data }));
  const [hundredWrite, hundredMs] = timed(() => fetching(files, (read) => updateSearch(t, read, hundred)));
  const shardsWritten = (w: Map<string, Uint8Array>) => [...w.keys()].filter((p) => p.includes('/terms/')).length;
  return {
    documents: n,
    build: { ms: Math.round(buildMs), documentsSerialiseAndHashMs: Math.round(docCpuMs) },
    bytes: { text, index: indexBytes, ratio: +(indexBytes / text).toFixed(3), shards, files: files.size },
    query: { word, total: query.value.total, rounds: query.rounds, files: query.files, bytes: query.bytes },
    oneDocumentWrite: {
      rounds: oneWrite.rounds,
      filesRead: oneWrite.files,
      filesWritten: oneWrite.value.writes.size,
      shardsWritten: shardsWritten(oneWrite.value.writes),
    },
    hundredDocumentWrite: {
      ms: Math.round(hundredMs),
      filesRead: hundredWrite.files,
      filesWritten: hundredWrite.value.writes.size,
      shardsWritten: shardsWritten(hundredWrite.value.writes),
      fractionOfShards: +(shardsWritten(hundredWrite.value.writes) / shards).toFixed(3),
    },
  };
}

const results = (quick ? [10_000] : [10_000, 100_000]).map(measure);
console.log(JSON.stringify(results, null, 2));
writeFileSync(new URL('./results/search-core.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
