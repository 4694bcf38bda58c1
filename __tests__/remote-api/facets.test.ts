/**
 * Facets on the GitHub API store (issue 40 item 7): value counts kept exact by writes through the emulator
 * (a fast-check run of random writes and deletes, compared with counts from the documents), and what reading
 * them costs, counted at the emulator: without a token one contents request per field (the manifest read
 * with them), with a token one GraphQL request for every field — at a type whose runs have many parts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { storedValue } from '../../src/document/indexes/values.js';
import { emulatorPerFile, freshRepo, meteredTransport, newMeter, since, store } from './helpers.js';

const fx = emulatorPerFile({ unauthenticatedRateLimit: 1000 });
const TYPE = { namespace: 'g', type: 'repo' };
const FIELDS = ['data.l', 'data.t', 'data.n'];
const doc = (id: string, data: Record<string, unknown>) => ({ ...TYPE, id, data });

/** `element|stored JSON` → documents, from the documents alone. */
function expected(all: Map<string, Record<string, unknown>>, field: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, data] of all) {
    const v = storedValue(id, data, field);
    const keys =
      Array.isArray(v) && v.length > 0
        ? [...new Set(v.map((e) => `1|${JSON.stringify(e)}`))]
        : [`0|${JSON.stringify(v)}`];
    for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

async function answered(docs: DocumentStore, field: string): Promise<Record<string, number>> {
  const f = (await docs.facets({ ...TYPE, fields: [field] })).fields[0]!;
  expect(f.state).toBe('counted');
  return Object.fromEntries(
    f.values.map((v) => [`${v.element ? 1 : 0}|${JSON.stringify(v.absent ? {} : v.value)}`, v.count]),
  );
}

const value = fc.oneof(
  fc.constantFrom<unknown>('x', 'y', 1, null),
  fc.array(fc.constantFrom('x', 'z'), { maxLength: 2 }),
);
const data = fc.record({ l: value, t: value, n: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: ['n'] });
const id = fc.constantFrom('o/a', 'o/b', 'o/c', 'o/d');
const op = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), id, data }),
  fc.record({ kind: fc.constant('delete' as const), id }),
);

