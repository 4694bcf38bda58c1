import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../../src/core/errors.js';
import { buildIndex } from '../../../src/document/indexes/build.js';
import { evaluate } from '../../../src/document/indexes/evaluate.js';
import { parsePart } from '../../../src/document/indexes/format.js';
import { planQuery } from '../../../src/document/indexes/plan.js';
import { decodeCursor, type IndexQuery, validateQuery } from '../../../src/document/indexes/query.js';
import { doc, manifestOf } from './helpers.js';

const base = { namespace: 'g', type: 'repo' };

function invalid(q: unknown): InvalidConfig {
  try {
    validateQuery(q);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidConfig);
    return e as InvalidConfig;
  }
  throw new Error('accepted');
}

describe('query validation', () => {
  it.each([
    [{ where: [{ field: 'data.a', op: '~', value: 1 }] }, 'where[0].op', '=, in, <, <=, >, >=, exists, contains'],
    [{ where: [{ field: 'a', op: '=', value: 1 }] }, 'where[0].field', 'dotted path into data'],
    [{ where: [{ field: 'data.a', op: 'in', value: [] }] }, 'where[0].value', 'array of 1 to 100 JSON scalars'],
    [
      { where: [{ field: 'data.a', op: '>', value: true }] },
      'where[0].value',
      'a number within ±(2^53 − 1) or a string',
    ],
    [
      { where: [{ field: 'data.a', op: '=', value: 2 ** 53 }] },
      'where[0].value',
      'a JSON scalar (null, boolean, number within ±(2^53 − 1), or string)',
    ],
    [{ where: [{ field: 'data.a', op: 'exists', value: 'yes' }] }, 'where[0].value', 'true or false'],
    [{ where: [{ field: 'data.a', op: '=', value: { x: 1 } }] }, 'where[0].value', 'JSON scalar'],
    [{ orderBy: { field: 'stars' } }, 'orderBy.field', 'dotted path'],
    [{ fields: ['data.a', 7] }, 'fields[1]', 'dotted path'],
    [{ limit: 0 }, 'limit', 'limit 1..10000'],
    [{ sort: 'x' }, '(query)', 'unknown key(s) sort'],
  ])('names the field and what is allowed: %j', (extra, field, allowed) => {
    const e = invalid({ ...base, ...extra });
    expect(e.data.field).toBe(field);
    expect(e.message).toContain(field);
    expect(e.message).toContain(allowed);
  });
});

const decl = {
  version: 1 as const,
  indexes: [{ namespace: 'g', type: 'repo', fields: ['data.lang', 'data.stars', 'data.tags'] }],
};
const LANGS = ['C', 'Go', 'Rust', 'TypeScript'];
const docs = [
  ...Array.from({ length: 2000 }, (_, i) =>
    doc('g', 'repo', `r${String(i).padStart(4, '0')}`, {
      lang: LANGS[i % 4],
      stars: i,
      tags: i % 2 ? ['cli', 'web'] : [],
    }),
  ),
  doc('g', 'repo', 'str', { lang: 'Go', stars: '12' }), // a string, never compared with numbers
  doc('g', 'repo', 'none', { lang: null }),
];
const files = buildIndex(decl, docs, { maxPartBytes: 8 * 1024 });
const m = manifestOf(files, 'g', 'repo');

function run(q: IndexQuery, exact?: Map<string, unknown>) {
  const plan = planQuery(m, validateQuery(q));
  if (plan.kind !== 'index') throw new Error(plan.message);
  const fi = m.fields.indexOf(plan.field);
  const rows = plan.parts.flatMap((p) => parsePart(m, fi, p.index, files.get(p.path)!));
  return { plan, result: evaluate(m, q, rows, exact) };
}
const ids = (r: ReturnType<typeof run>) => (r.result.kind === 'rows' ? r.result.rows.map((x) => x.id) : r.result);

describe('planQuery', () => {
  it('reads few parts for a selective clause, choosing the narrowest', () => {
    expect(m.runs[1]!.parts.length).toBeGreaterThan(10);
    const { plan } = run({
      ...base,
      where: [
        { field: 'data.lang', op: '=', value: 'Go' },
        { field: 'data.stars', op: '=', value: 42 },
      ],
    });
    expect(plan).toMatchObject({ kind: 'index', field: 'data.stars' });
    expect(plan.kind === 'index' && plan.parts.length).toBe(1);
  });

  it('says which fields are not indexed, so the caller can fall back or refuse', () => {
    const plan = planQuery(
      m,
      validateQuery({ ...base, where: [{ field: 'data.name', op: '=', value: 'x' }], orderBy: { field: 'id' } }),
    );
    expect(plan).toEqual({
      kind: 'not-indexed',
      fields: ['data.name'],
      message: 'data.name is not indexed for g/repo (indexed: data.lang, data.stars, data.tags)',
    });
  });

  it('filters, orders and projects by an undeclared id from any run (every row carries it)', () => {
    const q = (extra: Partial<IndexQuery>): IndexQuery => ({ ...base, ...extra });
    const range = run(
      q({
        where: [
          { field: 'id', op: '>=', value: 'r1990' },
          { field: 'id', op: '<', value: 'r1994' },
        ],
        orderBy: { field: 'id', direction: 'desc' },
        fields: ['id', 'data.stars'],
      }),
    );
    expect(range.plan).toMatchObject({ kind: 'index', field: 'data.lang', inOrder: false });
    expect(range.result).toMatchObject({
      kind: 'rows',
      rows: [
        { id: 'r1993', values: { id: 'r1993', 'data.stars': 1993 } },
        { id: 'r1992' },
        { id: 'r1991' },
        { id: 'r1990' },
      ],
    });
    // The last rows of the type by id: what the table's End shows first (a page in reverse).
    const last = run(q({ orderBy: { field: 'id', direction: 'desc' }, limit: 2 }));
    expect(ids(last)).toEqual(['str', 'r1999']);
    const next = run(
      q({ orderBy: { field: 'id', direction: 'desc' }, limit: 2, cursor: (last.result as { cursor: string }).cursor }),
    );
    expect(ids(next)).toEqual(['r1998', 'r1997']);
    // With a clause on a declared field, that field's run is read and id is checked on its rows.
    const go = run(
      q({
        where: [
          { field: 'data.lang', op: '=', value: 'Go' },
          { field: 'id', op: 'in', value: ['r0001', 'r0002', 'str'] },
        ],
      }),
    );
    expect(ids(go)).toEqual(['r0001', 'str']);
  });

  it('marks a plan whose run order is the result order', () => {
    expect(run({ ...base, orderBy: { field: 'data.stars', direction: 'desc' }, limit: 3 }).plan).toMatchObject({
      inOrder: true,
    });
    expect(
      run({ ...base, where: [{ field: 'data.lang', op: '=', value: 'C' }], orderBy: { field: 'data.stars' } }).plan,
    ).toMatchObject({
      inOrder: false,
    });
  });
});

