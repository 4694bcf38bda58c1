/**
 * The search index against a brute-force scan (issue 42): random corpora built, then random sequences
 * of creates, updates, deletes and recreates applied through updateSearch with small shards (so shards
 * split and empty, and the delta's parts fill and force merges) — after every step, random queries (exact, prefix of the last word, typos) rank the
 * same documents in the same order with the same scores as the oracle, and as a fresh build.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSearch, type SearchDoc, type SearchOptions } from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex } from './helpers.js';

const t = { namespace: 'n', type: 'doc', fields: ['data.title', 'data.body', 'id'] };
const small = { maxShardBytes: 512 };
/** Delta parts capped at their least: nearly every flush merges shards beyond its share. */
const tight = { maxShardBytes: 512, maxDeltaPartBytes: 512 };

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

interface Seen {
  /** Most shards at once. */
  shards: number;
  /** Steps after which the delta had parts. */
  parted: number;
  /** Writes that rewrote more term files than their share (a hard bound forced them). */
  forced: number;
}

/** Build from the first batch, apply the others one by one, compare after each; what the steps did. */
function check(batches: Batch[], queries: string[][], opts: SearchOptions & { maxShardBytes: number }): Seen {
  const seen: Seen = { shards: 0, parted: 0, forced: 0 };
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
    const before = [...files.keys()].filter((p) => p.includes('/terms/')).length;
    const r = applyUpdate(files, t, [...changes.values()], opts);
    const rewritten = [...r.value.writes.keys()].filter((p) => p.includes('/terms/')).length;
    if (rewritten > Math.max(1, Math.floor(0.05 * before))) seen.forced++;
    if ([...files.keys()].some((p) => p.includes('/delta/'))) seen.parted++;
    for (const c of changes.values()) {
      if (c.after === undefined) docs.delete(c.id);
      else docs.set(c.id, c.after);
    }
    const shards = [...files].filter(([p]) => p.includes('/terms/')).map(([, b]) => b);
    for (const bytes of shards) expect(bytes.length).toBeLessThanOrEqual(opts.maxShardBytes);
    seen.shards = Math.max(seen.shards, shards.length);
    const fresh = buildSearch(t, current(docs), opts);
    for (const q of queries) {
      if (q.join(' ').trim() === '' || q.every((w) => !/[\p{L}\p{N}]/u.test(w))) continue;
      const want = oracle(t, current(docs), q.join(' '));
      const got = searchIndex(files, t, q.join(' '));
      const problem = sameHits(got, want) ?? sameHits(searchIndex(fresh, t, q.join(' ')), want);
      if (problem) throw new Error(`${JSON.stringify(q)}: ${problem}`);
    }
  }
  return seen;
}

describe('search index vs brute force', () => {
  const queries = fc.array(query, { minLength: 3, maxLength: 3 });

  it('stays exact through random writes and deletes (small documents)', () => {
    const batches = fc.array(batchOf(14, 12, 5), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(batches, queries, (b, q) => {
        check(b, q, small);
      }),
      { numRuns: 60 },
    );
  });

  it('stays exact while shards split and empty and the delta has parts (larger documents, 512-byte shards)', () => {
    const seen: Seen = { shards: 0, parted: 0, forced: 0 };
    const batches = fc.array(batchOf(40, 40, 12), { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(batches, queries, (b, q) => {
        const s = check(b, q, small);
        seen.shards = Math.max(seen.shards, s.shards);
        seen.parted += s.parted;
      }),
      { numRuns: 25 },
    );
    expect(seen.shards).toBeGreaterThan(2);
    expect(seen.parted).toBeGreaterThan(10);
  });

  it('stays exact when full delta parts force merges beyond the 5 % share', () => {
    const seen: Seen = { shards: 0, parted: 0, forced: 0 };
    const batches = fc.array(batchOf(40, 40, 12), { minLength: 3, maxLength: 6 });
    fc.assert(
      fc.property(batches, queries, (b, q) => {
        const s = check(b, q, tight);
        seen.parted += s.parted;
        seen.forced += s.forced;
      }),
      { numRuns: 25 },
    );
    expect(seen.parted).toBeGreaterThan(10);
    expect(seen.forced).toBeGreaterThan(5);
  });
});
