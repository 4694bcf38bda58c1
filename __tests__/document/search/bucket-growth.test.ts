/**
 * The id buckets grow with the type: a write that takes a type past 4 × 256 ids per bucket regroups every
 * id into the bucket count a build would choose, so a one-document write keeps reading a bucket of about
 * 256 ids, not one of thousands.
 */
import { describe, expect, it } from 'vitest';
import { buildSearch, searchManifestPath } from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title'] };
const MANIFEST = searchManifestPath('n', 't');
const manifest = (files: Map<string, Uint8Array>) => JSON.parse(new TextDecoder().decode(files.get(MANIFEST)!));
const doc = (i: number) => ({ id: `d${String(i).padStart(4, '0')}`, data: { title: `word${i % 13} n${i}` } });

describe('id buckets', () => {
  it('double when the type outgrows 4 × 256 ids per bucket, every id regrouped', () => {
    const docs = Array.from({ length: 200 }, (_, i) => doc(i));
    const files = buildSearch(t, docs);
    expect(manifest(files).buckets).toBe(1);
    // Creates of 225 documents a write: 1,100 after four writes, past 1,024 for one bucket.
    for (let w = 0; w < 4; w++) {
      const batch = Array.from({ length: 225 }, (_, i) => doc(200 + w * 225 + i));
      applyUpdate(
        files,
        t,
        batch.map((d) => ({ id: d.id, after: d.data })),
      );
      docs.push(...batch);
      expect(manifest(files).buckets, `after write ${w}`).toBe(w < 3 ? 1 : 8);
    }
    expect([...files.keys()].filter((p) => p.includes('/ids/'))).toHaveLength(8);
    // Each id is found in its new bucket: a delete and an update of ids now in different buckets.
    const gone = docs[3]!;
    const changed = docs[1000]!;
    applyUpdate(files, t, [
      { id: gone.id, before: gone.data },
      { id: changed.id, before: changed.data, after: { title: 'renamed' } },
    ]);
    const now = docs
      .filter((d) => d.id !== gone.id)
      .map((d) => (d.id === changed.id ? { ...d, data: { title: 'renamed' } } : d));
    for (const q of ['renamed', 'word3', 'n3'])
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
  });
});
