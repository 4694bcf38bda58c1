/**
 * The build's posting log (invert.ts) keeps frequencies in 16 bits, relying on a field's text being cut
 * at 100,000 characters (at most 50,000 tokens); and counts each term's postings as they are made.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FIELD_TEXT_CHARS } from '../../../src/document/search/index.js';
import { invertDocs } from '../../../src/document/search/invert.js';

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
});
