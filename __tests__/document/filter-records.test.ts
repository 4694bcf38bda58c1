/**
 * `filterRecords` (the viewer's file tables): a query's `where` and `orderBy` over records in memory
 * answer exactly as `DocumentStore.query` does over the same documents (property-tested against the
 * library's own unindexed query), and a value an index cannot hold is refused as a query refuses it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidDocument } from '../../src/core/errors.js';
import { filterRecords } from '../../src/document/filter-records.js';
import { DocumentStore } from '../../src/document/index.js';
import type { WhereClause } from '../../src/document/indexes/query.js';
import { parseWhere } from '../../src/document/query-text.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

const rec = (id: string, data: unknown) => ({ id, data });
const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

describe('filterRecords', () => {
  const rows = [
    rec('1', { n: 10, s: 'Go', tags: ['a', 'b'] }),
    rec('2', { n: '10', s: 'Rust' }),
    rec('3', { n: 100, tags: ['b'] }),
    rec('4', { n: 9, s: 'Go', o: { deep: 1 } }),
  ];

  it('compares a number with numbers only, and orders desc with ties by id', () => {
    expect(ids(filterRecords(rows, [parseWhere('data.n>=10')]))).toEqual(['1', '3']);
    expect(ids(filterRecords(rows, [parseWhere('data.n="10"')]))).toEqual(['2']);
    expect(ids(filterRecords(rows, [parseWhere('data.s in Go,Rust')], { field: 'data.n', direction: 'desc' }))).toEqual(
      ['2', '1', '4'],
    );
    expect(ids(filterRecords(rows, [parseWhere('data.tags~b'), parseWhere('data.s absent')]))).toEqual(['3']);
  });

  it('a value an index cannot hold (an object) at a named field is InvalidDocument, as a query says', () => {
    expect(() => filterRecords(rows, [parseWhere('data.o exists')])).toThrow(InvalidDocument);
    expect(() => filterRecords(rows, [], { field: 'data.o', direction: 'asc' })).toThrow(InvalidDocument);
    expect(ids(filterRecords(rows, [parseWhere('data.s=Go')]))).toEqual(['1', '4']);
  });

  it('answers as DocumentStore.query does over the same documents', async () => {
    const value = fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.constantFrom('a', 'b', 'B', ''),
      fc.boolean(),
      fc.constant(null),
    );
    const data = fc.record(
      { x: value, y: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }) },
      { requiredKeys: [] },
    );
    const clause = fc.oneof(
      fc.record({
        field: fc.constantFrom('data.x'),
        op: fc.constantFrom('=', '<', '<=', '>', '>='),
        value: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'b')),
      }),
      fc.record({ field: fc.constant('data.y'), op: fc.constant('contains'), value: fc.constantFrom('a', 'b') }),
      fc.record({ field: fc.constantFrom('data.x', 'data.y'), op: fc.constant('exists'), value: fc.boolean() }),
    ) as fc.Arbitrary<WhereClause>;
    await fc.assert(
      fc.asyncProperty(
        fc.array(data, { minLength: 1, maxLength: 8 }),
        fc.array(clause, { maxLength: 2 }),
        fc.option(
          fc.record({
            field: fc.constantFrom('data.x', 'data.y', 'id'),
            direction: fc.constantFrom('asc' as const, 'desc' as const),
          }),
          { nil: undefined },
        ),
        async (datas, where, orderBy) => {
          const records = datas.map((d, i) => rec(`r${String(i).padStart(2, '0')}`, d));
          const docs = new DocumentStore(new MemoryRefStore());
          for (const r of records) await docs.put({ namespace: 'n', type: 't', id: r.id, data: r.data });
          const q = await docs.query({ namespace: 'n', type: 't', where, ...(orderBy ? { orderBy } : {}) });
          expect(ids(filterRecords(records, where, orderBy))).toEqual(q.rows.map((r) => r.id));
        },
      ),
      { numRuns: 60 },
    );
  });
});
