/**
 * Terms of characters past the Basic Multilingual Plane (CJK Extension B: letters NFKD leaves as they are)
 * are two UTF-16 code units each; neighbouring terms often share the high one. A shard's front coding must
 * never split such a pair, or the suffix it writes is not UTF-8 and the shard reads back as damage.
 */
import { describe, expect, it } from 'vitest';
import { buildSearch } from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 't', fields: ['data.title'] };

describe('terms beyond the BMP', () => {
  it('sharing a high surrogate are stored, found and updated', () => {
    // U+20000 … U+20003: the same high surrogate (0xD840), four low ones.
    const chars = ['\u{20000}', '\u{20001}', '\u{20002}', '\u{20003}'];
    const docs = chars.map((c, i) => ({ id: `d${i}`, data: { title: `${c} ${chars[(i + 1) % 4]}x word` } }));
    const files = buildSearch(t, docs);
    for (const q of [...chars, `${chars[1]}x`, 'word']) {
      expect(sameHits(searchIndex(files, t, q), oracle(t, docs, q)), q).toBeNull();
    }
    // The last word is also a prefix: the term alone, and the term followed by "x".
    expect(
      searchIndex(files, t, chars[2]!)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['d1', 'd2']);
    // Through the delta too (its lines are front coded alike).
    applyUpdate(files, t, [{ id: 'd0', before: docs[0]!.data, after: { title: `${chars[3]} ${chars[2]}y` } }]);
    const now = [{ id: 'd0', data: { title: `${chars[3]} ${chars[2]}y` } }, ...docs.slice(1)];
    for (const q of [...chars, `${chars[2]}y`])
      expect(sameHits(searchIndex(files, t, q), oracle(t, now, q)), q).toBeNull();
  });
});
