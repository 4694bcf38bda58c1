import { describe, expect, it } from 'vitest';
import { fieldText, MAX_FIELD_TEXT_CHARS, tokenize } from '../../../src/document/search/index.js';

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

  it('cuts the text at 100,000 characters', () => {
    expect(fieldText({ id: 'a', data: { t: 'x'.repeat(200_000) } }, 'data.t').length).toBe(MAX_FIELD_TEXT_CHARS);
  });
});
