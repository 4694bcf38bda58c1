/**
 * The index write's guard (index-write.ts `incremental`): a value counts file that the batched read did not
 * fetch reads as absent to `updateIndex`, which would leave it unchanged — stale. Here `partsToRead` is made to
 * forget the counts files (what the guard is against): the write must fetch them before it goes on, and the
 * counts stay exact.
 */
import { describe, expect, it, vi } from 'vitest';
import { DocumentStore } from '../../../src/document/document-store.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertIndexExact } from './index-oracle.js';

vi.mock('../../../src/document/indexes/update.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/document/indexes/update.js')>();
  return {
    ...real,
    partsToRead: (...args: Parameters<typeof real.partsToRead>) =>
      real.partsToRead(...args).filter((p) => !p.endsWith('/counts.json')),
  };
});

describe('counts files the batched read missed', () => {
  it('are fetched before the write goes on: the counts stay exact', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    const type = { namespace: 'g', type: 'repo' };
    await docs.putMany(
      Array.from({ length: 10 }, (_, i) => ({ ...type, id: `o/r${i}`, data: { l: i % 2 ? 'Go' : 'TS' } })),
      { indexes: [{ ...type, fields: ['data.l'] }] },
    );
    await docs.put({ ...type, id: 'o/r0', data: { l: 'Rust' } });
    await docs.delete({ namespace: 'g', doc_type: 'repo', id: 'o/r1' });
    await assertIndexExact(store);
    const [l] = (await docs.facets(type)).fields;
    expect(l!.values.map((v) => [v.value, v.count])).toEqual([
      ['Go', 4],
      ['TS', 4],
      ['Rust', 1],
    ]);
  });
});
