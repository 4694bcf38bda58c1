/**
 * The viewer's search modules in Node (issue 42): token spans that agree with the engine's tokenizer, the
 * engine's word-to-term rule for marking words, snippets around the first match, and the one ranked list
 * merged from several paged searches (checked against sorting every hit at once).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termWeight } from '../../src/document/search/match.js';
import { tokenize } from '../../src/document/search/text.js';
import { MergedSearch, type RankedItem, rankOrder, type ScopePage } from '../../src/viewer/search/merge.js';
import { searchCost } from '../../src/viewer/search/results.js';
import { snippet, tokenSpans } from '../../src/viewer/search/words.js';

const marked = (parts: { text: string; marked: boolean }[]) => parts.filter((p) => p.marked).map((p) => p.text);
const joined = (parts: { text: string }[]) => parts.map((p) => p.text).join('');

describe('token spans', () => {
  it('fold diacritics and case, and point back at the original text', () => {
    const text = 'Crème BRÛLÉE, naïve—2×';
    const spans = tokenSpans(text);
    expect(spans.map((s) => s.token)).toEqual(['creme', 'brulee', 'naive', '2']);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Crème', 'BRÛLÉE', 'naïve', '2']);
  });

  it('keep decomposed marks, astral letters and a final sigma inside their token', () => {
    const text = 'cafe\u0301 𝒳yz ΟΔΟΣ';
    const spans = tokenSpans(text);
    expect(spans.map((s) => s.token)).toEqual(tokenize(text));
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['cafe\u0301', '𝒳yz', 'ΟΔΟΣ']);
  });

  it('drop tokens over 64 code points, as the engine does', () => {
    const long = 'a'.repeat(65);
    expect(tokenSpans(`${long} ok`).map((s) => s.token)).toEqual(['ok']);
  });

  it('give the engine’s tokens for any text (fast-check)', () => {
    const piece = fc.constantFrom(
      'a',
      'Z',
      'é',
      'e\u0301',
      'Σ',
      'ß',
      'İ',
      'ﬁ',
      '½',
      '™',
      '𝒳',
      '١',
      ' ',
      '-',
      '.',
      '日本',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string()), { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(tokenSpans(text).map((s) => s.token)).toEqual(tokenize(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe('marked words follow the engine’s rule', () => {
  it('equal; the last word also as a prefix; one edit for 5+ characters keeping the first two', () => {
    expect(marked(snippet('git gitlab', ['git'], termWeight))).toEqual(['git', 'gitlab']);
    expect(marked(snippet('git gitlab', ['gi', 'x'], termWeight))).toEqual([]);
    expect(marked(snippet('search sarch serch saerch', ['seach'], termWeight))).toEqual(['search', 'serch']);
    expect(marked(snippet('search serch', ['searck', 'zzz'], termWeight))).toEqual(['search']);
    expect(marked(snippet('sea seac', ['seab', 'zzz'], termWeight))).toEqual([]);
  });
});

describe('snippets', () => {
  it('mark every matching word and keep the text whole when it is short', () => {
    const parts = snippet('A small Search engine; searching is fast', ['search'], termWeight);
    expect(joined(parts)).toBe('A small Search engine; searching is fast');
    expect(marked(parts)).toEqual(['Search', 'searching']);
  });

  it('only the last word matches as a prefix', () => {
    expect(marked(snippet('gitlab git github', ['git', 'hub'], termWeight))).toEqual(['git']);
    expect(marked(snippet('gitlab git github', ['hub', 'git'], termWeight))).toEqual(['gitlab', 'git', 'github']);
  });

  it('start a little before the first match in a long text, cut at spaces, with ellipses', () => {
    const before = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const after = Array.from({ length: 80 }, (_, i) => `z${i}`).join(' ');
    const text = `${before} needle ${after}`;
    const parts = snippet(text, ['needle'], termWeight);
    const shown = joined(parts);
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(marked(parts)).toEqual(['needle']);
    expect(shown.length).toBeLessThanOrEqual(182);
    // Whole words at both cuts.
    expect(shown.slice(1, -1).trim()).toMatch(/^w\d+ .* z\d+$/);
    expect(text.includes(shown.slice(1, -1))).toBe(true);
  });

  it('without a match, the start of the text unmarked', () => {
    const parts = snippet('nothing to see', ['absent'], termWeight);
    expect(joined(parts)).toBe('nothing to see');
    expect(marked(parts)).toEqual([]);
  });
});

/** A hit of a random search: a namespace, a type, an id and a score with many ties. */
const hitArb = fc.record({
  namespace: fc.constantFrom('a', 'b', 'c'),
  type: fc.constantFrom('x', 'y'),
  id: fc.string({ minLength: 1, maxLength: 3 }),
  score: fc.constantFrom(0.5, 1, 1.25, 2, 3.5),
});

