/**
 * Issue 42's budgets on the GitHub API store (with a token: GraphQL batching on), counted at the transport
 * against the emulator: a one-word search over a 10,000-document type, a put of one document into it, and
 * declaring search. The section (10,000 documents with a title and a body, ~60 words each, their search built
 * by the search core from the same documents) is seeded into the emulator's git state directly, as
 * derive-scale.test.ts does for indexes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import {
  buildSearch,
  SEARCH_DECLARATION_KEY,
  SEARCH_ROOT,
  type SearchDeclaration,
  serializeSearchDeclaration,
} from '../../src/document/search/index.js';
import { emulatorPerFile, freshRepo, meteredTransport, newMeter, OWNER, store } from './helpers.js';

const fx = emulatorPerFile();
const shared = { repo: '' };
const REF = 'refs/docdb/documents';
const N = 10_000;
const T = { namespace: 'bench', type: 'note', fields: ['data.title', 'data.body'] };
const DECLARATION: SearchDeclaration = { version: 1, search: [T] };

/** A deterministic vocabulary of 3,000 pronounceable words; word i is drawn with a Zipf-like skew. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'su', 'da', 'fo', 'gi', 'ha', 'ju'];
const VOCABULARY = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i + 15; n > 0; n = Math.floor(n / 15)) w += SYLLABLES[n % 15];
  return w;
});
function words(seed: number, count: number): string {
  let x = (seed * 2654435761) >>> 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const u = (x >>> 0) / 2 ** 32;
    out.push(VOCABULARY[Math.floor(VOCABULARY.length * u * u * u)]!);
  }
  return out.join(' ');
}
const id = (i: number) => `g${i % 50}/note-${i}`;
const data = (i: number) => ({ title: words(i, 6), body: words(i + N, 54), n: i });
const doc = (i: number, d: object = data(i)) => ({ namespace: 'bench', type: 'note', id: id(i), data: d });
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/** How many documents' text holds each word. */
function documentFrequencies(): Map<string, number> {
  const df = new Map<string, number>();
  for (let i = 0; i < N; i++) {
    const d = data(i);
    for (const w of new Set(`${d.title} ${d.body}`.split(' '))) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return df;
}

/** A word in about 20–60 documents' text: what a one-word search usually looks for. */
function rareWord(df: Map<string, number>): string {
  return [...df].find(([, n]) => n >= 20 && n <= 60)![0];
}

/** Documents whose text holds `w` as a word. */
function exactCount(w: string): number {
  let n = 0;
  for (let i = 0; i < N; i++) {
    const d = data(i);
    if (`${d.title} ${d.body}`.split(' ').includes(w)) n++;
  }
  return n;
}

function seed(): { textBytes: number; indexBytes: number } {
  const files: Record<string, string | null> = { 'README.md': null };
  const docs = [];
  let textBytes = 0;
  for (let i = 0; i < N; i++) {
    files[`bench/note/${id(i)}.json`] = text(encodeEnvelope(doc(i)));
    const d = data(i);
    textBytes += new TextEncoder().encode(d.title).length + new TextEncoder().encode(d.body).length;
    docs.push({ id: id(i), data: d });
  }
  let indexBytes = 0;
  for (const [path, bytes] of buildSearch(T, docs)) {
    files[path] = text(bytes);
    indexBytes += bytes.length;
  }
  files[SEARCH_DECLARATION_KEY] = text(serializeSearchDeclaration(DECLARATION));
  fx.em.state.commitFiles(`${OWNER}/${shared.repo}`, { branch: REF, files, message: `seed ${N} searchable documents` });
  return { textBytes, indexBytes };
}

describe('issue 42 budgets on the GitHub API store', () => {
  let sizes: { textBytes: number; indexBytes: number };
  let word: string;
  let df: Map<string, number>;
  beforeAll(() => {
    shared.repo = freshRepo(fx.em);
    sizes = seed();
    df = documentFrequencies();
    word = rareWord(df);
  }, 300_000);

  it('a one-word search over 10,000 documents, cold: 4 requests, ≤ 300 KB down (the issue asks 4 and 300 KB)', async () => {
    const meter = newMeter();
    const docs = new DocumentStore(store(fx.em, shared.repo, { transport: meteredTransport(meter) }));
    const r = await docs.search(word, { namespace: 'bench', type: 'note' });
    expect(r.hits.length).toBeGreaterThan(0);
    // Every document holding the word exactly is found (a word of 5+ letters also finds those at one typo).
    expect(r.total).toBeGreaterThanOrEqual(exactCount(word));
    const log = JSON.stringify(meter.log.map((l) => `${l.path} ${l.status} ${l.bytes}`));
    console.log(`[search budget] index ${sizes.indexBytes} B for ${sizes.textBytes} B of text`);
    console.log(
      `[search budget] one word: ${r.total} hits, ${meter.requests} requests, ${meter.received} B down ${log}`,
    );
    expect(r.requests, log).toBe(meter.requests);
    // The tip with the declaration and the manifest (ONE GraphQL query: the files of the commit the ref names);
    // the word's term shards; the page's table parts; the page's documents. The table parts depend on the
    // ranking and the documents' keys on the ids, so the last three rounds cannot merge. Bytes: the word's typo
    // candidates' shard (~50 KB: shards are cut at two-letter groups), and the page's 20 hits (with the hits tied in
    // score at its end, ordered by id) in ~30 table parts of 256 ids (~150 KB).
    expect(
      meter.log.map((l) => l.path),
      log,
    ).toEqual(['/graphql', '/graphql', '/graphql', '/graphql']);
    expect(meter.requests, log).toBe(4);
    expect(meter.received, log).toBeLessThanOrEqual(300 * 1000);
    // Warm (same store, section unchanged): every file is cached at the tip the query named, so the ref read
    // alone answers (a 200 once — GraphQL gives no ETag —, then 304s).
    for (const status of [200, 304]) {
      const from = meter.log.length;
      expect((await docs.search(word, { namespace: 'bench', type: 'note' })).total).toBe(r.total);
      expect(meter.log.slice(from).map((l) => `${l.path.replace(/.*\/git\//, '')} ${l.status}`)).toEqual([
        `ref/docdb/documents ${status}`,
      ]);
    }
  }, 120_000);

  it('put of 1 document into the searchable 10,000-document type: 7 requests; an update rewrites the delta and the manifest only', async () => {
    const meter = newMeter();
    const docs = new DocumentStore(store(fx.em, shared.repo, { transport: meteredTransport(meter) }));
    const r = await docs.put(doc(77, { title: `${word} zebra`, body: 'a fresh body', n: 77 }));
    expect(r.changed).toBe(true);
    const log = JSON.stringify(meter.log.map((l) => `${l.path} ${l.status} ${l.bytes}`));
    console.log(`[search budget] put 1: ${meter.requests} requests, ${meter.sent} B up ${log}`);
    const searchFiles = r.written.filter((k) => k.startsWith(SEARCH_ROOT));
    console.log(`[search budget] put 1 rewrote ${searchFiles.length} search files: ${searchFiles.join(' ')}`);
    // The document keeps its ordinal: no table part or id bucket changes, and its old and new words go to the
    // delta of recent writes (delta.txt) — no term shard is rewritten until the delta is merged.
    expect(searchFiles.sort()).toEqual([
      '_docdb/search/bench/note/delta.txt',
      '_docdb/search/bench/note/manifest.json',
    ]);
    // ref, commit, declarations + manifests (with the key's previous value, which both the index and the
    // search work then take at no cost), the id bucket and the delta, one create tree, create commit, update ref.
    expect(meter.requests, log).toBe(7);
    expect(meter.sent).toBeLessThan(64 * 1024);
    const found = await docs.search('zebra', { namespace: 'bench', type: 'note' });
    expect(found.hits.map((h) => h.id)).toEqual([id(77)]);
  }, 120_000);

  it('write of 100 documents into the searchable type: at most max(1, 5 %) of the term shards rewritten', async () => {
    const meter = newMeter();
    const docs = new DocumentStore(store(fx.em, shared.repo, { transport: meteredTransport(meter) }));
    const manifest = async () =>
      JSON.parse(text((await docs.store.get('_docdb/search/bench/note/manifest.json'))?.value));
    const shards = (await manifest()).shards.length;
    const changed = Array.from({ length: 100 }, (_, k) => k * 100 + 3);
    const before = meter.requests;
    const r = await docs.putMany(changed.map((i) => doc(i, { ...data(i + 1), title: `${data(i).title} quokka` })));
    const cost = meter.requests - before;
    const log = JSON.stringify(meter.log.map((l) => `${l.path} ${l.status} ${l.bytes}`));
    const written = r.written.filter((k) => k.includes('/terms/'));
    const parts = r.written.filter((k) => k.includes('/delta/'));
    console.log(
      `[search budget] write 100: ${cost} requests, ${meter.sent} B up (with a manifest read), ${written.length} of ${shards} shards, ${parts.length} delta parts`,
    );
    // Whether or not its entries fill delta.txt (then they go to the delta parts and one shard is merged), at
    // most max(1, 5 %) of the shards are written (delta-parts.test.ts forces the flushes).
    expect(written.length).toBeLessThanOrEqual(Math.max(1, Math.floor(0.05 * shards)));
    expect(parts.length).toBe((await manifest()).deltas?.length ?? 0);
    expect(cost, log).toBeLessThanOrEqual(10);
    const found = await docs.search('quokka', { namespace: 'bench', type: 'note' });
    expect(found.total).toBe(100);
  }, 120_000);

  it('declaring search on another type writes one commit; declaring it again writes none', async () => {
    const docs = new DocumentStore(store(fx.em, shared.repo));
    await docs.putMany(Array.from({ length: 30 }, (_, i) => ({ ...doc(i), type: 'page' })));
    const before = await docs.head();
    const r = await docs.declareSearch([{ namespace: 'bench', type: 'page', fields: ['data.title'] }]);
    expect(r.changed).toBe(true);
    expect((await docs.store.history(SEARCH_DECLARATION_KEY, { limit: 1 })).entries[0]!.version).toBe(r.version);
    const log = await docs.store.history('_docdb/search/bench/page/manifest.json');
    expect(log.entries.map((e) => e.version)).toEqual([r.version]);
    expect(r.previousVersion).toBe(before);
    const again = await docs.declareSearch([{ namespace: 'bench', type: 'page', fields: ['data.title'] }]);
    expect(again.changed).toBe(false);
  }, 120_000);

  it('a search without a type over the 2 declared types, cold: 4 requests (the manifests come with the tip)', async () => {
    const meter = newMeter();
    const docs = new DocumentStore(store(fx.em, shared.repo, { transport: meteredTransport(meter) }));
    // The rarest word of the 'page' type's titles (documents 0..29 of the 'note' type hold it too): both types
    // have hits on the page, so both types' term shards and table parts are needed.
    const titles = Array.from({ length: 30 }, (_, i) => data(i).title.split(' ')).flat();
    const rarest = titles.reduce((a, b) => ((df.get(b) ?? 0) < (df.get(a) ?? 0) ? b : a));
    const r = await docs.search(rarest, { namespace: 'bench', limit: 100 });
    expect(new Set(r.hits.map((h) => h.type))).toEqual(new Set(['note', 'page']));
    const log = JSON.stringify(meter.log.map((l) => `${l.path} ${l.status} ${l.bytes}`));
    console.log(`[search budget] one word, no type: ${r.total} hits, ${meter.requests} requests ${log}`);
    // The tip with the declaration AND every type's manifest (the `childFiles` hint, one GraphQL query); both
    // types' shards; both types' table parts; the documents. (Each round reads what EVERY type still needs.)
    expect(meter.requests, log).toBe(4);
    expect(r.requests).toBe(4);
  }, 120_000);
});

describe('issue 42: a first write with search costs about what it costs without', () => {
  it('putMany of 10,000 documents declaring search on 2 fields: ≤ 1.3 × the requests of the same write without', async () => {
    const write = async (search: boolean) => {
      const meter = newMeter();
      const docs = new DocumentStore(store(fx.em, freshRepo(fx.em), { transport: meteredTransport(meter) }));
      const many = Array.from({ length: N }, (_, i) => doc(i));
      const r = await docs.putMany(many, search ? { search: [T] } : {});
      expect(r.changed).toBe(true);
      return { meter, docs };
    };
    const plain = await write(false);
    const searched = await write(true);
    console.log(
      `[search budget] first write of ${N}: ${plain.meter.requests} requests without search, ${searched.meter.requests} with`,
    );
    expect(searched.meter.requests).toBeLessThanOrEqual(1.3 * plain.meter.requests);
    const found = await searched.docs.search(words(5, 1), { namespace: 'bench', type: 'note', limit: 1 });
    expect(found.total).toBeGreaterThan(0);
  }, 300_000);
});
