/**
 * The delta split by term range (issue 42: "a write touching 100 documents rewrites ≤ 5 % of the
 * shards"): counted in term files written, for every write, not on average.
 */
import { describe, expect, it } from 'vitest';
import {
  buildSearch,
  parseSearchText,
  rankSearch,
  searchFilesOf,
  searchManifestPath,
} from '../../../src/document/search/index.js';
import { zipfCorpus } from './corpus.js';
import { applyUpdate, type Files, oracle, sameHits, searchIndex, withFetches } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const MANIFEST = searchManifestPath('n', 't');
const isShard = (p: string) => p.includes('/terms/');
const isPart = (p: string) => p.includes('/delta/');
const budget = (shards: number) => Math.max(1, Math.floor(0.05 * shards));
const manifestOf = (files: Files) => JSON.parse(new TextDecoder().decode(files.get(MANIFEST)!));

describe('a 100-document write rewrites at most 5 % of the term shards', () => {
  const docs = zipfCorpus(4000);
  // Small shards, so that 5 % of them is several (stored format 2 holds ~4,000 such documents in ~150).
  const opts = { maxShardBytes: 4096 };

  it('ten 100-document updates in a row each rewrite ≤ max(1, 5 % of the shards); then a put of 1 rewrites none', () => {
    const files = buildSearch(t, docs, opts);
    const current = new Map(docs.map((d) => [d.id, d.data]));
    let flushes = 0;
    for (let w = 0; w < 10; w++) {
      const shards = [...files.keys()].filter(isShard).length;
      const parts = manifestOf(files).deltas?.length ?? 0;
      // Each document takes another's text: ~60 distinct terms out, ~60 in, all over the term range.
      const changes = docs.slice(w * 100, w * 100 + 100).map((d, i) => ({
        id: d.id,
        before: current.get(d.id),
        after: docs[3999 - w * 100 - i]!.data,
      }));
      const r = applyUpdate(files, t, changes, opts);
      for (const c of changes) current.set(c.id, c.after);
      const written = [...r.value.writes.keys()];
      // Its own ~12,000 entries surely fill delta.txt: the parts come with round 2, the shards in round 3.
      expect(r.rounds, `write ${w}`).toHaveLength(3);
      expect(r.rounds[1]!.filter(isPart)).toHaveLength(parts);
      expect(r.rounds[2]!.every(isShard)).toBe(true);
      if (written.some(isPart)) flushes++;
      expect(written.filter(isShard).length, `write ${w} of ${shards} shards`).toBeLessThanOrEqual(budget(shards));
    }
    expect(flushes).toBeGreaterThanOrEqual(5);
    expect(manifestOf(files).deltas.length).toBeGreaterThan(4);
    expect([...files.keys()].filter(isShard).length).toBeGreaterThan(100);
    const now = [...current].map(([id, data]) => ({ id, data }));
    for (const q of ['kamite', 'rote']) {
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
    }
    // A query reads the parts of its word's range with its shards and delta.txt, in one round.
    const q = withFetches(files, (read) => rankSearch(t, parseSearchText('kamite'), read));
    expect(q.rounds).toHaveLength(2);
    expect(q.rounds[1]!.filter(isPart).length).toBeGreaterThan(0);
    // Only the parts of its range ("ka…", one typo allowed): a few of them.
    expect(q.rounds[1]!.filter(isPart).length).toBeLessThan(manifestOf(files).deltas.length / 4);
    // A drop or a rebuild deletes what the manifest lists: the parts are listed too.
    expect(new Set(searchFilesOf(t, files.get(MANIFEST)!))).toEqual(new Set(files.keys()));
    const one = docs[2000]!;
    const after = { title: 'zzyzx qqq', body: 'kaka' };
    const r = applyUpdate(files, t, [{ id: one.id, before: current.get(one.id), after }], opts);
    expect([...r.value.writes.keys()].filter(isShard)).toEqual([]);
    expect(searchIndex(files, t, 'zzyzx').map((h) => h.id)).toEqual([one.id]);
  });
});