describe('facets on the GitHub API store', () => {
  it('random writes and deletes keep the counts equal to the documents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        const docs = new DocumentStore(store(fx.em, freshRepo(fx.em)), { index: { maxPartBytes: 200 } });
        await docs.declareIndexes([{ ...TYPE, fields: FIELDS }]);
        const all = new Map<string, Record<string, unknown>>();
        for (const o of ops) {
          if (o.kind === 'put') {
            await docs.put(doc(o.id, o.data));
            all.set(o.id, o.data);
          } else {
            await docs.delete({ namespace: 'g', doc_type: 'repo', id: o.id });
            all.delete(o.id);
          }
        }
        for (const f of FIELDS) expect(await answered(docs, f)).toEqual(expected(all, f));
      }),
      { numRuns: 4 },
    );
  }, 60_000);

  it('costs one request per field without a token, one GraphQL request with one', async () => {
    const N = 3000;
    const writer = new DocumentStore(store(fx.em, fx.repo), { index: { maxPartBytes: 16 * 1024 } });
    await writer.putMany(
      Array.from({ length: N }, (_, i) =>
        doc(`o/r${String(i).padStart(5, '0')}`, { l: ['Go', 'TS', 'Rust'][i % 3], t: i % 2 ? ['cli'] : [], n: i }),
      ),
      { indexes: [{ ...TYPE, fields: FIELDS }] },
    );
    const m = await writer.store.get('_docdb/index/g/repo/manifest.json');
    // Many parts per run: reading a run would cost far more than a request per field.
    expect(JSON.parse(new TextDecoder().decode(m!.value)).runs[0].parts.length).toBeGreaterThan(5);

    const anonymous = new DocumentStore(store(fx.em, fx.repo, { token: undefined }));
    let from = fx.em.requests.length;
    const r = await anonymous.facets(TYPE);
    const sent = since(fx.em, from);
    expect(sent.every((q) => !q.authenticated)).toBe(true);
    // The ref, the manifest, then each field's counts: 2 + 3.
    expect(sent.map((q) => `${q.method} ${q.path}`).filter((p) => p.includes('counts.json'))).toHaveLength(3);
    expect(sent.length, sent.map((q) => q.path).join('\n')).toBe(2 + FIELDS.length);
    expect(r.requests).toBe(sent.length);
    expect(r.typeCount).toBe(N);
    expect(r.fields.map((f) => [f.field, f.state, f.distinct])).toEqual([
      ['data.l', 'counted', 3],
      ['data.t', 'counted', 2],
      ['data.n', 'too-many', undefined],
    ]);
    expect(r.fields[1]!.values.map((v) => [v.value, v.element, v.count])).toEqual([
      [[], false, 1500], // a tie: in the index's value order, `[]` before strings
      ['cli', true, 1500],
    ]);
    // With the manifest already read (a table has read it), the fields alone: one request each.
    from = fx.em.requests.length;
    const fresh = new DocumentStore(store(fx.em, fx.repo, { token: undefined }));
    await fresh.query({ ...TYPE, where: [{ field: 'data.l', op: '=', value: 'Go' }], limit: 1, fields: ['data.l'] });
    const version = (await fresh.head())!;
    const afterQuery = fx.em.requests.length;
    await fresh.facets({ ...TYPE, fields: ['data.l', 'data.t'], version });
    expect(
      since(fx.em, afterQuery).length,
      since(fx.em, afterQuery)
        .map((q) => q.path)
        .join('\n'),
    ).toBe(2);
    expect(afterQuery).toBeGreaterThan(from);

    // With a token: the ref, then the manifest and every named field's counts in ONE GraphQL query; with
    // no field named, the manifest first (it names the fields), then the counts.
    const paths = (n: number) => since(fx.em, n).map((q) => `${q.method} ${q.path}`);
    from = fx.em.requests.length;
    await new DocumentStore(store(fx.em, fx.repo)).facets({ ...TYPE, fields: FIELDS });
    expect(paths(from)).toEqual([expect.stringMatching(/^GET .*\/git\/ref\/docdb\/documents$/), 'POST /graphql']);
    from = fx.em.requests.length;
    await new DocumentStore(store(fx.em, fx.repo)).facets(TYPE);
    expect(paths(from).slice(1)).toEqual(['POST /graphql', 'POST /graphql']);
  }, 120_000);

  it('an index written before counts: the next write adds them from one run read, once', async () => {
    const writer = new DocumentStore(store(fx.em, fx.repo), { index: { maxPartBytes: 16 * 1024 } });
    await writer.putMany(
      Array.from({ length: 3000 }, (_, i) => doc(`o/r${i}`, { l: ['Go', 'TS', 'Rust'][i % 3], n: i })),
      { indexes: [{ ...TYPE, fields: ['data.l', 'data.n'] }] },
    );
    // As an older docdb left it: no counts (a raw RefStore write bypasses indexes).
    await writer.store.commit(
      ['data.l', 'data.n'].map((f) => ({ op: 'delete' as const, key: `_docdb/index/g/repo/${f}/counts.json` })),
    );
    const first = newMeter();
    const docs = new DocumentStore(store(fx.em, fx.repo, { transport: meteredTransport(first) }), {
      index: { maxPartBytes: 16 * 1024 },
    });
    await docs.put(doc('o/new', { l: 'Go', n: -1 }));
    const later = newMeter();
    await new DocumentStore(store(fx.em, fx.repo, { transport: meteredTransport(later) }), {
      index: { maxPartBytes: 16 * 1024 },
    }).put(doc('o/new2', { l: 'Go', n: -2 }));
    // Once: one more request (the run, read whole in one GraphQL query) than a write that finds the counts.
    expect(later.requests).toBe(7);
    expect(first.requests).toBe(later.requests + 1);
    const r = await docs.facets(TYPE);
    expect(r.fields.map((f) => [f.field, f.state])).toEqual([
      ['data.l', 'counted'],
      ['data.n', 'too-many'],
    ]);
    expect(r.fields[0]!.values.map((v) => [v.value, v.count])).toEqual([
      ['Go', 1002],
      ['Rust', 1000],
      ['TS', 1000],
    ]);
  }, 120_000);
});