/** A paged search over `hits` (already in rank order), `limit` a page, cursors as offsets. */
function pagedReader(scopes: RankedItem[][], limit: number, calls: string[]) {
  return async (i: number, cursor: string | undefined): Promise<ScopePage<RankedItem>> => {
    calls.push(`${i}:${cursor ?? ''}`);
    const all = scopes[i] as RankedItem[];
    const offset = cursor === undefined ? 0 : Number(cursor);
    const next = offset + limit < all.length ? String(offset + limit) : null;
    return { hits: all.slice(offset, offset + limit), total: all.length, nextCursor: next, requests: 2 };
  };
}

describe('one ranked list from several paged searches', () => {
  it('equals sorting every hit at once, page after page (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(hitArb, { selector: (h) => `${h.type}/${h.id}`, maxLength: 25 }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 9 }),
        async (raw, limit, pageSize) => {
          // Each scope is one namespace, ranked as the library ranks it.
          const scopes = raw.map((hits, i) => hits.map((h) => ({ ...h, namespace: `n${i}` })).sort(rankOrder));
          const calls: string[] = [];
          const merged = new MergedSearch(scopes.length, pagedReader(scopes, limit, calls), pageSize);
          const seen: RankedItem[] = [];
          for (let guard = 0; !merged.done && guard < 200; guard++) {
            const page = await merged.next();
            expect(page.length === pageSize || merged.done).toBe(true);
            seen.push(...page);
          }
          expect(merged.done).toBe(true);
          expect(seen).toEqual(scopes.flat().sort(rankOrder));
          expect(merged.total).toBe(seen.length);
          expect(merged.requests).toBe(calls.length * 2);
          // Each page of each scope is read once.
          expect(new Set(calls).size).toBe(calls.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads no further page than it needs for the hits shown', async () => {
    const a = Array.from({ length: 30 }, (_, i) => ({ namespace: 'a', type: 't', id: `a${i}`, score: 100 - i }));
    const b = Array.from({ length: 30 }, (_, i) => ({ namespace: 'b', type: 't', id: `b${i}`, score: 10 - i }));
    const calls: string[] = [];
    const merged = new MergedSearch(2, pagedReader([a, b], 10, calls), 10);
    expect((await merged.next()).map((h) => h.id)).toEqual(a.slice(0, 10).map((h) => h.id));
    // Both first pages (b's might hold better hits until read), and nothing more.
    expect(calls).toEqual(['0:', '1:']);
    await merged.next();
    expect(calls).toEqual(['0:', '1:', '0:10']);
    expect(merged.total).toBe(60);
  });

  it('stops on an empty page whatever cursor it carries (never loops)', async () => {
    let reads = 0;
    const merged = new MergedSearch(
      1,
      async () => {
        reads++;
        return { hits: [], total: 0, nextCursor: 'again' };
      },
      10,
    );
    expect(await merged.next()).toEqual([]);
    expect(merged.done).toBe(true);
    expect(reads).toBe(1);
  });
});

describe('what a search is weighed at before it reads', () => {
  it('a few requests per scope with a token; one more per hit without one', () => {
    expect(searchCost(1, true, 20)).toBe(4);
    expect(searchCost(2, true, 20)).toBe(8);
    expect(searchCost(1, false, 10)).toBe(14);
  });
});
