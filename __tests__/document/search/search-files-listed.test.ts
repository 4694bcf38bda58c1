/**
 * The files a type's search holds are exactly those its manifest lists (searchFilesOf: what a drop and a
 * rebuild delete) after every kind of write: deletes that leave the last table part partly free, flushes
 * that cut the delta into parts, merges that empty them. A file the manifest does not list would never be
 * deleted; a file it lists that is not there would be read as damage.
 */
import { describe, expect, it } from 'vitest';
import { buildSearch, searchFilesOf, searchManifestPath } from '../../../src/document/search/index.js';
import { zipfCorpus } from './corpus.js';
import { applyUpdate, type Files, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
const MANIFEST = searchManifestPath('n', 't');

function expectListed(files: Files, step: string): void {
  const listed = searchFilesOf(t, files.get(MANIFEST)!);
  expect(new Set(listed), step).toEqual(new Set(files.keys()));
}

describe('the files of a type are the files its manifest lists', () => {
  it('after deletes below a full table part, a flush into delta parts, and merges that empty them', () => {
    const docs = zipfCorpus(300);
    const opts = { maxShardBytes: 2048 };
    const files = buildSearch(t, docs, opts);
    expectListed(files, 'build');
    // 50 deletes: 250 documents, ordinals up to 299 — table part 1 still holds ids, and is listed.
    applyUpdate(
      files,
      t,
      docs.slice(0, 50).map((d) => ({ id: d.id, before: d.data })),
      opts,
    );
    expect(files.has('_docdb/search/n/t/table/1.json')).toBe(true);
    expectListed(files, '50 deletes');
    const current = new Map(docs.slice(50).map((d) => [d.id, d.data]));
    let parted = false;
    for (let round = 0; round < 12; round++) {
      const batch = docs.slice(50 + round * 20, 70 + round * 20);
      const changes = batch.map((d) => {
        const after = { title: `round${round} retitled`, body: (d.data as { body: string }).body };
        const change = { id: d.id, before: current.get(d.id), after };
        current.set(d.id, after);
        return change;
      });
      applyUpdate(files, t, changes, opts);
      parted ||= [...files.keys()].some((p) => p.includes('/delta/'));
      expectListed(files, `round ${round}`);
    }
    expect(parted).toBe(true);
    const now = [...current].map(([id, data]) => ({ id, data }));
    for (const q of ['retitled', 'round3', 'round11 retitled']) {
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
    }
  });
});
