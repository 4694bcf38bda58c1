import { describe, expect, it } from 'vitest';
import { InvalidDocument } from '../../../src/core/errors.js';
import {
  certainCompare,
  compareStored,
  MAX_STORED_STRING_BYTES,
  MISSING,
  type Stored,
  storedValue,
  storeScalar,
  utf8Length,
} from '../../../src/document/indexes/values.js';

describe('indexed values', () => {
  it('orders every kind: missing < [] < null < false < true < numbers < strings, never mixing types', () => {
    const sorted: Stored[] = [MISSING, [], null, false, true, -1.5, 0, 2, 10, '', '10', '9', 'a', { cut: 'a' }, 'ab'];
    const shuffled = [...sorted].reverse();
    expect(shuffled.sort(compareStored)).toEqual(sorted);
    expect(compareStored(10, '9')).toBe(-1); // a number never compares by its digits against a string
  });

  it('compares strings by UTF-16 code unit', () => {
    expect(compareStored('\uFF61', '😀')).toBe(1); // U+FF61 > U+D83D (the high surrogate)
  });

  it('cuts strings over 256 UTF-8 bytes at a code point, and keeps shorter ones whole', () => {
    expect(storeScalar('x'.repeat(256))).toBe('x'.repeat(256));
    expect(storeScalar('x'.repeat(257))).toEqual({ cut: 'x'.repeat(256) });
    expect(storeScalar('é'.repeat(200))).toEqual({ cut: 'é'.repeat(128) });
    const cut = storeScalar(`a${'😀'.repeat(100)}`) as { cut: string };
    expect(cut.cut.isWellFormed()).toBe(true);
    expect(utf8Length(cut.cut)).toBe(253); // one more emoji would make 257
    expect(utf8Length(cut.cut)).toBeLessThanOrEqual(MAX_STORED_STRING_BYTES);
  });

  it('stores -0 as 0 (JSON writes both as 0)', () => {
    expect(Object.is(storeScalar(-0), 0)).toBe(true);
  });

  it('reads dotted paths, and an absent path as missing', () => {
    expect(storedValue('i', { a: { b: [1, 'x'] } }, 'data.a.b')).toEqual([1, 'x']);
    expect(storedValue('i', { a: [{ b: 1 }] }, 'data.a.b')).toBe(MISSING);
    expect(storedValue('i', { a: null }, 'data.a')).toBeNull();
    expect(storedValue('o/r', {}, 'id')).toBe('o/r');
  });

  it.each([
    [{ a: { b: 1 } }, 'got object'],
    [{ a: [1, [2]] }, 'an array with a non-scalar element'],
    [{ a: Array.from({ length: 33 }, (_, i) => i) }, 'at most 32 elements'],
  ])('refuses a value an index cannot hold, naming the document and field: %j', (data, text) => {
    try {
      storedValue('doc-1', data, 'data.a');
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidDocument);
      expect((e as InvalidDocument).data).toMatchObject({ field: 'data.a', id: 'doc-1' });
      expect((e as Error).message).toContain(text);
      expect((e as Error).message).toContain('"doc-1"');
    }
  });

  it('says when a cut prefix leaves an order undecided', () => {
    expect(certainCompare({ cut: 'ab' }, 'abc')).toBeUndefined();
    expect(certainCompare({ cut: 'ab' }, { cut: 'ab' })).toBeUndefined();
    expect(certainCompare({ cut: 'ab' }, 'ab')).toBe(1);
    expect(certainCompare({ cut: 'ab' }, 'b')).toBe(-1);
    expect(certainCompare({ cut: 'ab' }, 5)).toBe(1);
  });
});
