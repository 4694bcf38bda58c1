import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldText, MAX_FIELD_TEXT_CHARS, MAX_TOKEN_CHARS, tokenize } from '../../../src/document/search/index.js';
import { TermTable } from '../../../src/document/search/terms.js';
import { codePoints } from '../../../src/document/search/text.js';

/** The tokenizer as it was before its ASCII fast path: the definition the fast path must agree with. */
function referenceTokenize(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '' && codePoints(t) <= MAX_TOKEN_CHARS);
}

describe('tokenize', () => {
  it('folds diacritics and case, splits on non letters/digits', () => {
    expect(tokenize('Crème Brûlée, 2× — NAÏVE!')).toEqual(['creme', 'brulee', '2', 'naive']);
    expect(tokenize("don't stop_me-now")).toEqual(['don', 't', 'stop', 'me', 'now']);
  });

  it('keeps CJK runs and drops emoji and punctuation', () => {
    expect(tokenize('東京 タワー 🎉 hello🎉world')).toEqual(['東京', 'タワー', 'hello', 'world']);
  });

  it('applies compatibility decomposition (NFKD)', () => {
    expect(tokenize('ﬁle ①')).toEqual(['file', '1']);
  });

  it('drops tokens longer than 64 code points', () => {
    expect(tokenize(`${'a'.repeat(64)} ${'b'.repeat(65)} ok`)).toEqual(['a'.repeat(64), 'ok']);
  });

  it('gives nothing for empty or separator-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ,.;— ')).toEqual([]);
  });
});

describe('tokenize on ASCII (the fast path)', () => {
  const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

  it('relies on NFKD and mark removal being no-ops on every ASCII character', () => {
    for (const ch of ascii) {
      expect(ch.normalize('NFKD')).toBe(ch);
      expect(/\p{M}/u.test(ch)).toBe(false);
    }
  });

  it('relies on the ASCII letters and digits being exactly [A-Za-z0-9], lower-cased to ASCII', () => {
    for (const ch of ascii) {
      expect(/[\p{L}\p{N}]/u.test(ch)).toBe(/[A-Za-z0-9]/.test(ch));
      expect(ch.toLowerCase().charCodeAt(0)).toBeLessThan(128);
    }
  });

  it('gives the tokens of the full Unicode path for any ASCII text', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('a'.repeat(64), 'B'.repeat(65), 'x9'.repeat(40)),
    );
    fc.assert(
      fc.property(fc.string({ unit }), (t) => {
        expect(tokenize(t)).toEqual(referenceTokenize(t));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the tokens of the full Unicode path for mixed text (the slow path)', () => {
    const part = fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom('Crème ', 'ﬁ', '①', 'ǅ', '🎉'));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const t = parts.join('');
        expect(tokenize(t)).toEqual(referenceTokenize(t));
      }),
      { numRuns: 500 },
    );
  });
});

describe('fieldText', () => {
  const doc = {
    id: 'Doc-1',
    data: { title: 'Hi', n: 3, body: { a: ['x', { b: 'y' }], ok: true, no: null, inf: 1 / 0 } },
  };

  it('joins string and finite number leaves depth-first in key order', () => {
    expect(fieldText(doc, 'data.body')).toBe('x y');
    expect(fieldText({ ...doc, data: { ...doc.data, body: { inf: Number.NaN } } }, 'data.body')).toBe('');
    expect(fieldText(doc, 'data.n')).toBe('3');
    expect(fieldText(doc, 'id')).toBe('Doc-1');
  });

  it('is empty for a missing path and walks arrays on the way down', () => {
    expect(fieldText(doc, 'data.missing.x')).toBe('');
    expect(fieldText({ id: 'a', data: { authors: [{ name: 'Ann' }, { name: 'Bo' }] } }, 'data.authors.name')).toBe(
      'Ann Bo',
    );
  });

  it("reads a string met through objects alone as the general walk does (the build's usual field)", () => {
    const d = { id: 'a', data: { post: { title: 'Deep title', n: 'x' }, s: 'top' } };
    expect(fieldText(d, 'data.post.title')).toBe('Deep title');
    expect(fieldText(d, 'data.s')).toBe('top');
    expect(fieldText({ id: 'a', data: 'whole' }, 'data')).toBe('whole');
    // Past a string, inherited keys and arrays on the way: the general walk's answers.
    expect(fieldText(d, 'data.s.length')).toBe('');
    expect(fieldText(d, 'data.post.toString')).toBe('');
    expect(fieldText({ id: 'a', data: { list: [{ t: 'one' }, { t: 'two' }] } }, 'data.list.t')).toBe('one two');
    expect(fieldText({ id: 'a', data: { t: 'y'.repeat(150_000) } }, 'data.t')).toBe('y'.repeat(MAX_FIELD_TEXT_CHARS));
  });

  it('cuts the text at 100,000 characters', () => {
    expect(fieldText({ id: 'a', data: { t: 'x'.repeat(200_000) } }, 'data.t').length).toBe(MAX_FIELD_TEXT_CHARS);
  });
});

describe('TermTable.scan (the build reads text in place)', () => {
  it('gives the ids of tokenize’s tokens, a term the same id wherever it is met', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('É', 'ﬁ', '東', '🎉', 'a'.repeat(64), 'B'.repeat(65)),
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 40 }), { maxLength: 8 }), (texts) => {
        const table = new TermTable();
        for (const text of texts) {
          const n = table.scan(text);
          expect([...table.ids.subarray(0, n)].map((id) => table.terms[id])).toEqual(tokenize(text));
        }
        expect(new Set(table.terms).size).toBe(table.terms.length);
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its first buffer, pool and slots', () => {
    const table = new TermTable();
    const words = Array.from({ length: 70_000 }, (_, i) => `W${i.toString(36)}x`);
    const n = table.scan(words.join(' '));
    expect(n).toBe(70_000); // past the 16,384 ids of the first buffer
    expect(table.terms.length).toBe(70_000);
    expect(table.terms[table.ids[69_999]!]).toBe(words[69_999]!.toLowerCase());
    expect(table.scan(`${words[12_345]} ${words[0]}`)).toBe(2);
    expect([...table.ids.subarray(0, 2)]).toEqual([12_345, 0]);
  });
});
