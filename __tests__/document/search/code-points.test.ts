/**
 * Words outside the Basic Multilingual Plane (CJK Extension B, 𠀀 U+20000…: letters, unchanged by NFKD) are two
 * UTF-16 code units each. The search's length rules count code points, as docs/search.md says: a token is kept up
 * to 64 of them, and a word tolerates a typo from 5 of them — never from its length in code units.
 */
import { describe, expect, it } from 'vitest';
import { buildSearch, tokenize } from '../../../src/document/search/index.js';
import { oracle, sameHits, searchIndex } from './helpers.js';

/** `n` distinct astral letters from U+20000 on. */
const astral = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => String.fromCodePoint(0x20000 + from + i)).join('');

describe('length rules count code points, not UTF-16 units', () => {
  it('a run of 40 astral letters (80 code units) is one token; 64 are kept and 65 dropped', () => {
    expect(astral(1).length).toBe(2);
    expect(tokenize(`${astral(40)} ok`)).toEqual([astral(40), 'ok']);
    expect(tokenize(`${astral(64)} ok`)).toEqual([astral(64), 'ok']);
    expect(tokenize(`${astral(65)} ok`)).toEqual(['ok']);
  });

  it('a document holding a 40-letter astral word is found by it', () => {
    const t = { namespace: 'n', type: 't', fields: ['data.title'] };
    const docs = [
      { id: 'a', data: { title: `${astral(40)} first` } },
      { id: 'b', data: { title: 'second' } },
    ];
    const files = buildSearch(t, docs);
    expect(searchIndex(files, t, `${astral(40)} first`).map((h) => h.id)).toEqual(['a']);
  });

  it('a word of 3 astral letters (6 code units) matches no term one edit away; one of 5 does', () => {
    const t = { namespace: 'n', type: 't', fields: ['data.title'] };
    const three = astral(3);
    const threeTypo = `${astral(2)}${astral(1, 50)}`;
    const five = astral(5);
    const fiveTypo = `${astral(4)}${astral(1, 50)}`;
    const docs = [
      { id: 'exact3', data: { title: `${three} end` } },
      { id: 'typo3', data: { title: `${threeTypo} end` } },
      { id: 'exact5', data: { title: `${five} end` } },
      { id: 'typo5', data: { title: `${fiveTypo} end` } },
    ];
    const files = buildSearch(t, docs);
    // Not the last word, so no prefix match: exact, or a typo when the word is long enough.
    expect(searchIndex(files, t, `${three} end`).map((h) => h.id)).toEqual(['exact3']);
    expect(searchIndex(files, t, `${five} end`).map((h) => h.id)).toEqual(['exact5', 'typo5']);
    for (const q of [`${three} end`, `${five} end`]) {
      expect(sameHits(searchIndex(files, t, q), oracle(t, docs, q))).toBeNull();
    }
  });
});
