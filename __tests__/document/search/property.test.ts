/**
 * The search index against a brute-force scan (issue 42): random corpora built, then random sequences
 * of creates, updates, deletes and recreates applied through updateSearch with small shards (so shards
 * split and empty) — after every step, random queries (exact, prefix of the last word, typos) rank the
 * same documents in the same order with the same scores as the oracle, and as a fresh build.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSearch, type SearchDoc } from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 'doc', fields: ['data.title', 'data.body', 'id'] };
const opts = { maxShardBytes: 512 };

const WORDS = [
  'search',
  'searching',
  'seerch',
  'sea',
  'data',
  'database',
  'databases',
  'crème',
  'creme',
  'brûlée',
  'NAÏVE',
  'naive',
  'git',
  'gits',
  'ref',
  'refs',
  '東京',
  '東京タワー',
  '42',
  '3.14',
  'x',
  'ünïcödé',
  'straße',
  'strasse',
];
const word = fc.oneof(fc.constantFrom(...WORDS), fc.stringMatching(/^[a-e]{1,7}$/));
const sep = fc.constantFrom(' ', ', ', '—', ' 🎉 ', '-', '/', '\n');
const textOf = (words: number) =>
  fc.array(fc.tuple(word, sep), { maxLength: words }).map((parts) => parts.map(([w, s]) => w + s).join(''));
const dataOf = (words: number) =>
  fc.record({
    title: textOf(words),
    body: fc.oneof(
      textOf(words),
      fc.record({ a: textOf(words), n: fc.oneof(fc.integer(), fc.constant(Number.NaN)), ok: fc.boolean() }),
      fc.array(textOf(words), { maxLength: 3 }),
    ),
  });
/** Batches of 1 to `size` creates, updates or deletes over `ids` ids, texts of up to `words` words. */
const batchOf = (ids: number, words: number, size: number) => {
  const id = fc.constantFrom(...Array.from({ length: ids }, (_, i) => `doc-${i}`));
  const op = fc.oneof(
    fc.record({ id, data: dataOf(words).map((d) => d as unknown) }),
    fc.record({ id, data: fc.constant(undefined) }),
  );
  return fc.array(op, { minLength: 1, maxLength: size });
};

/** A query of 1 to 3 words from the corpus's words: as they are, cut (prefix) or with one typo. */
const query = fc.array(
  fc.tuple(word, fc.constantFrom('as-is', 'cut', 'typo')).map(([w, how]) => {
    if (how === 'cut') return w.slice(0, Math.max(1, w.length - 2));
    if (how === 'typo' && w.length >= 5) return `${w.slice(0, 3)}q${w.slice(4)}`;
    return w;
  }),
  { minLength: 1, maxLength: 3 },
);

function current(docs: Map<string, unknown>): SearchDoc[] {
  return [...docs].map(([i, d]) => ({ id: i, data: d }));
}

type Batch = { id: string; data: unknown }[];

/** Build from the first batch, apply the others one by one, compare after each; the most shards seen. */
function check(batches: Batch[], queries: string[][]): number {
  let most = 0;
  const docs = new Map<string, unknown>();
  const [first, ...rest] = batches;
  for (const o of first!) if (o.data !== undefined) docs.set(o.id, o.data);
  const files = buildSearch(t, current(docs), opts);
  for (const b of rest) {
    const changes = new Map<string, { id: string; before?: unknown; after?: unknown }>();
    for (const o of b) {
      const prev = changes.get(o.id);
      const before = prev ? prev.before : docs.get(o.id);
      changes.set(o.id, { id: o.id, before, after: o.data });
    }
    applyUpdate(files, t, [...changes.values()], opts);
    for (const c of changes.values()) {
      if (c.after === undefined) docs.delete(c.id);
      else docs.set(c.id, c.after);
    }
    const shards = [...files].filter(([p]) => p.includes('/terms/')).map(([, b]) => b);
    for (const bytes of shards) expect(bytes.length).toBeLessThanOrEqual(opts.maxShardBytes);
    most = Math.max(most, shards.length);
    const fresh = buildSearch(t, current(docs), opts);
    for (const q of queries) {
      if (q.join(' ').trim() === '' || q.every((w) => !/[\p{L}\p{N}]/u.test(w))) continue;
      const want = oracle(t, current(docs), q.join(' '));
      const got = searchIndex(files, t, q.join(' '));
      const problem = sameHits(got, want) ?? sameHits(searchIndex(fresh, t, q.join(' ')), want);
      if (problem) throw new Error(`${JSON.stringify(q)}: ${problem}`);
    }
  }
  return most;
}

describe('search index vs brute force', () => {
  const queries = fc.array(query, { minLength: 3, maxLength: 3 });

  it('stays exact through random writes and deletes (small documents)', () => {
    const batches = fc.array(batchOf(14, 12, 5), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(batches, queries, (b, q) => {
        check(b, q);
      }),
      { numRuns: 60 },
    );
  });

  it('stays exact while shards split and empty (larger documents, 512-byte shards)', () => {
    let most = 0;
    const batches = fc.array(batchOf(40, 40, 12), { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(batches, queries, (b, q) => {
        most = Math.max(most, check(b, q));
      }),
      { numRuns: 25 },
    );
    expect(most).toBeGreaterThan(2);
  });
});
