import { describe, expect, it } from 'vitest';
import { SEARCH_DECLARED, searchDocs } from '../../../bench/search-corpus.js';
import { InvalidConfig } from '../../../src/core/errors.js';
import {
  buildSearch,
  fieldText,
  idsOf,
  parseSearchText,
  rankFirstPaths,
  rankSearch,
  searchFilesOf,
  searchFirstPaths,
  searchManifestPath,
  updateSearch,
} from '../../../src/document/search/index.js';
import { zipfCorpus } from './corpus.js';
import { applyUpdate, type Files, oracle, sameHits, searchIndex, withFetches } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const MANIFEST = searchManifestPath('n', 't');
const DELTA = '_docdb/search/n/t/delta.txt';
const shardsOf = (files: Files) => [...files.keys()].filter((p) => p.includes('/terms/'));

describe('search index size', () => {
  it('is at most 40 % of the searchable text on 2,000 Zipf documents (title ~8 words, body ~80)', () => {
    const docs = zipfCorpus(2000);
    const enc = new TextEncoder();
    const text = docs.reduce(
      (n, d) => n + enc.encode(fieldText(d, 'data.title')).length + enc.encode(fieldText(d, 'data.body')).length,
      0,
    );
    const files = buildSearch(t, docs);
    const index = [...files.values()].reduce((n, b) => n + b.length, 0);
    expect(index / text).toBeLessThanOrEqual(0.4);
    for (const p of shardsOf(files)) expect(files.get(p)!.length).toBeLessThanOrEqual(128 * 1024);
  });
});

describe('index size on the bench corpus (issue 42: ≤ 40 % of the searchable text)', () => {
  it('is at most 38 % at 10,000 documents of bench/search-corpus.ts (50,000-word vocabulary)', () => {
    const docs = searchDocs(10_000);
    const enc = new TextEncoder();
    const text = docs.reduce(
      (n, d) => n + enc.encode(fieldText(d, 'data.title')).length + enc.encode(fieldText(d, 'data.body')).length,
      0,
    );
    const files = buildSearch(SEARCH_DECLARED, docs);
    const index = [...files.values()].reduce((n, b) => n + b.length, 0);
    // Measured 37.5 % (format 1 was 55.8 %); the margin is for changes of the corpus or the cuts.
    expect(index / text).toBeLessThanOrEqual(0.38);
  });
});

describe('shard bounds', () => {
  it('splits a term too large for one shard over several, each within the bound', () => {
    const docs = Array.from({ length: 600 }, (_, i) => ({ id: `d${i}`, data: { title: 'common', body: `w${i}` } }));
    const files = buildSearch(t, docs, { maxShardBytes: 512 });
    const shards = shardsOf(files);
    expect(shards.length).toBeGreaterThan(3);
    for (const p of shards) expect(files.get(p)!.length).toBeLessThanOrEqual(512);
    expect(searchIndex(files, t, 'common')).toHaveLength(600);
    expect(sameHits(searchIndex(files, t, 'common w12'), oracle(t, docs, 'common w12'))).toBeNull();
  });

  it('refuses more shards than maxShards, naming the type and the bound (build and update)', () => {
    const docs = zipfCorpus(200);
    let e: unknown;
    try {
      buildSearch(t, docs, { maxShardBytes: 512, maxShards: 5 });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as InvalidConfig).message).toMatch(/n\/t .*more than the bound of 5/);
    expect((e as InvalidConfig).data).toMatchObject({ namespace: 'n', type: 't', allowed: 5 });
    const files = buildSearch(t, docs.slice(0, 10), { maxShardBytes: 512 });
    const n = shardsOf(files).length;
    const more = docs.slice(10, 200).map((d) => ({ id: d.id, after: d.data }));
    expect(() =>
      withFetches(files, (read) => updateSearch(t, read, more, { maxShardBytes: 512, maxShards: n })),
    ).toThrow(/more than the bound/);
  });

  it('refuses bad options naming them', () => {
    expect(() => buildSearch(t, [], { maxShardBytes: 10 })).toThrow(/maxShardBytes/);
    expect(() => buildSearch(t, [], { maxShards: 0 })).toThrow(/maxShards/);
    expect(() => buildSearch(t, [], { maxDeltaPartBytes: 100 })).toThrow(/maxDeltaPartBytes/);
  });
});

