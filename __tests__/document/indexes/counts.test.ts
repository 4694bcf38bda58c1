/**
 * Value counts (issue 40 item 7; indexes/counts.ts): after any sequence of DocumentStore writes and deletes
 * the facets the library reads equal the counts computed from the documents themselves (fast-check, memory
 * store); a damaged or outdated counts file is InvalidResponse — for a reader and for the next write, which
 * rebuilds the type instead; past the cap the counts say so rather than keep a partial list; an index
 * written before counts reads as `not-kept` until a write of the field adds them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse, NotFound } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import type { FacetsResult } from '../../../src/document/facets-read.js';
import { COUNTS_CAP, countsPath } from '../../../src/document/indexes/counts.js';
import { storedValue } from '../../../src/document/indexes/values.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertIndexExact } from './index-oracle.js';

const FIELDS = ['data.l', 'data.t', 'data.n'];
const TYPE = { namespace: 'g', type: 'repo' };
const doc = (id: string, data: Record<string, unknown>) => ({ ...TYPE, id, data });
const identity = (id: string) => ({ namespace: 'g', doc_type: 'repo', id });

function fresh(maxPartBytes = 300) {
  const store = new MemoryRefStore();
  return { store, docs: new DocumentStore(store, { index: { maxPartBytes } }) };
}

/** `element|stored JSON` → documents, computed from the documents alone (the oracle). */
function countsFromDocuments(all: Map<string, Record<string, unknown>>, field: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string) => out.set(k, (out.get(k) ?? 0) + 1);
  for (const [id, data] of all) {
    const v = storedValue(id, data, field);
    if (Array.isArray(v) && v.length > 0) for (const e of new Set(v.map((x) => JSON.stringify(x)))) add(`1|${e}`);
    else add(`0|${JSON.stringify(v)}`);
  }
  return out;
}

/** The same keys from what `facets` answered. */
function countsFromFacets(r: FacetsResult, field: string): Map<string, number> {
  const f = r.fields.find((x) => x.field === field)!;
  expect(f.state).toBe('counted');
  expect(f.distinct).toBe(f.values.length);
  for (let i = 1; i < f.values.length; i++) expect(f.values[i - 1]!.count).toBeGreaterThanOrEqual(f.values[i]!.count);
  const stored = (v: (typeof f.values)[number]) => (v.absent ? {} : v.cut ? { cut: v.value } : v.value);
  return new Map(f.values.map((v) => [`${v.element ? 1 : 0}|${JSON.stringify(stored(v))}`, v.count]));
}

const LONG = 'é'.repeat(127);
const scalar = fc.constantFrom<unknown>('x', 'y', 'Go', 1, 2.5, null, true, `${LONG}ab`, `${LONG}ac`);
const value = fc.oneof(scalar, fc.array(fc.constantFrom('x', 'y', 'z', 3), { maxLength: 3 }));
const data = fc.record({ l: value, t: value, n: fc.integer({ min: -2, max: 2 }) }, { requiredKeys: ['n'] });
const id = fc.constantFrom('o/a', 'o/b', 'o/c', 'o/d', 'o/e', 'o/f');
const op = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), id, data }),
  fc.record({ kind: fc.constant('delete' as const), id }),
  fc.record({
    kind: fc.constant('many' as const),
    docs: fc.uniqueArray(fc.record({ id, data }), { selector: (d) => d.id, maxLength: 4 }),
  }),
);

describe('value counts equal the documents after any writes', () => {
  it('put, delete and putMany, in any order (memory store; several parts per run)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const { store, docs } = fresh();
        await docs.declareIndexes([{ ...TYPE, fields: FIELDS }]);
        const all = new Map<string, Record<string, unknown>>();
        for (const o of ops) {
          if (o.kind === 'put') {
            await docs.put(doc(o.id, o.data));
            all.set(o.id, o.data);
          } else if (o.kind === 'delete') {
            await docs.delete(identity(o.id));
            all.delete(o.id);
          } else {
            await docs.putMany(o.docs.map((d) => doc(d.id, d.data)));
            for (const d of o.docs) all.set(d.id, d.data);
          }
        }
        const r = await docs.facets(TYPE);
        expect(r.typeCount).toBe(all.size);
        for (const f of FIELDS) expect(countsFromFacets(r, f)).toEqual(countsFromDocuments(all, f));
        await assertIndexExact(store);
      }),
      { numRuns: 40 },
    );
  });
});

/** A type of `n` documents with an index (languages in shares, topics as arrays, some absent). */
async function seeded(n = 30) {
  const { store, docs } = fresh();
  await docs.putMany(
    Array.from({ length: n }, (_, i) =>
      doc(`o/r${i}`, { l: ['Go', 'TS', 'Go'][i % 3], ...(i % 4 ? { t: ['cli', 'web'].slice(0, 1 + (i % 2)) } : {}) }),
    ),
    { indexes: [{ ...TYPE, fields: ['data.l', 'data.t'] }] },
  );
  const text = async (key: string) => new TextDecoder().decode((await store.get(key))!.value);
  return { store, docs, text, path: countsPath('g', 'repo', 'data.l') };
}

