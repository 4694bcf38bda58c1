/**
 * A write that empties the first term shard deletes it, and the shard after it becomes the first: its
 * range must then start from "" (the manifest's rule), or the next read of the manifest is damage.
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
