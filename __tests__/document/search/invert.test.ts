/**
 * The build's posting log (invert.ts) keeps frequencies in 16 bits, relying on a field's text being cut
 * at 100,000 characters (at most 50,000 tokens); and counts each term's postings as they are made.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/document/search/analyze.js';
import { MAX_FIELD_TEXT_CHARS } from '../../../src/document/search/index.js';
import { invertDocs, logCapacity } from '../../../src/document/search/invert.js';

const T = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };

describe('invertDocs', () => {
  it('keeps the largest frequency a field can have (one-letter words filling 100,000 characters)', () => {
    const full = 'a '.repeat(MAX_FIELD_TEXT_CHARS); // cut at 100,000 characters: 50,000 tokens
    const inv = invertDocs(T, [{ id: 'x', data: { title: 'b', body: full } }]);
    expect(inv.terms).toEqual(['a', 'b']);
    expect([...inv.tfs]).toEqual([0, 50_000, 1, 0]);
    expect(inv.lengths).toEqual([1, 50_000]);
  });

  it('groups postings by term in ordinal order, frequencies per field', () => {
    const docs = [
      { id: 'a', data: { title: 'to be', body: 'or not to be' } },
      { id: 'b', data: { title: 'not', body: 'be be' } },
      { id: 'c', data: { title: 'or', body: '' } },
    ];
    const inv = invertDocs(T, docs);
    expect(inv.terms).toEqual(['be', 'not', 'or', 'to']);
    expect([...inv.starts]).toEqual([0, 2, 4, 6, 7]);
    expect([...inv.ordinals]).toEqual([0, 1, 0, 1, 0, 2, 0]);
    expect([...inv.tfs]).toEqual([1, 1, 0, 2, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1]);
    expect(inv.docsPer).toEqual([3, 2]);
  });

  it('grows its log past the capacity it guessed from the text (one-letter words: a posting per 2 characters)', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
    const docs = Array.from({ length: 200 }, (_, i) => ({
      id: `d${String(i).padStart(3, '0')}`,
      data: { title: letters[i % 36]!, body: letters.slice(i % 7).join(' ') },
    }));
    const chars = docs.reduce((n, d) => n + d.data.title.length + d.data.body.length, 0);
    const inv = invertDocs(T, docs);
    expect(inv.ordinals.length).toBeGreaterThan(logCapacity(chars));
    // Against each document analyzed alone: every term's postings, in ordinal order, with their frequencies.
    const expected = new Map<string, number[]>();
    docs.forEach((d, o) => {
      for (const [term, tf] of analyze(T, d).terms) expected.set(term, [...(expected.get(term) ?? []), o, ...tf]);
    });
    expect(inv.terms).toEqual([...expected.keys()].sort());
    inv.terms.forEach((term, r) => {
      const got: number[] = [];
      for (let k = inv.starts[r]!; k < inv.starts[r + 1]!; k++)
        got.push(inv.ordinals[k]!, inv.tfs[2 * k]!, inv.tfs[2 * k + 1]!);
      expect(got, term).toEqual(expected.get(term));
    });
  });
});