describe('facets read back', () => {
  it('answers every field: counts, elements, the absent bucket, most frequent first', async () => {
    const { docs } = await seeded();
    const r = await docs.facets(TYPE);
    expect(r.typeCount).toBe(30);
    expect(
      r.fields.map((f) => [f.field, f.state, f.values.map((v) => [v.value, v.element, v.absent, v.count])]),
    ).toEqual([
      [
        'data.l',
        'counted',
        [
          ['Go', false, false, 20],
          ['TS', false, false, 10],
        ],
      ],
      [
        'data.t',
        'counted',
        [
          ['cli', true, false, 22],
          ['web', true, false, 15],
          [undefined, false, true, 8],
        ],
      ],
    ]);
    const one = await docs.facets({ ...TYPE, fields: ['data.t'] });
    expect(one.fields.map((f) => f.field)).toEqual(['data.t']);
  });

  it('refuses a field the index does not declare, and a type without an index', async () => {
    const { docs } = await seeded();
    await expect(docs.facets({ ...TYPE, fields: ['data.stars'] })).rejects.toThrow(InvalidConfig);
    await expect(docs.facets({ ...TYPE, fields: ['data.stars'] })).rejects.toThrow(/does not declare data.stars/);
    await expect(docs.facets({ namespace: 'g', type: 'none' })).rejects.toThrow(NotFound);
  });

  it.each([
    ['a count changed', (t: string) => t.replace('["Go",20]', '["Go",21]'), /do not add up to its 30 documents/],
    ['values out of order', (t: string) => t.replace('["Go",20],["TS",10]', '["TS",10],["Go",20]'), /out of order/],
    ['another document count', (t: string) => t.replace('"count":30', '"count":29'), /counts 29 documents where/],
    ['another field', (t: string) => t.replace('"field":"data.l"', '"field":"data.t"'), /names the field/],
    ['not JSON', (t: string) => t.slice(0, 20), /is not JSON/],
    ['a count of zero', (t: string) => t.replace('["TS",10]', '["TS",10],["ZZ",0]'), /values\[2\]\[1\]/],
    ['an element that is missing', (t: string) => t.replace('["TS",10]', '["TS",10],[{},1,1]'), /key of the run/],
  ])('a tampered counts file (%s) is InvalidResponse naming it', async (_, tamper, message) => {
    const { store, docs, text, path } = await seeded();
    await store.put(path, tamper(await text(path)));
    const read = docs.facets(TYPE);
    await expect(read).rejects.toThrow(InvalidResponse);
    await expect(docs.facets(TYPE)).rejects.toThrow(message);
    await expect(docs.facets(TYPE)).rejects.toThrow(path);
  });

  it('the next write after a tampered counts file rebuilds the type: exact again', async () => {
    const { store, docs, text, path } = await seeded();
    await store.put(path, (await text(path)).replace('["Go",20]', '["Go",21]'));
    await docs.put(doc('o/new', { l: 'Rust' }));
    await assertIndexExact(store);
    const l = (await docs.facets(TYPE)).fields[0]!;
    expect(l.values.map((v) => [v.value, v.count])).toEqual([
      ['Go', 20],
      ['TS', 10],
      ['Rust', 1],
    ]);
  });

  it(`past ${COUNTS_CAP} distinct values: too-many, no partial list; a write keeps it so`, async () => {
    const { docs } = fresh(64 * 1024);
    await docs.putMany(
      Array.from({ length: COUNTS_CAP + 1 }, (_, i) => doc(`o/r${i}`, { l: `v${i}`, t: i % 2 })),
      { indexes: [{ ...TYPE, fields: ['data.l', 'data.t'] }] },
    );
    const r = await docs.facets(TYPE);
    expect(r.fields.map((f) => [f.field, f.state, f.values.length])).toEqual([
      ['data.l', 'too-many', 0],
      ['data.t', 'counted', 2],
    ]);
    await docs.delete(identity('o/r0'));
    const after = await docs.facets(TYPE);
    expect(after.fields[0]).toMatchObject({ state: 'too-many', moreThan: COUNTS_CAP, values: [] });
    expect(after.fields[1]!.values.map((v) => v.count)).toEqual([500, 500]);
  });

  it('an index written before counts: not-kept; the next write of a field adds its counts, from the run', async () => {
    const { store, docs } = await seeded();
    await store.commit([
      { op: 'delete', key: countsPath('g', 'repo', 'data.l') },
      { op: 'delete', key: countsPath('g', 'repo', 'data.t') },
    ]);
    expect((await docs.facets(TYPE)).fields.map((f) => f.state)).toEqual(['not-kept', 'not-kept']);
    // o/r1 keeps its topics: only data.l changes, so only its counts are added.
    await docs.put(doc('o/r1', { l: 'Rust', t: ['cli', 'web'] }));
    const after = await docs.facets(TYPE);
    expect(after.fields.map((f) => f.state)).toEqual(['counted', 'not-kept']);
    expect(after.fields[0]!.values.map((v) => [v.value, v.count])).toEqual([
      ['Go', 20],
      ['TS', 9], // o/r1 was TS
      ['Rust', 1],
    ]);
    await docs.put(doc('o/new', { l: 'Go' })); // an insert changes every field's counts
    await assertIndexExact(store);
    expect((await docs.facets(TYPE)).fields.map((f) => f.state)).toEqual(['counted', 'counted']);
  });

  it('dropping the index deletes the counts with it', async () => {
    const { store, docs, path } = await seeded();
    await docs.declareIndexes([{ ...TYPE, fields: [] }]);
    expect(await store.get(path)).toBeNull();
    expect((await store.list({ prefix: '_docdb/index/' })).entries).toEqual([]);
  });
});
