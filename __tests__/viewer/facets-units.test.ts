/**
 * The facets' pure part in Node (issue 40 item 7): counting values over rows (an array once per distinct
 * element, absent as a value of its own), the top values' order, and each value's clause — read back by
 * the library's own parser to the very value counted, whatever the value looks like.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWhere } from '../../src/browser/index.js';
import { countFacets, facetClause, facetCost, keptFacet, TOP_VALUES } from '../../src/viewer/table/facets.js';

describe('countFacets', () => {
  it('counts every row, arrays per distinct element, absent apart; top values by count then text', () => {
    const rows = [
      { id: 'a', values: { 'data.l': 'Go', 'data.t': ['x', 'x', 'y'] } },
      { id: 'b', values: { 'data.l': 'Rust', 'data.t': ['y'] } },
      { id: 'c', values: { 'data.l': 'Go' } },
      { id: 'd', values: { 'data.l': 10 } },
      { id: 'e', values: { 'data.l': '10' } },
    ];
    const f = countFacets(rows, ['data.l', 'data.t']);
    expect(f.total).toBe(5);
    expect(f.fields[0]!.top.map((v) => [v.value, v.count, v.clause])).toEqual([
      ['Go', 2, 'data.l=Go'],
      ['10', 1, 'data.l="10"'], // the string "10", not the number: never merged with 10
      ['Rust', 1, 'data.l=Rust'], // ties by JSON text: "Rust" (a quote first) before 10
      [10, 1, 'data.l=10'],
    ]);
    expect(f.fields[1]!.top.map((v) => [v.value, v.count, v.element, v.clause])).toEqual(
      [
        ['y', 2, true, 'data.t~y'],
        [undefined, 3, false, 'data.t absent'],
        ['x', 1, true, 'data.t~x'],
      ].sort((a, b) => (b[1] as number) - (a[1] as number)),
    );
  });

  it(`keeps the ${TOP_VALUES} most frequent values and says how many there are`, () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, values: { 'data.n': i % 25 } }));
    const [f] = countFacets(rows, ['data.n']).fields;
    expect(f!.distinct).toBe(25);
    expect(f!.top).toHaveLength(TOP_VALUES);
  });

  it('says what a whole run read costs without a token (the first part is read by the table)', () => {
    expect(facetCost(0)).toBe(1);
    expect(facetCost(5_000)).toBe(4);
    expect(facetCost(100_000)).toBe(99);
  });
});

describe('keptFacet (the counts the index keeps)', () => {
  const v = (value: unknown, count: number, o: { absent?: boolean; element?: boolean; cut?: boolean } = {}) => ({
    value,
    count,
    absent: o.absent ?? false,
    element: o.element ?? false,
    cut: o.cut ?? false,
  });

  it(`keeps the library's order, the first ${TOP_VALUES}, each with its clause; absent, elements and cut prefixes`, () => {
    const values = [
      v('cli', 9, { element: true }),
      v(undefined, 7, { absent: true }),
      v('x'.repeat(256), 5, { cut: true }),
      ...Array.from({ length: 20 }, (_, i) => v(i, 1)),
    ];
    const f = keptFacet({ field: 'data.t', state: 'counted', distinct: values.length, values });
    expect(f.distinct).toBe(23);
    expect(f.top).toHaveLength(TOP_VALUES);
    expect(f.top.slice(0, 4).map((t) => [t.value, t.count, t.element, t.clause, t.cut])).toEqual([
      ['cli', 9, true, 'data.t~cli', undefined],
      [undefined, 7, false, 'data.t absent', undefined],
      ['x'.repeat(256), 5, false, undefined, true], // a prefix of longer strings: no clause names them all
      [0, 1, false, 'data.t=0', undefined],
    ]);
  });

  it('a field with too many values: no top list, the limit said', () => {
    expect(keptFacet({ field: 'data.n', state: 'too-many', moreThan: 1000, values: [] })).toEqual({
      field: 'data.n',
      distinct: undefined,
      moreThan: 1000,
      top: [],
    });
  });
});

describe('facetClause', () => {
  it('reads back, through the library parser, as exactly the value counted', () => {
    const scalar = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
      fc.constantFrom(' x', 'a b', 'true', 'null', '"q"', '=b', '>=3', 'x,y', '[1]', '{}', ''),
    );
    fc.assert(
      fc.property(scalar, fc.boolean(), (value, element) => {
        const clause = facetClause('data.x', value, element) as string;
        const parsed = parseWhere(clause);
        expect(parsed.field).toBe('data.x');
        expect(parsed.op).toBe(element ? 'contains' : '=');
        expect(parsed.value).toEqual(value === 0 ? 0 : value);
      }),
      { numRuns: 500 },
    );
  });

  it('a number JSON has already rounded gets no clause (no filter could name it exactly)', () => {
    expect(facetClause('data.x', 9007199254740992, false)).toBeUndefined();
    expect(facetClause('data.x', -1e21, true)).toBeUndefined();
    expect(facetClause('data.x', Number.MAX_SAFE_INTEGER, false)).toBe('data.x=9007199254740991');
  });

  it('an absent value is the absent clause', () => {
    expect(parseWhere(facetClause('data.x', undefined, false) as string)).toEqual({
      field: 'data.x',
      op: 'exists',
      value: false,
    });
  });
});
