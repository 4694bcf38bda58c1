/**
 * The index core's two promises, checked on random inputs (fast-check):
 * 1. `updateIndex` applied batch after batch gives the same rows per field as `buildIndex` of the final
 *    documents, the same counts (the manifest's and each field's value counts), no orphan or missing files, and every part within the size bound
 *    (part splits may differ from a fresh build: that is allowed and intended).
 * 2. `evaluate` over the parts `planQuery` picks returns exactly what a brute-force filter and sort over
 *    the documents returns, page by page through cursors (with the documents supplied when it asks).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../../src/document/indexes/build.js';
import type { IndexDeclaration } from '../../../src/document/indexes/declaration.js';
import { evaluate } from '../../../src/document/indexes/evaluate.js';
import { parsePart } from '../../../src/document/indexes/format.js';
import { planQuery } from '../../../src/document/indexes/plan.js';
import { type IndexQuery, validateQuery } from '../../../src/document/indexes/query.js';
import { type IndexChange, updateIndex } from '../../../src/document/indexes/update.js';
import { apply, doc, lines, manifestOf, oracle, runRows } from './helpers.js';

const MAX = 700; // tiny parts: every batch splits, merges and deletes parts
const FIELDS = ['id', 'data.a', 'data.b', 'data.t', 'data.s.x'];
const LONG = 'é'.repeat(127); // 254 bytes

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('', 'a', 'ab', 'b', 'Z', '10', '9'),
  // Around the 256-byte cap: 255 and 256 bytes are stored whole, 257+ cut (several to the same prefix).
  fc.constantFrom(
    LONG,
    `${LONG}x`,
    `${LONG}xy`,
    `${LONG}xyz`,
    `${LONG}xyzw`,
    `${LONG}xyé`,
    `${LONG}éa`,
    `${LONG}éé`,
    `${LONG}y`,
  ),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }));
const data = fc.record(
  { a: value, b: scalar, t: fc.array(scalar, { maxLength: 3 }), s: fc.record({ x: scalar }, { requiredKeys: [] }) },
  { requiredKeys: [] },
);
const ids = fc.constantFrom('d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'o/x', 'o/y', 'Z', 'é');
const batch = fc.uniqueArray(fc.record({ id: ids, data: fc.option(data, { nil: undefined }) }), {
  selector: (o) => o.id,
  minLength: 1,
  maxLength: 4,
});
const declaration = fc
  .uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 3 })
  .map((fields): IndexDeclaration => ({ version: 1, indexes: [{ namespace: 'g', type: 'repo', fields }] }));

const opOf = fc.constantFrom('=', 'in', '<', '<=', '>', '>=', 'exists', 'contains');
function queryFor(fields: string[]) {
  const clause = fc.record({
    field: fc.constantFrom(...fields),
    op: opOf,
    v: scalar,
    more: fc.array(scalar, { minLength: 1, maxLength: 3 }),
  });
  return fc
    .record(
      {
        where: fc.array(clause, { maxLength: 2 }),
        orderBy: fc.record({
          field: fc.constantFrom(...fields),
          direction: fc.constantFrom('asc' as const, 'desc' as const),
        }),
        limit: fc.integer({ min: 1, max: 4 }),
        fields: fc.uniqueArray(fc.constantFrom(...fields), { minLength: 1 }),
      },
      { requiredKeys: ['where'] },
    )
    .map((r): IndexQuery | undefined => {
      const where = r.where.map((c) => {
        if (c.op === 'exists') return { field: c.field, op: c.op, value: typeof c.v === 'boolean' ? c.v : true };
        if (c.op === 'in') return { field: c.field, op: c.op, value: c.more };
        if (['<', '<=', '>', '>='].includes(c.op))
          return { field: c.field, op: c.op, value: typeof c.v === 'number' || typeof c.v === 'string' ? c.v : 0 };
        return { field: c.field, op: c.op, value: c.v };
      });
      return validateQuery({ namespace: 'g', type: 'repo', ...r, where } as IndexQuery);
    });
}

type Docs = Map<string, ReturnType<typeof doc>>;

/** Every page of `q` through its cursors, supplying documents whenever evaluate asks for them. */
function allPages(files: Map<string, Uint8Array>, docs: Docs, q: IndexQuery) {
  const m = manifestOf(files, 'g', 'repo');
  const plan = planQuery(m, q);
  if (plan.kind !== 'index') throw new Error(plan.message);
  const fi = m.fields.indexOf(plan.field);
  const rows = plan.parts.flatMap((p) => parsePart(m, fi, p.index, files.get(p.path)!));
  const out: { id: string; values: Record<string, unknown> }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const query = cursor === undefined ? q : { ...q, cursor };
    // Cut values may need documents: at most two rounds (the filter and order, then the fields of the
    // page those settle), each adding documents to what the next call gets.
    const exact = new Map<string, unknown>();
    let r = evaluate(m, query, rows);
    for (let round = 0; r.kind === 'needs-documents'; round++) {
      if (round === 2) throw new Error(`still needs documents after two rounds: ${JSON.stringify(r)}`);
      for (const d of r.documents) {
        expect(d.blobSha).toBe(docs.get(d.id)!.blobSha);
        exact.set(d.id, docs.get(d.id)!.data);
      }
      r = evaluate(m, query, rows, exact);
    }
    out.push(...r.rows.map((x) => ({ id: x.id, values: x.values })));
    if (r.cursor === undefined) return out;
    cursor = r.cursor;
  }
  throw new Error('too many pages');
}

