/**
 * DocumentStore keeps the section's indexes exact in the same commit as its documents (issue 28 item 2),
 * on the memory store: declaring, every write path, dropping, a damaged index rebuilt from the documents,
 * and a failed write that changes neither documents nor index.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidDocument } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { DECLARATION_KEY, manifestPath } from '../../../src/document/indexes/index.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertIndexExact } from './index-oracle.js';

const repo = (id: string, data: Record<string, unknown>) => ({ namespace: 'github', type: 'repo', id, data });
const REPO = { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] };

function fresh(maxPartBytes = 400) {
  const store = new MemoryRefStore();
  return { store, docs: new DocumentStore(store, { index: { maxPartBytes } }) };
}

describe('indexes kept exact by DocumentStore writes', () => {
  it('declaring builds the index from the documents in one commit; re-declaring writes nothing', async () => {
    const { store, docs } = fresh();
    await docs.putMany(
      Array.from({ length: 40 }, (_, i) => repo(`o/r${i}`, { language: i % 3 ? 'TS' : 'Go', stars: i })),
    );
    const r = await docs.declareIndexes([REPO]);
    expect(r.changed).toBe(true);
    expect(r.written).toContain(DECLARATION_KEY);
    expect(r.written).toContain(manifestPath('github', 'repo'));
    expect(await assertIndexExact(store)).toBe(1);
    const again = await docs.declareIndexes([REPO]);
    expect(again.changed).toBe(false);
    expect((await docs.indexes()).indexes).toEqual([REPO]);
  });

  it('put, delete, commit, putMany and commitParts keep it exact; each write is one commit', async () => {
    const { store, docs } = fresh();
    await docs.declareIndexes([REPO]);
    const before = await store.head();
    const p = await docs.put(repo('o/a', { language: 'TS', stars: 5 }));
    expect((await store.commits!({ limit: 10 })).entries[1]?.version).toBe(before);
    expect(p.written).toContain('github/repo/o/a.json');
    await assertIndexExact(store);
    await docs.put(repo('o/a', { language: 'Go', stars: 6 }));
    await assertIndexExact(store);
    await docs.putMany(Array.from({ length: 30 }, (_, i) => repo(`o/m${i}`, { language: 'Rust', stars: i * 2 })));
    await assertIndexExact(store);
    await docs.commit([
      { op: 'delete', identity: { namespace: 'github', doc_type: 'repo', id: 'o/m3' } },
      { op: 'put', document: repo('o/m4', { stars: 1 }) },
      { op: 'put', document: { namespace: 'github', type: 'other', id: 'x', data: { stars: 'not indexed' } } },
    ]);
    await assertIndexExact(store);
    await docs.delete({ namespace: 'github', doc_type: 'repo', id: 'o/a' });
    await assertIndexExact(store);
    await docs.commitParts([
      [{ op: 'put', document: repo('o/p1', { language: 'TS', stars: 100 }) }],
      [{ op: 'delete', identity: { namespace: 'github', doc_type: 'repo', id: 'o/m5' } }],
    ]);
    await assertIndexExact(store);
  });

  it('a large write rebuilds the type from its own rows; dropping deletes every index file', async () => {
    const { store, docs } = fresh();
    await docs.declareIndexes([REPO]);
    await docs.putMany(Array.from({ length: 300 }, (_, i) => repo(`o/l${i}`, { language: `L${i % 7}`, stars: i })));
    await assertIndexExact(store);
    await docs.putMany(Array.from({ length: 300 }, (_, i) => repo(`o/l${i}`, { language: `L${i % 5}`, stars: -i })));
    await assertIndexExact(store);
    const dropped = await docs.declareIndexes([{ ...REPO, fields: [] }]);
    expect(dropped.deleted).toContain(DECLARATION_KEY);
    expect((await store.list({ prefix: '_docdb/' })).entries).toEqual([]);
  });

  it('an unindexable value fails the whole write: neither documents nor index change', async () => {
    const { store, docs } = fresh();
    await docs.declareIndexes([REPO]);
    await docs.put(repo('o/a', { language: 'TS', stars: 1 }));
    const head = await store.head();
    const bad = docs.putMany([repo('o/b', { stars: 2 }), repo('o/c', { stars: { nested: true } })]);
    await expect(bad).rejects.toBeInstanceOf(InvalidDocument);
    expect(await store.head()).toBe(head);
    await expect(docs.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['stars'] }])).rejects.toThrow(
      InvalidConfig,
    );
  });

  it('a damaged part read back is not trusted: the next write rebuilds the type from the documents', async () => {
    const { store, docs } = fresh();
    await docs.declareIndexes([REPO]);
    await docs.putMany(Array.from({ length: 20 }, (_, i) => repo(`o/d${i}`, { language: 'TS', stars: i })));
    const parts = (await store.list({ prefix: '_docdb/index/github/repo/data.stars/' })).entries;
    await store.put(parts[0]!.key, '["not", "a row"\n');
    await docs.put(repo('o/d1', { language: 'Go', stars: 99 }));
    await assertIndexExact(store);
  });
});
