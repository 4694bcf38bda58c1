import { describe, expect, it } from 'vitest';
import { changedFields, jsonEqual, MAX_DEPTH, shownValue, VALUE_CHARS } from '../../src/review/field-diff.js';

const paths = (a: unknown, b: unknown) => changedFields(a, b).map((c) => c.path);

describe('changedFields', () => {
  it('recurses into objects on both sides and names the leaf that changed', () => {
    expect(paths({ owner: { login: 'a', id: 1 } }, { owner: { login: 'b', id: 1 } })).toEqual(['data.owner.login']);
  });

  it('compares arrays whole: one change for the array, not one per element', () => {
    const c = changedFields({ topics: ['a', 'b', 'c'] }, { topics: ['a', 'x', 'y'] });
    expect(c).toEqual([{ path: 'data.topics', before: ['a', 'b', 'c'], after: ['a', 'x', 'y'] }]);
    expect(paths({ list: [{ a: 1 }] }, { list: [{ a: 1 }] })).toEqual([]);
  });

  it('names added and removed fields, with the absent side undefined', () => {
    const c = changedFields({ gone: 1, kept: 2 }, { kept: 2, fresh: { x: 1 } });
    expect(c).toEqual([
      { path: 'data.fresh', before: undefined, after: { x: 1 } },
      { path: 'data.gone', before: 1, after: undefined },
    ]);
  });

  it('an object becoming a scalar (or the data becoming null) is one change at that path', () => {
    expect(paths({ a: { b: 1 } }, { a: 2 })).toEqual(['data.a']);
    expect(paths({ a: 1 }, null)).toEqual(['data']);
  });

  it('ignores key order, and quotes names that are not identifiers', () => {
    expect(paths({ a: 1, b: 2 }, { b: 2, a: 1 })).toEqual([]);
    expect(paths({ 'x.y': 1, 'a b': 1 }, { 'x.y': 2, 'a b': 2 })).toEqual(['data["a b"]', 'data["x.y"]']);
  });

  it('stops recursing at MAX_DEPTH and compares the rest whole (no stack overflow on deep data)', () => {
    const deep = (n: number, leaf: unknown): unknown => {
      let v: unknown = leaf;
      for (let i = 0; i < n; i++) v = { d: v };
      return v;
    };
    const c = changedFields(deep(100_000, 1), deep(100_000, 2));
    expect(c).toHaveLength(1);
    expect(c[0]?.path).toBe(`data${'.d'.repeat(MAX_DEPTH)}`);
  });
});

describe('jsonEqual', () => {
  it('is deep, order-insensitive for objects and order-sensitive for arrays', () => {
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
  });
});

describe('shownValue', () => {
  it('is JSON cut at 80 characters with the cut marked', () => {
    const v = shownValue('x'.repeat(200));
    expect(v).toHaveLength(VALUE_CHARS);
    expect(v.endsWith('…')).toBe(true);
    expect(shownValue({ a: 1 })).toBe('{"a":1}');
    expect(shownValue(undefined)).toBe('(absent)');
  });

  it('never cuts between the halves of a surrogate pair', () => {
    const v = shownValue(`${'x'.repeat(77)}😀😀`);
    expect(v).toBe(`"${'x'.repeat(77)}…`);
  });
});