describe('index core, random operations', () => {
  it('updateIndex, batch after batch, keeps the rows of buildIndex of the final documents, in bounded parts', () => {
    fc.assert(
      fc.property(declaration, fc.array(batch, { minLength: 1, maxLength: 6 }), (decl, batches) => {
        const t = decl.indexes[0]!;
        const files = buildIndex(decl, [], { maxPartBytes: MAX });
        const docs: Docs = new Map();
        for (const b of batches) {
          const changes: IndexChange[] = b.map(({ id, data: d }) => {
            const before = docs.get(id);
            const after = d === undefined ? undefined : doc('g', 'repo', id, d);
            if (after) docs.set(id, after);
            else docs.delete(id);
            return { namespace: 'g', type: 'repo', id, before, after };
          });
          const u = updateIndex(decl, (p) => files.get(p), changes, { maxPartBytes: MAX });
          expect(u.rebuild).toEqual([]);
          for (const p of u.readPaths) expect(files.has(p)).toBe(true);
          apply(files, u);
        }
        const fresh = buildIndex(decl, [...docs.values()], { maxPartBytes: MAX });
        const m = manifestOf(files, 'g', 'repo');
        const f = manifestOf(fresh, 'g', 'repo');
        expect(m.count).toBe(docs.size);
        expect(m.count).toBe(f.count);
        const listed = new Set([`_docdb/index/g/repo/manifest.json`]);
        t.fields.forEach((_, fi) => {
          const rows = runRows(files, m, fi);
          expect(lines(rows)).toEqual(lines(runRows(fresh, f, fi)));
          for (const p of m.runs[fi]!.parts) listed.add(`_docdb/index/g/repo/${m.fields[fi]}/${p.name}.jsonl`);
          // The value counts, kept from the rows each batch removed and added, equal a fresh count.
          const counts = `_docdb/index/g/repo/${m.fields[fi]}/counts.json`;
          listed.add(counts);
          expect(new TextDecoder().decode(files.get(counts))).toBe(new TextDecoder().decode(fresh.get(counts)));
        });
        expect([...files.keys()].sort()).toEqual([...listed].sort());
        for (const [p, bytes] of files) {
          if (p.endsWith('.jsonl') && bytes.length > MAX)
            expect(new TextDecoder().decode(bytes).split('\n').length).toBe(2);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('evaluate over the planned parts equals a brute-force filter and sort, through every page', () => {
    const setup = declaration.chain((decl) =>
      fc.tuple(
        fc.constant(decl),
        fc.uniqueArray(fc.record({ id: ids, data }), { selector: (d) => d.id, maxLength: 10 }),
        fc.array(queryFor(decl.indexes[0]!.fields), { minLength: 1, maxLength: 4 }),
      ),
    );
    fc.assert(
      fc.property(setup, ([decl, list, queries]) => {
        const docs: Docs = new Map(list.map((d) => [d.id, doc('g', 'repo', d.id, d.data)]));
        const files = buildIndex(decl, [...docs.values()], { maxPartBytes: MAX });
        for (const q of queries) {
          if (!q) continue;
          const want = oracle([...docs.values()], q, decl.indexes[0]!.fields);
          expect(allPages(files, docs, q)).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
  });
});