describe('evaluate', () => {
  it('compares JSON types without mixing: a numeric range never matches a string', () => {
    const r = run({ ...base, where: [{ field: 'data.stars', op: '>=', value: 1998 }] });
    expect(ids(r)).toEqual(['r1998', 'r1999']);
    expect(ids(run({ ...base, where: [{ field: 'data.stars', op: '=', value: '12' }] }))).toEqual(['str']);
  });

  it('answers exists (null exists, absence does not), in and contains', () => {
    expect(ids(run({ ...base, where: [{ field: 'data.stars', op: 'exists', value: false }] }))).toEqual(['none']);
    expect(ids(run({ ...base, where: [{ field: 'data.lang', op: '=', value: null }] }))).toEqual(['none']);
    expect(ids(run({ ...base, where: [{ field: 'data.stars', op: 'in', value: [3, 5, '12'] }] }))).toEqual([
      'r0003',
      'r0005',
      'str',
    ]);
    const web = run({
      ...base,
      where: [
        { field: 'data.tags', op: 'contains', value: 'web' },
        { field: 'data.stars', op: '<', value: 6 },
      ],
    });
    expect(ids(web)).toEqual(['r0001', 'r0003', 'r0005']);
    expect(ids(run({ ...base, where: [{ field: 'data.tags', op: '=', value: 'web' }] }))).toEqual([]); // = never matches an array
  });

  it('orders, pages with a cursor, and projects fields', () => {
    const q: IndexQuery = {
      ...base,
      where: [{ field: 'data.lang', op: '=', value: 'Rust' }],
      orderBy: { field: 'data.stars', direction: 'desc' },
      limit: 2,
      fields: ['data.stars'],
    };
    const first = run(q).result;
    expect(first).toMatchObject({
      kind: 'rows',
      rows: [{ id: 'r1998', values: { 'data.stars': 1998 } }, { id: 'r1994' }],
    });
    if (first.kind !== 'rows' || !first.cursor) throw new Error('no cursor');
    expect(Object.keys(first.rows[0]!.values)).toEqual(['data.stars']);
    expect(ids(run({ ...q, cursor: first.cursor }))).toEqual(['r1990', 'r1986']);
  });

  it('refuses a cursor that is damaged or was issued for another query', () => {
    const q: IndexQuery = { ...base, orderBy: { field: 'data.stars' }, limit: 1 };
    const r = run(q).result;
    if (r.kind !== 'rows' || !r.cursor) throw new Error('no cursor');
    expect(() => decodeCursor({ ...q, orderBy: { field: 'data.lang' } }, r.cursor!)).toThrow(
      /issued for another query/,
    );
    expect(() => decodeCursor(q, `${r.cursor}x`)).toThrow(InvalidConfig);
    expect(() => decodeCursor(q, btoa(JSON.stringify({ v: 1, q: 'x', s: { a: 1 }, i: 'r' })))).toThrow(
      /not a cursor docdb issued/,
    );
    expect(() => decodeCursor(q, 'a/b')).toThrow(/not a cursor docdb issued/);
  });

  it('asks for the document when a cut value leaves a clause undecided, then answers exactly', () => {
    const long = 'x'.repeat(300);
    const cutDocs = [doc('g', 'repo', 'a', { lang: `${long}1` }), doc('g', 'repo', 'b', { lang: `${long}2` })];
    const f = buildIndex(decl, cutDocs);
    const mm = manifestOf(f, 'g', 'repo');
    const rows = parsePart(mm, 0, 0, f.get('_docdb/index/g/repo/data.lang/0.jsonl')!);
    const q: IndexQuery = { ...base, where: [{ field: 'data.lang', op: '=', value: `${long}2` }] };
    const first = evaluate(mm, q, rows);
    expect(first).toEqual({
      kind: 'needs-documents',
      documents: cutDocs.map((d) => ({ id: d.id, blobSha: d.blobSha })),
    });
    const exact = new Map(cutDocs.map((d) => [d.id, d.data]));
    expect(evaluate(mm, q, rows, exact)).toMatchObject({
      kind: 'rows',
      rows: [{ id: 'b', values: { 'data.lang': `${long}2` } }],
    });
  });
});
