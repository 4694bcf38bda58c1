/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): random
 * sequences of DocumentStore writes — put, delete, commit, putMany (small, and large enough to rebuild),
 * commitParts, declaring, changing and dropping search, rebuilding a type's search from its documents
 * (`rebuildSearch`: refused with InvalidConfig, nothing written, when the type has none), and two writers
 * racing — after each of which
 * `docs.search` answers what a brute-force recomputation from the documents answers (issue 42; the oracle is
 * __tests__/document/search/search-oracle.ts) and the section holds no search file its manifests do not list.
 * Small shards and a low "large write" bound make splits and rebuilds happen within a few documents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { DocumentOp } from '../../src/document/document-types.js';
import { assertNoStrayFiles, assertSearchExact } from '../document/search/search-oracle.js';
import type { ContractFixture } from './refstore-contract.js';

const TYPES = ['repo', 'issue'] as const;
const FIELD_SETS = [['data.title', 'data.body'], ['data.title'], ['id', 'data.body', 'data.tags']];
/** Words that share prefixes, differ by one edit, or fold diacritics, so every matching rule is exercised. */
const WORDS = ['git', 'gitter', 'database', 'databse', 'Café', 'cafe', 'search', 'serach', 'rust', 'rusty', 'ruby'];
const QUERIES = ['git', 'cafe data', 'serach', 'ru'];

/** Filler terms, so a type's index spans several 512-byte shards and builds of other sizes leave files behind. */
const FILLER = Array.from({ length: 80 }, (_, i) => `filler${i}term`);
const words = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...FILLER)), { maxLength: 6 })
  .map((w) => w.join(' '));
const data = fc.record(
  {
    title: words,
    body: fc.oneof(words, fc.integer({ min: 0, max: 9 }), fc.constant(null)),
    tags: fc.uniqueArray(fc.constantFrom(...WORDS), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const id = fc.integer({ min: 0, max: 9 }).map((i) => `o/git${i}`);
const type = fc.constantFrom(...TYPES);

type Step =
  | { kind: 'put'; type: string; id: string; data: object }
  | { kind: 'delete'; type: string; id: string }
  | { kind: 'commit'; ops: { type: string; id: string; data: object | null }[] }
  | { kind: 'putMany'; type: string; from: number; count: number; data: object }
  | { kind: 'parts'; parts: { type: string; id: string; data: object | null }[][] }
  | { kind: 'declare'; type: string; fields: number | null }
  | { kind: 'rebuild'; type: string }
  | { kind: 'race'; a: { type: string; id: string; data: object }; b: { type: string; id: string; data: object } };

const docOp = fc.record({ type, id, data: fc.option(data, { nil: null }) });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), type, id, data }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), type, id }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('commit' as const),
      // Up to 8: more than the "large write" bound of 4 for one type, deletes included (a build from documents).
      ops: fc.uniqueArray(docOp, { maxLength: 8, selector: (o) => `${o.type}/${o.id}` }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('putMany' as const),
      type,
      from: fc.integer({ min: 0, max: 8 }),
      count: fc.integer({ min: 1, max: 8 }),
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
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rebuild' as const), type }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('race' as const),
      a: fc.record({ type, id, data }),
      b: fc.record({ type, id, data }),
    }),
  },
);

/** A put into each type, then a rebuild of each: the searchable `repo`, and `issue`, which has no search. */
const REBUILD_EXAMPLE: Step[] = [
  { kind: 'put', type: 'repo', id: 'o/git1', data: { title: 'git database', body: 'rusty search' } },
  { kind: 'put', type: 'issue', id: 'o/git2', data: { title: 'serach cafe' } },
  { kind: 'rebuild', type: 'repo' },
  { kind: 'rebuild', type: 'issue' },
];

/** Run one step in namespace `ns` (each property run has its own, so runs share a section safely). */
async function run(s: Step, ns: string, docs: DocumentStore, peer: DocumentStore): Promise<void> {
  const doc = (t: string, i: string, d: object) => ({ namespace: ns, type: t, id: i, data: d });
  const op = (o: { type: string; id: string; data: object | null }): DocumentOp =>
    o.data === null
      ? { op: 'delete', identity: { namespace: ns, doc_type: o.type, id: o.id } }
      : { op: 'put', document: doc(o.type, o.id, o.data) };
  switch (s.kind) {
    case 'put':
      await docs.put(doc(s.type, s.id, s.data));
      return;
    case 'delete':
      await docs.delete({ namespace: ns, doc_type: s.type, id: s.id });
      return;
    case 'commit':
      await docs.commit(s.ops.map(op));
      return;
    case 'putMany': {
      const many = Array.from({ length: s.count }, (_, i) => doc(s.type, `o/git${s.from + i}`, { ...s.data, n: i }));
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
      await docs.declareSearch([
        { namespace: ns, type: s.type, fields: s.fields === null ? [] : FIELD_SETS[s.fields]! },
      ]);
      return;
    case 'rebuild':
      await rebuild(s.type, ns, docs);
      return;
    case 'race':
      await Promise.all([docs.put(doc(s.a.type, s.a.id, s.a.data)), peer.put(doc(s.b.type, s.b.id, s.b.data))]);
      return;
  }
}

/**
 * `rebuildSearch` of one type: when the type is searchable it succeeds (the oracle then checks what it wrote);
 * else InvalidConfig naming the type, and the tip unchanged.
 */
async function rebuild(type: string, ns: string, docs: DocumentStore): Promise<void> {
  const declared = (await docs.searchDeclaration()).search.some((t) => t.namespace === ns && t.type === type);
  const before = await docs.store.head();
  const done = docs.rebuildSearch([{ namespace: ns, type }]);
  if (declared) {
    await done;
    return;
  }
  await expect(done).rejects.toMatchObject({
    code: 'InvalidConfig',
    message: expect.stringContaining(`${ns}/${type}`),
  });
  expect(await docs.store.head()).toBe(before);
}

/** After a step: every query, over the namespace and over `repo` alone, equals the recomputation. */
async function assertExact(docs: DocumentStore, store: RefStore, ns: string): Promise<void> {
  for (const text of QUERIES) {
    await assertSearchExact(docs, text, { namespace: ns }, 3);
    await assertSearchExact(docs, text, { namespace: ns, type: 'repo' });
  }
  await assertNoStrayFiles(store, (await docs.searchDeclaration()).search);
}

export function describeSearchContract(get: () => { fx: ContractFixture; store: RefStore }, runs: number): void {
  describe('search stays exact through every DocumentStore write path (fast-check)', () => {
    it('random write sequences: search answers what a scan of the documents answers', async () => {
      const { fx, store } = get();
      const search = { maxShardBytes: 512, largeTypeWrite: 4 };
      const docs = new DocumentStore(store, { search });
      const peer = new DocumentStore(fx.peer(), { search });
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          const ns = `s${n++}`;
          await docs.declareSearch([{ namespace: ns, type: 'repo', fields: FIELD_SETS[0]! }]);
          for (const s of steps) {
            await run(s, ns, docs, peer);
            await assertExact(docs, store, ns);
          }
        }),
        {
          numRuns: Number(process.env.SEARCH_RUNS ?? runs),
          endOnFailure: true,
          // Every backend rebuilds at least once, whatever the random runs draw.
          examples: [[REBUILD_EXAMPLE]],
        },
      );
    }, 600_000);
  });
}
