/**
 * The build's term order (term-order.ts) sorts numeric keys made from the terms' first code units, then
 * compares the terms of a shared key; it must give exactly the code-unit order of a comparator sort.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prefixUnits, termOrder } from '../../../src/document/search/term-order.js';

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Distinct terms in code-unit order, by a comparator sort of the strings: the order term-order must give. */
function expected(terms: readonly string[]): number[] {
  return terms.map((_, id) => id).sort((a, b) => byCodeUnits(terms[a]!, terms[b]!));
}

function check(terms: readonly string[], units?: number): void {
  expect([...termOrder(terms, units)]).toEqual(expected(terms));
}

// Code units around the key's 7-bit cap (126, 127, 128), letters, digits, and beyond the BMP's start.
const unit = fc.constantFrom('a', 'b', 'z', '0', '9', '~', '\x7f', '\x80', 'é', 'ß', '東', 'タ', '\ud83c', '\udf89');
const term = fc.string({ unit, minLength: 1, maxLength: 7 });
const terms = fc.uniqueArray(term, { maxLength: 60 });

describe('termOrder', () => {
  it('gives the code-unit order of a comparator sort, for any key length', () => {
    fc.assert(
      fc.property(terms, fc.integer({ min: 0, max: 6 }), (ts, units) => check(ts, units)),
      { numRuns: 400 },
    );
  });

  it('gives it with the key length it picks itself', () => {
    fc.assert(
      fc.property(terms, (ts) => check(ts)),
      { numRuns: 200 },
    );
  });

  it('orders a prefix before the terms it starts, and units of 127 and above by their value', () => {
    check(['ab', 'a', 'abc', 'a\x7f', 'a\x80', 'a\x7fz', 'a\x80a', 'é', 'e', 'ea']);
    check(['\x80z', '\x81a', '\x7fz', '\x7f', '\x80']);
  });

  it('handles no terms and one term', () => {
    check([]);
    check(['solo']);
  });

  it('keeps keys and ids exact: as many units as fit beside the id in 53 bits', () => {
    expect(prefixUnits(16)).toBe(5);
    expect(prefixUnits(21)).toBe(4);
    expect(prefixUnits(53)).toBe(0);
    expect(prefixUnits(60)).toBe(0);
  });
});
