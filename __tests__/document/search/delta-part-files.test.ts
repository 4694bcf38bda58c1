/**
 * The delta part files a flush writes and deletes, and the shards it merges: a part whose entries did not
 * change is not written again (each file written is a blob the commit carries); when a flush merges every
 * pending entry the parts of the old layout are deleted, not left behind unlisted; no part grows past
 * `maxDeltaPartBytes` (full parts force their shards to merge); and beyond the most pending shard a flush
 * merges others only while the term files written stay within max(1, 5 %).
 */
import { describe, expect, it } from 'vitest';
import { buildSearch, searchFilesOf, searchManifestPath } from '../../../src/document/search/index.js';
import { zipfCorpus } from './corpus.js';
import { applyUpdate, type Files, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title'] };
const MANIFEST = searchManifestPath('n', 't');
const opts = { maxShardBytes: 512 };
const partsOf = (files: Files) => [...files.keys()].filter((p) => p.includes('/delta/')).sort();
const words = (prefix: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${from + i}`).join(' ');

describe('delta part files', () => {
  it('a flush writes only the parts whose bytes change; one that merges every pending entry deletes the old parts', () => {
    // Terms in b… and y…: shards from "b" to "y"; new words "0…" sort first, "mm…" in the middle, "zz…" last.
    const base = Array.from({ length: 40 }, (_, i) => ({
      id: `d${String(i).padStart(2, '0')}`,
      data: { title: `bword${i} bother${i} yword${i} yother${i}` },
    }));
    const docs = new Map(base.map((d) => [d.id, d.data]));
    const files = buildSearch(t, base, opts);
    let created = 0;
    /** Create one document of these words: its entries alone fill delta.txt, so the write flushes. */
    function create(title: string) {
      const id = `new${created++}`;
      docs.set(id, { title });
      const before = new Map(files);
      const r = applyUpdate(files, t, [{ id, after: { title } }], opts);
      expect(new Set(searchFilesOf(t, files.get(MANIFEST)!))).toEqual(new Set(files.keys()));
      return { before, writes: r.value.writes };
    }

    expect([...files.keys()].filter((p) => p.includes('/terms/')).length).toBeGreaterThan(3);
    // Mostly "zz…": the last shard takes its entries; "0…" and "mm…" wait in the parts of the first and a middle shard.
    const a = create(`${words('zz', 0, 30)} ${words('0a', 0, 2)} ${words('mm', 0, 2)}`);
    expect([...a.writes.keys()].filter((p) => p.includes('/terms/')).length).toBeGreaterThan(0);
    expect(partsOf(files).length).toBeGreaterThan(1);
    // Again mostly "zz…": the parts holding "0…" and "mm…" keep their bytes, so they are not written.
    const b = create(words('zz', 100, 30));
    const partWrites = [...b.writes.keys()].filter((p) => p.includes('/delta/'));
    for (const p of partWrites) expect(b.before.get(p), p).not.toEqual(b.writes.get(p));
    expect(partWrites.length).toBeLessThan(partsOf(b.before).length);

    // Left pending: "0…" and "mm…" entries. Merge "0…", then "mm…" (one shard a write).
    create(words('0a', 10, 30));
    expect(partsOf(files).length).toBeGreaterThan(0);
    const last = create(words('mm', 10, 30));
    expect(partsOf(files)).toEqual([]);
    expect(JSON.parse(new TextDecoder().decode(files.get(MANIFEST)!)).deltas).toBeUndefined();
    expect(partsOf(last.before).length).toBeGreaterThan(0);
    const now = [...docs].map(([id, data]) => ({ id, data }));
    for (const q of ['mm1', 'zz10', '0a11', 'bword3'])
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
  });
});

describe('the hard bound of a delta part', () => {
  it('after every write each part holds at most maxDeltaPartBytes (full parts force their shards to merge)', () => {
    const docs = zipfCorpus(300);
    const tight = { maxShardBytes: 512, maxDeltaPartBytes: 512 };
    const tt = { ...t, fields: ['data.title', 'data.body'] };
    const files = buildSearch(tt, docs, tight);
    let parted = 0;
    const now = new Map(docs.map((d) => [d.id, d.data]));
    for (let w = 0; w < 4; w++) {
      // 30 documents take another's text: ~2,000 entries over every term range, more than 5 % of the shards take.
      const changes = docs.slice(w * 30, w * 30 + 30).map((d, i) => {
        const after = docs[(w * 30 + i + 150) % 300]!.data;
        now.set(d.id, after);
        return { id: d.id, before: d.data, after };
      });
      applyUpdate(files, tt, changes, tight);
      for (const p of partsOf(files)) expect(files.get(p)!.length, `write ${w}: ${p}`).toBeLessThanOrEqual(512);
      if (partsOf(files).length > 0) parted++;
    }
    const current = [...now].map(([id, data]) => ({ id, data }));
    const word = (docs[5]!.data as { title: string }).title.split(' ')[0]!;
    expect(sameHits(searchIndex(files, tt, word), oracle(tt, current, word))).toBeNull();
    expect(parted).toBe(4);
  });
});

describe('the share of shards a flush merges', () => {
  it('takes the most pending shard, even when it splits, then others only while the files stay within max(1, 5 %)', () => {
    const tt = { ...t, fields: ['data.title'] };
    // "aa…" terms of document A alone, at the start of the first shard; 8 terms "m<i>x<j>" per other document.
    const a = { id: 'a', data: { title: Array.from({ length: 45 }, (_, i) => `aa${i}`).join(' ') } };
    const rest = Array.from({ length: 260 }, (_, i) => ({
      id: `d${i}`,
      data: { title: Array.from({ length: 8 }, (_, j) => `m${i}x${j}`).join(' ') },
    }));
    const files = buildSearch(tt, [a, ...rest], opts);
    const shardsOf = (f: Files) => [...f.keys()].filter((p) => p.includes('/terms/'));
    const shards = shardsOf(files).length;
    expect(Math.floor(0.05 * shards)).toBe(2);
    const before = new Set(shardsOf(files));
    // 35 new terms right after "m100x0": the most pending bytes, merged first, its full shard split (two
    // files). Deleting A tombstones 45 entries of the first shard, which would be a third file: it waits.
    const z = { id: 'z', data: { title: Array.from({ length: 35 }, (_, k) => `m100x0q${k}`).join(' ') } };
    const r = applyUpdate(
      files,
      tt,
      [
        { id: a.id, before: a.data },
        { id: z.id, after: z.data },
      ],
      opts,
    );
    const written = [...r.value.writes.keys()].filter((p) => p.includes('/terms/'));
    expect(written.filter((p) => before.has(p))).toHaveLength(1);
    expect(written.length).toBeLessThanOrEqual(2);
    const now = [...rest, z];
    for (const q of ['aa1', 'm100x0q3', 'm100x0'])
      expect(sameHits(searchIndex(files, tt, q), oracle(tt, now, q)), q).toBeNull();
  });
});