describe('what a write reads and rewrites', () => {
  const docs = zipfCorpus(2000);
  const opts = { maxShardBytes: 4096 };
  const base = buildSearch(t, docs, opts);
  const shardCount = shardsOf(base).length;

  it('an update of one word rewrites only the delta (no shard, table, bucket or manifest)', () => {
    const files = new Map(base);
    const d = docs[7]!;
    const before = d.data as { title: string; body: string };
    const after = { ...before, title: before.title.replace(/^\S+/, 'zzyzx') };
    const r = applyUpdate(files, t, [{ id: d.id, before, after }], opts);
    expect(shardCount).toBeGreaterThan(50);
    expect([...r.value.writes.keys()]).toEqual([DELTA]);
    expect(r.rounds).toHaveLength(2);
    expect(r.rounds[1]!.filter((p) => p.includes('/terms/'))).toEqual([]);
    expect(searchIndex(files, t, 'zzyzx').map((h) => h.id)).toEqual([d.id]);
    const current = docs.map((x) => (x.id === d.id ? { id: d.id, data: after } : x));
    const old = before.title.split(' ')[0]!;
    expect(sameHits(searchIndex(files, t, old), oracle(t, current, old))).toBeNull();
  });

  it('a write that fills delta.txt empties it into the delta parts and merges at most 5 % of the shards', () => {
    const files = new Map(base);
    let merged = 0;
    for (let i = 0; i < 40 && merged === 0; i++) {
      const d = docs[i]!;
      const r = applyUpdate(
        files,
        t,
        [{ id: d.id, before: d.data, after: { title: `fresh${i} words`, body: '' } }],
        opts,
      );
      const shards = [...r.value.writes.keys()].filter((p) => p.includes('/terms/'));
      if (shards.length > 0) {
        merged = i + 1;
        expect(files.get(DELTA)!.length).toBe(0);
        // A few of the shards its entries fall in: max(1, 5 %) of them; the rest wait in the parts.
        expect(shards.length).toBeLessThanOrEqual(Math.floor(0.05 * shardCount));
        expect([...r.value.writes.keys()].filter((p) => p.includes('/delta/')).length).toBeGreaterThan(0);
        expect(r.rounds).toHaveLength(3);
        expect(r.rounds[2]!.every((p) => p.includes('/terms/'))).toBe(true);
      } else {
        expect(files.get(DELTA)!.length).toBeLessThanOrEqual(1024);
      }
    }
    expect(merged).toBeGreaterThan(1);
    const current = docs.map((d, i) => (i < merged ? { id: d.id, data: { title: `fresh${i} words`, body: '' } } : d));
    for (const q of ['fresh1 words', 'words', (docs[merged + 1]!.data as { title: string }).title.split(' ')[0]!]) {
      expect(sameHits(searchIndex(files, t, q), oracle(t, current, q)), q).toBeNull();
    }
  });

  it('a create reads the manifest, then its bucket, the delta and its table part — no shard', () => {
    const files = new Map(base);
    const doc = { id: 'new-doc', data: { title: 'kaka roro', body: 'mimi tete zzqqx' } };
    const r = applyUpdate(files, t, [{ id: doc.id, after: doc.data }], opts);
    expect(r.rounds[0]).toEqual([MANIFEST]);
    const read = r.rounds[1]!;
    expect(read.filter((p) => p.includes('/terms/'))).toEqual([]);
    expect(read).toContain(DELTA);
    expect(read.filter((p) => p.includes('/ids/'))).toHaveLength(1);
    expect(read.filter((p) => p.includes('/table/'))).toEqual(['_docdb/search/n/t/table/7.json']);
    expect(r.rounds).toHaveLength(2);
    const writes = [...r.value.writes.keys()];
    expect(writes).toContain(MANIFEST);
    expect(writes.filter((p) => p.includes('/table/'))).toEqual(['_docdb/search/n/t/table/7.json']);
    expect(writes.filter((p) => p.includes('/ids/'))).toHaveLength(1);
    expect(writes.filter((p) => p.includes('/terms/'))).toEqual([]);
    expect(writes).toContain(DELTA);
    expect(searchIndex(files, t, 'zzqqx').map((h) => h.id)).toEqual([doc.id]);
  });

  it('a delete frees the ordinal (a third round reads its table part), and the next create reuses it', () => {
    const files = new Map(base);
    const victim = docs[300]!;
    const r = applyUpdate(files, t, [{ id: victim.id, before: victim.data }], opts);
    expect(r.rounds).toHaveLength(3);
    expect(r.rounds[2]).toEqual(['_docdb/search/n/t/table/1.json']);
    expect(JSON.parse(new TextDecoder().decode(files.get(MANIFEST)!)).free).toEqual([300]);
    applyUpdate(files, t, [{ id: 'fresh', after: { title: 'zzyzx', body: '' } }], opts);
    const q = parseSearchText('zzyzx');
    const ids = withFetches(files, (read) => idsOf(t, [300], read)).value;
    expect(ids.get(300)).toBe('fresh');
    expect(withFetches(files, (read) => rankSearch(t, q, read)).value.hits.map((h) => h.ordinal)).toEqual([300]);
  });

  it('searchFirstPaths names every file of round two, so a caller fetches in one round', () => {
    const doc = docs[11]!;
    const change = { id: doc.id, before: doc.data, after: { title: 'zzyzx qqq', body: 'mimi' } };
    const first = searchFirstPaths(t, base.get(MANIFEST)!, [change]);
    const have = new Set([MANIFEST, ...first]);
    const r = updateSearch(t, (p) => (have.has(p) ? (base.get(p) ?? null) : undefined), [change], opts);
    expect(r.writes.size).toBeGreaterThan(0);
  });

  it('a write whose searchable text is unchanged reads only the manifest and writes nothing', () => {
    const d = docs[3]!;
    const r = withFetches(base, (read) =>
      updateSearch(t, read, [{ id: d.id, before: d.data, after: { ...(d.data as object), other: 1 } }], opts),
    );
    expect(r.value).toEqual({ writes: new Map(), deletes: [] });
    expect(r.rounds).toEqual([[MANIFEST]]);
  });

  it('a 100-document write (a full delta) rewrites only the shards holding changed terms', () => {
    const files = new Map(base);
    const changes = docs.slice(1000, 1100).map((d) => ({
      id: d.id,
      before: d.data,
      after: { ...(d.data as object), title: 'rewritten title' },
    }));
    const r = applyUpdate(files, t, changes, opts);
    const written = [...r.value.writes.keys()].filter((p) => p.includes('/terms/'));
    const terms = new Set(
      changes.flatMap((c) => [...(c.before as { title: string }).title.split(' '), 'rewritten', 'title']),
    );
    const holding = new Set([...terms].flatMap((w) => rankFirstPaths(t, { words: [w] }, base.get(MANIFEST)!)));
    expect(written.every((p) => holding.has(p) || !base.has(p))).toBe(true);
    const current = docs.map((d, i) => (i >= 1000 && i < 1100 ? { id: d.id, data: changes[i - 1000]!.after } : d));
    expect(sameHits(searchIndex(files, t, 'rewritten'), oracle(t, current, 'rewritten'))).toBeNull();
  });

  it('lists every file of the type for a drop', () => {
    const all = searchFilesOf(t, base.get(MANIFEST)!);
    expect(new Set(all)).toEqual(new Set(base.keys()));
    expect(searchFilesOf({ ...t, fields: ['data.other'] }, base.get(MANIFEST)!)).toEqual(all);
  });
});
