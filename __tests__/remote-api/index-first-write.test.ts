/**
 * Issue 28's last budget row, in requests: "first write of 100,000 documents with 2 indexed fields ≤ 1.2 × the
 * requests of the same write without an index" — both through `DocumentStore.putMany` on the GitHub API store
 * against the emulator, the index declared in the same commit. (Its CPU ratio, ≤ 1.3×, is a timing: measured
 * in bench/indexes.ts, never here.) Asserted with ≈ 1.2 KB documents (bench/writes.ts's size): create-tree
 * requests carry ≤ 1 MiB each and the index adds ≈ 105 bytes per document (stored format 2), so the ratio
 * depends on document size — with ≈ 240-byte documents it is 1.39× (39 vs 28 requests; 1.54× in format 1), over
 * the goal: index-first-write-small-docs.test.ts asserts it in request counts at a tenth of the scale.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { emulatorPerFile, freshRepo, meteredTransport, newMeter, store } from './helpers.js';

const fx = emulatorPerFile();
const N = 100_000;
const LANGS = ['TypeScript', 'Go', 'Rust', 'Python', 'C', 'Java', 'Ruby'];
const INDEX = { namespace: 'bench', type: 'item', fields: ['data.stars', 'data.language'] };
const docs = () =>
  Array.from({ length: N }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `g${i % 50}/item-${i}`,
    data: { i, language: LANGS[i % 7], stars: (i * 7919) % 1000, text: 'x'.repeat(1100) },
  }));

describe('first write of 100,000 documents with an index', () => {
  it('costs ≤ 1.2 × the requests of the same write without one, and the index answers', async () => {
    const plain = newMeter();
    await new DocumentStore(store(fx.em, fx.repo, { transport: meteredTransport(plain) })).putMany(docs());
    const other = freshRepo(fx.em);
    const indexed = newMeter();
    const d = new DocumentStore(store(fx.em, other, { transport: meteredTransport(indexed) }));
    const r = await d.putMany(docs(), { indexes: [INDEX] });
    expect(r.written).toContain('_docdb/indexes.json');
    expect(indexed.requests / plain.requests, `${indexed.requests} vs ${plain.requests}`).toBeLessThanOrEqual(1.2);
    const q = await d.query({
      namespace: 'bench',
      type: 'item',
      where: [{ field: 'data.stars', op: '=', value: 7 }],
      fields: ['data.stars'],
    });
    expect(q.answeredBy).toBe('index');
    expect(q.rows).toHaveLength(100);
  }, 300_000);
});
