/**
 * The table's pure modules in Node: columns from an index or a sample, cell text, the text filter, the
 * filter form's clause text (read back by the library's parser), and the downloads' CSV (RFC 4180, the
 * CLI's field writer, formulas made inert) and JSON.
 */
import { describe, expect, it } from 'vitest';
import { parseWhere } from '../../src/browser/index.js';
import {
  cellText,
  fieldValue,
  indexColumns,
  MAX_CELL_CHARS,
  rowOf,
  sampleColumns,
  textFilter,
} from '../../src/viewer/table/cells.js';
import { clauseText, FILTER_OPERATORS } from '../../src/viewer/table/controls.js';
import { inertCell, toCsv, toJson } from '../../src/viewer/table/export.js';

describe('table columns and cells', () => {
  it('an index gives id first, then its fields in declaration order', () => {
    expect(indexColumns(['data.stars', 'id', 'data.language'])).toEqual(['id', 'data.stars', 'data.language']);
  });

  it('a sample gives leaf paths two levels deep in first-seen order, bounded', () => {
    expect(
      sampleColumns([
        { a: 1, o: { b: { deep: 1 }, c: [1] } },
        { a: 2, z: null, 'x.y': 1, '': 2 },
      ]),
    ).toEqual(['id', 'data.a', 'data.o.b', 'data.o.c', 'data.z']);
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    expect(sampleColumns([wide])).toHaveLength(12);
    expect(sampleColumns([7])).toEqual(['id', 'data']);
  });

  it('reads a field of a document without following inherited keys', () => {
    expect(fieldValue('a', { o: { b: 2 } }, 'data.o.b')).toBe(2);
    expect(fieldValue('a', { o: {} }, 'data.o.toString')).toBeUndefined();
    expect(fieldValue('a', null, 'data.x')).toBeUndefined();
    expect(rowOf({ id: 'a', data: { s: 1 } }, ['id', 'data.s', 'data.t'])).toEqual({
      id: 'a',
      values: { 'data.s': 1 },
    });
  });

  it('cell text: strings as they are, the rest as JSON, absent empty, long text cut', () => {
    expect(cellText('<b>x</b>')).toBe('<b>x</b>');
    expect(cellText({ a: [1] })).toBe('{"a":[1]}');
    expect(cellText(null)).toBe('null');
    expect(cellText(undefined)).toBe('');
    expect(cellText('x'.repeat(500))).toHaveLength(MAX_CELL_CHARS);
  });

  it('the text filter matches any cell case-insensitively, JSON text included', () => {
    const rows = [
      { id: 'octo/a', values: { 'data.t': ['CLI', 'x'] } },
      { id: 'octo/b', values: { 'data.t': 'web' } },
    ];
    expect(textFilter(rows, ['id', 'data.t'], 'cli').map((r) => r.id)).toEqual(['octo/a']);
    expect(textFilter(rows, ['id', 'data.t'], ' OCTO/B ').map((r) => r.id)).toEqual(['octo/b']);
    expect(textFilter(rows, ['id'], '')).toHaveLength(2);
  });
});

describe('filter form clauses', () => {
  it('every operator the form offers writes a clause the library parses', () => {
    for (const { op, takesValue } of FILTER_OPERATORS) {
      const text = clauseText('data.language', op, takesValue ? (op === ' in ' ? 'Go,Rust' : 'Go') : 'ignored');
      expect(() => parseWhere(text)).not.toThrow();
    }
    expect(parseWhere(clauseText('data.stars', '>=', ' 10 '))).toEqual({ field: 'data.stars', op: '>=', value: 10 });
    expect(parseWhere(clauseText('data.x', ' absent', 'v'))).toEqual({ field: 'data.x', op: 'exists', value: false });
  });
});

describe('downloads', () => {
  const columns = ['id', 'data.n', 'data.s', 'data.o'];
  const rows = [
    { id: 'a,1', values: { 'data.n': -5, 'data.s': 'say "hi"\nthere', 'data.o': { k: [1, 'x'] } } },
    { id: 'b', values: { 'data.s': '=1+2' } },
    { id: 'c', values: { 'data.s': '@SUM(A1)', 'data.n': 0 } },
    { id: '-d', values: { 'data.s': '+x' } },
    // TAB and CR: some spreadsheets drop them and run the formula behind them.
    { id: '\te', values: { 'data.s': '\r=1+2' } },
  ];

  it('CSV: RFC 4180 quoting, JSON text for objects, CRLF, formulas made inert, numbers left as numbers', () => {
    expect(toCsv(columns, rows)).toBe(
      [
        'id,data.n,data.s,data.o',
        '"a,1",-5,"say ""hi""\nthere","{""k"":[1,""x""]}"',
        "b,,'=1+2,",
        "c,0,'@SUM(A1),",
        "'-d,,'+x,",
        `'\te,,"'\r=1+2",`,
        '',
      ].join('\r\n'),
    );
  });

  it("inertCell changes only strings that start like a formula: OWASP's =, +, -, @, TAB and CR", () => {
    expect(['=a', '+a', '-a', '@a', '\t=a', '\r=a', '\ta', 'a=', ' =a', 'a\t', -1, null].map(inertCell)).toEqual([
      "'=a",
      "'+a",
      "'-a",
      "'@a",
      "'\t=a",
      "'\r=a",
      "'\ta",
      'a=',
      ' =a',
      'a\t',
      -1,
      null,
    ]);
  });

  it('JSON: one object per row keyed by column, absent values left out', () => {
    expect(JSON.parse(toJson(columns, rows))).toEqual([
      { id: 'a,1', 'data.n': -5, 'data.s': 'say "hi"\nthere', 'data.o': { k: [1, 'x'] } },
      { id: 'b', 'data.s': '=1+2' },
      { id: 'c', 'data.s': '@SUM(A1)', 'data.n': 0 },
      { id: '-d', 'data.s': '+x' },
      { id: '\te', 'data.s': '\r=1+2' },
    ]);
    expect(toJson(columns, [])).toBe('[]\n');
  });
});
