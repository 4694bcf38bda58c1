/**
 * The light write hook (src/document/light-write.ts): a write that declares nothing loads the declarations
 * work (`features.write()`, the browser's lazy write-kit chunk) only when the section declares something
 * about the written types, spends its first read round once whichever way it goes, and leaves the section
 * exactly as the full hook would (indexes kept exact, schemas enforced).
 */
import { describe, expect, it } from 'vitest';
import { InvalidDocument, InvalidResponse } from '../../src/core/errors.js';
import type { DeriveBase } from '../../src/core/refstore.js';
import { opsToChanges } from '../../src/document/batch.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { DocumentOp } from '../../src/document/document-types.js';
import { type DocumentFeatures, features } from '../../src/document/features.js';
import { declarationsFirstReads } from '../../src/document/first-reads.js';
import { indexedOpsOf } from '../../src/document/indexed-ops.js';
import { lightWriteHook } from '../../src/document/light-write.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { assertIndexExact } from './indexes/index-oracle.js';

const REPO = { namespace: 'github', type: 'repo' };
const repo = (id: string, stars: number) => ({ ...REPO, id, data: { stars } });

/** The eager features, counting how often the declarations work is asked for. */
function countingFeatures(): { features: DocumentFeatures; writeLoads: () => number } {
  let loads = 0;
  return {
    features: {
      ...features,
      write: () => {
        loads++;
        return features.write();
      },
    },
    writeLoads: () => loads,
  };
}

/** Put one document with the light hook in front, recording every read round the hook makes. */
async function put(store: MemoryRefStore, f: DocumentFeatures, doc: ReturnType<typeof repo>, reads: string[][] = []) {
  const ops: DocumentOp[] = [{ op: 'put', document: doc }];
  const changes = opsToChanges(ops);
  const hook = lightWriteHook({ store, ops: () => indexedOpsOf(ops, changes) }, f);
  const counted = (base: DeriveBase): DeriveBase => ({
    version: base.version,
    written: (k) => base.written(k),
    read: (keys) => {
      reads.push([...keys]);
      return base.read(keys);
    },
  });
  return store.commit(changes, { derive: (base) => hook(counted(base)) });
}

describe('lightWriteHook', () => {
  it('a section that declares nothing: one read round, the declarations work never loaded', async () => {
    const store = new MemoryRefStore();
    const c = countingFeatures();
    const reads: string[][] = [];
    await put(store, c.features, repo('o/a', 1), reads);
    await put(store, c.features, repo('o/b', 2), reads);
    expect(c.writeLoads()).toBe(0);
    expect(reads).toEqual([declarationsFirstReads([REPO]), declarationsFirstReads([REPO])]);
    expect((await new DocumentStore(store).get({ namespace: 'github', doc_type: 'repo', id: 'o/b' }))?.data).toEqual({
      stars: 2,
    });
  });

  it('an index on another type does not load it; one on the written type does, and keeps the index exact', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.declareIndexes([{ ...REPO, fields: ['data.stars'] }]);
    const c = countingFeatures();
    await put(store, c.features, { namespace: 'github', type: 'issue', id: 'o/r#1', data: { stars: 3 } } as never);
    expect(c.writeLoads()).toBe(0);
    const reads: string[][] = [];
    await put(store, c.features, repo('o/a', 7), reads);
    expect(c.writeLoads()).toBe(1);
    // The first round answered once: the declarations hook reused it instead of reading it again.
    expect(reads.filter((r) => r.join() === declarationsFirstReads([REPO]).join())).toHaveLength(1);
    expect(await assertIndexExact(store)).toBe(1);
    const q = await docs.query({ ...REPO, where: [{ field: 'data.stars', op: '=', value: 7 }] });
    expect(q.answeredBy).toBe('index');
    expect(q.documents?.map((d) => d.id) ?? q.rows.map((r) => r.id)).toEqual(['o/a']);
  });

  it('a schema on the written type loads it and refuses a document that breaks it, writing nothing', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.declareSchema(REPO, { type: 'object', properties: { stars: { type: 'integer', minimum: 0 } } });
    const head = await store.head();
    const c = countingFeatures();
    await expect(put(store, c.features, repo('o/bad', -1))).rejects.toBeInstanceOf(InvalidDocument);
    expect(c.writeLoads()).toBe(1);
    expect(await store.head()).toBe(head);
    await put(store, c.features, repo('o/good', 1));
    expect(await store.head()).not.toBe(head);
  });

  it('search on another type does not load it; search on the written type does, and the search finds the put', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.declareSearch([{ namespace: 'github', type: 'issue', fields: ['data.title'] }]);
    const c = countingFeatures();
    await put(store, c.features, repo('o/a', 1));
    expect(c.writeLoads()).toBe(0);
    await docs.declareSearch([{ ...REPO, fields: ['id'] }]);
    const reads: string[][] = [];
    await put(store, c.features, repo('o/findme', 2), reads);
    expect(c.writeLoads()).toBe(1);
    expect(reads.filter((r) => r.join() === declarationsFirstReads([REPO]).join())).toHaveLength(1);
    expect((await docs.search('findme', { ...REPO })).hits.map((h) => h.id)).toEqual(['o/findme']);
  });

  it('a damaged search declaration loads it, and the write is refused (InvalidResponse) with nothing written', async () => {
    const store = new MemoryRefStore();
    await store.put('_docdb/search.json', new TextEncoder().encode('{"search": 1}'));
    const head = await store.head();
    const c = countingFeatures();
    await expect(put(store, c.features, repo('o/a', 1))).rejects.toBeInstanceOf(InvalidResponse);
    expect(c.writeLoads()).toBe(1);
    expect(await store.head()).toBe(head);
  });
});
