/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): random
 * sequences of DocumentStore writes — put, compare-and-set put, delete, commit, putMany (small and large),
 * commitParts, declaring and dropping indexes, and two writers racing — after each of which the index in
 * the section must equal the index recomputed from its documents (issue 28 item 2; the oracle is
 * __tests__/document/indexes/index-oracle.ts). Small parts and a low "large write" bound make splits,
 * merges and rebuilds from rows happen within a few documents.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { DocumentOp } from '../../src/document/document-types.js';
import { assertIndexExact } from '../document/indexes/index-oracle.js';
import type { ContractFixture } from './refstore-contract.js';

const TYPES = ['repo', 'issue'] as const;
const FIELD_SETS = [['data.lang', 'data.stars'], ['data.topics'], ['id', 'data.stars', 'data.note']];

const value = fc.oneof(
  fc.constantFrom('TS', 'Go', 'Rust'),
  fc.integer({ min: -3, max: 30 }),
  fc.constant(null),
  fc.boolean(),
  // Longer than the 256 bytes an index stores: the row holds a cut prefix.
  fc.constantFrom('x'.repeat(300), `${'x'.repeat(300)}y`),
);
const data = fc.record(
  {
    lang: value,
    stars: value,
    topics: fc.uniqueArray(fc.constantFrom('cli', 'web', 'db', 'ml'), { maxLength: 3 }),
    note: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: [] },
);
const id = fc.integer({ min: 0, max: 12 }).map((i) => `o/r${i}`);
const type = fc.constantFrom(...TYPES);

type Step =
  | { kind: 'put'; type: string; id: string; data: object; cas: boolean }
  | { kind: 'delete'; type: string; id: string }
  | { kind: 'commit'; ops: { type: string; id: string; data: object | null }[] }
  | { kind: 'putMany'; type: string; from: number; count: number; data: object }
  | { kind: 'parts'; parts: { type: string; id: string; data: object | null }[][] }
  | { kind: 'declare'; type: string; fields: number | null }
  | { kind: 'race'; a: { type: string; id: string; data: object }; b: { type: string; id: string; data: object } };

const docOp = fc.record({ type, id, data: fc.option(data, { nil: null }) });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), type, id, data, cas: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), type, id }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('commit' as const),
      ops: fc.uniqueArray(docOp, { maxLength: 5, selector: (o) => `${o.type}/${o.id}` }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('putMany' as const),
      type,
      from: fc.integer({ min: 0, max: 10 }),
      count: fc.integer({ min: 1, max: 9 }),
      data,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('parts' as const),
      parts: fc.array(fc.uniqueArray(docOp, { maxLength: 3, selector: (o) => `${o.type}/${o.id}` }), { maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('declare' as const),
      type,
      fields: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('race' as const),
      a: fc.record({ type, id, data }),
      b: fc.record({ type, id, data }),
    }),
  },
);

/** Run one step in namespace `ns` (each property run has its own, so runs share a section safely). */
async function run(s: Step, ns: string, docs: DocumentStore, peer: DocumentStore): Promise<void> {
  const doc = (t: string, i: string, d: object) => ({ namespace: ns, type: t, id: i, data: d });
  const op = (o: { type: string; id: string; data: object | null }): DocumentOp =>
    o.data === null
      ? { op: 'delete', identity: { namespace: ns, doc_type: o.type, id: o.id } }
      : { op: 'put', document: doc(o.type, o.id, o.data) };
  switch (s.kind) {
    case 'put': {
      const etag = s.cas ? (await docs.read({ namespace: ns, doc_type: s.type, id: s.id })).etag : undefined;
      await docs.put(doc(s.type, s.id, s.data), s.cas ? { ifMatch: etag ?? null } : undefined);
      return;
    }
    case 'delete':
      await docs.delete({ namespace: ns, doc_type: s.type, id: s.id });
      return;
    case 'commit':
      await docs.commit(s.ops.map(op));
      return;
    case 'putMany': {
      const many = Array.from({ length: s.count }, (_, i) => doc(s.type, `o/r${s.from + i}`, { ...s.data, stars: i }));
      await docs.putMany(many);
      return;
    }
    case 'parts': {
      const seen = new Set<string>();
      const parts = s.parts.map((p) =>
        p.filter((o) => !seen.has(`${o.type}/${o.id}`) && seen.add(`${o.type}/${o.id}`)).map(op),
      );
      await docs.commitParts(parts);
      return;
    }
    case 'declare':
      await docs.declareIndexes([
        { namespace: ns, type: s.type, fields: s.fields === null ? [] : FIELD_SETS[s.fields]! },
      ]);
      return;
    case 'race':
      await Promise.all([docs.put(doc(s.a.type, s.a.id, s.a.data)), peer.put(doc(s.b.type, s.b.id, s.b.data))]);
      return;
  }
}

export function describeIndexContract(get: () => { fx: ContractFixture; store: RefStore }, runs: number): void {
  describe('indexes stay exact through every DocumentStore write path (fast-check)', () => {
    it('random write sequences: the stored index equals the one recomputed from the documents', async () => {
      const { fx, store } = get();
      const index = { maxPartBytes: 700, largeTypeWrite: 4 };
      const docs = new DocumentStore(store, { index });
      const peer = new DocumentStore(fx.peer(), { index });
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          const ns = `n${n++}`;
          await docs.declareIndexes([{ namespace: ns, type: 'repo', fields: FIELD_SETS[0]! }]);
          for (const s of steps) {
            await run(s, ns, docs, peer);
            await assertIndexExact(store);
          }
        }),
        { numRuns: Number(process.env.INDEX_RUNS ?? runs), endOnFailure: true },
      );
    }, 600_000);
  });
}
