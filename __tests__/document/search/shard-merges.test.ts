/**
 * What a flush's merge does to a term shard: one emptied is deleted (the first: the shard after it then
 * covers the range from "", the manifest's rule, or the next read of the manifest is damage); one that
 * outgrew the bound is split into pieces filled to FILL (75 %), as a build fills them, so the next writes
 * do not split them again.
 */
import { describe, expect, it } from 'vitest';
import { buildSearch, searchManifestPath } from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title'] };
const MANIFEST = searchManifestPath('n', 't');
const opts = { maxShardBytes: 512 };

describe('the first term shard emptied', () => {
  it('is deleted, and the next shard covers the range from ""', () => {
    // Document "a" alone holds the terms that sort first ("aa…"), enough to fill the first shard.
    const first = { id: 'a', data: { title: Array.from({ length: 80 }, (_, i) => `aa${i}`).join(' ') } };
    const rest = Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, data: { title: `bword${i} yword${i}` } }));
    const files = buildSearch(t, [first, ...rest], opts);
    const before = JSON.parse(new TextDecoder().decode(files.get(MANIFEST)!));
    expect(before.shards.length).toBeGreaterThan(2);
    const firstShard = `_docdb/search/n/t/terms/${before.shards[0].name}.txt`;
    // Deleting "a" tombstones every "aa…" term: delta.txt is full and the first shard, most pending, is merged.
    const r = applyUpdate(files, t, [{ id: 'a', before: first.data }], opts);
    expect(r.value.deletes).toContain(firstShard);
    const after = JSON.parse(new TextDecoder().decode(files.get(MANIFEST)!));
    expect(after.shards[0].lower).toBeNull();
    for (const q of ['bword3', 'yword', 'aa1'])
      expect(sameHits(searchIndex(files, t, q), oracle(t, rest, q)), q).toBeNull();
  });
});

describe('a merged shard past the bound', () => {
  it('is split into pieces of at most 75 % of maxShardBytes', () => {
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, data: { title: `bword${i} yword${i}` } }));
    const files = buildSearch(t, docs, opts);
    const shards = (f: Map<string, Uint8Array>) => [...f.keys()].filter((p) => p.includes('/terms/'));
    const before = shards(files).length;
    // 200 new terms after every other ("zz…"): the last shard takes them all and grows to several times the bound.
    const title = Array.from({ length: 200 }, (_, i) => `zz${i}`).join(' ');
    const r = applyUpdate(files, t, [{ id: 'z', after: { title } }], opts);
    const written = [...r.value.writes.keys()].filter((p) => p.includes('/terms/'));
    expect(shards(files).length).toBeGreaterThan(before + 1);
    for (const p of written) expect(files.get(p)!.length, p).toBeLessThanOrEqual(Math.floor(0.75 * 512));
    const now = [...docs, { id: 'z', data: { title } }];
    for (const q of ['zz5', 'zz99', 'yword'])
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
  });
});
