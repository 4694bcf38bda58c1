/**
 * DocumentStore's index maintenance (a derive hook, src/document/index-write.ts) on the GitHub API store,
 * against the emulator: every write path keeps the stored index equal to one recomputed from the documents
 * (the index oracle), with small parts so writes split and merge them (new part keys the hook never read),
 * and a writer that lost a race recomputes the index on the new tip.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { assertIndexExact } from '../document/indexes/index-oracle.js';
import { emulatorPerFile, ops, store } from './helpers.js';

const fx = emulatorPerFile();
const repo = (id: string, data: Record<string, unknown>) => ({ namespace: 'github', type: 'repo', id, data });
const REPO = { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] };

describe('indexes kept exact by DocumentStore writes on the GitHub API store', () => {
  it('put, delete, commit, putMany and commitParts: the index exact after each', async () => {
    const s = store(fx.em, fx.repo);
    const docs = new DocumentStore(s, { index: { maxPartBytes: 400 } });
    await docs.putMany(
      Array.from({ length: 30 }, (_, i) => repo(`o/r${i}`, { language: i % 3 ? 'TS' : 'Go', stars: i })),
    );
    await docs.declareIndexes([REPO]);
    expect(await assertIndexExact(store(fx.em, fx.repo))).toBe(1);
    for (let i = 0; i < 6; i++) {
      // Values that move rows across parts: splits and merges write part keys the hook did not read.
      await docs.put(repo(`o/r${i}`, { language: 'Rust', stars: 1000 - i }));
      await assertIndexExact(store(fx.em, fx.repo));
    }
    await docs.delete({ namespace: 'github', doc_type: 'repo', id: 'o/r7' });
    await assertIndexExact(store(fx.em, fx.repo));
    await docs.commit([
      { op: 'delete', identity: { namespace: 'github', doc_type: 'repo', id: 'o/r8' } },
      { op: 'put', document: repo('o/n1', { stars: 1 }) },
    ]);
    await assertIndexExact(store(fx.em, fx.repo));
    await docs.commitParts([
      [{ op: 'put', document: repo('o/p1', { language: 'TS', stars: 100 }) }],
      [{ op: 'delete', identity: { namespace: 'github', doc_type: 'repo', id: 'o/r9' } }],
    ]);
    expect(await assertIndexExact(store(fx.em, fx.repo))).toBe(1);
  });

  it('a writer that lost the race recomputes the index on the new tip: both rows are in it', async () => {
    const a = new DocumentStore(store(fx.em, fx.repo), { index: { maxPartBytes: 400 } });
    // b writes on the tip it saw last without reading the ref (trustCachedTipMs): the same race as another
    // writer landing between b's ref read and its update, made deterministic.
    const bStore = store(fx.em, fx.repo, { trustCachedTipMs: Number.MAX_SAFE_INTEGER });
    const b = new DocumentStore(bStore, { index: { maxPartBytes: 400 } });
    await a.putMany(Array.from({ length: 12 }, (_, i) => repo(`o/${i}`, { language: 'TS', stars: i })));
    await a.declareIndexes([REPO]);
    await b.put(repo('b/0', { language: 'Go', stars: 50 }));
    await a.put(repo('a/0', { language: 'Go', stars: 40 }));
    const from = fx.em.requests.length;
    await b.put(repo('b/1', { language: 'Go', stars: 60 }));
    expect(ops(fx.em, from)).toContain('PATCH git/update-ref 422');
    expect(await assertIndexExact(store(fx.em, fx.repo))).toBe(1);
    const q = await a.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.language', op: '=', value: 'Go' }],
    });
    expect(q.answeredBy).toBe('index');
    expect(q.rows.map((r) => r.id).sort()).toEqual(['a/0', 'b/0', 'b/1']);
  });
});
