import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../../src/core/errors.js';
import {
  buildSearch,
  parseSearchText,
  rankedPage,
  rankFirstPaths,
  rankSearch,
  searchManifestPath,
} from '../../../src/document/search/index.js';
import { applyUpdate, oracle, sameHits, searchIndex, withFetches } from './helpers.js';

const t = { namespace: 'github', type: 'repo', fields: ['data.title', 'data.body'] };
const docs = [
  { id: 'a', data: { title: 'Git database', body: 'A document database on one git ref' } },
  { id: 'b', data: { title: 'Search engine', body: 'BM25 ranking with prefix and typo matching' } },
  { id: 'c', data: { title: 'Crème brûlée', body: 'A dessert; not a database' } },
  { id: 'd', data: { title: 'Databases', body: 'Indexes, search and the git database' } },
];

describe('rankSearch', () => {
  const files = buildSearch(t, docs);

  it('ranks like the brute-force oracle for exact, prefix, typo and folded words', () => {
    for (const q of ['database', 'git data', 'serach', 'creme BRULEE', 'dat', 'databse', 'a', 'search typo']) {
      const got = searchIndex(files, t, q);
      expect(sameHits(got, oracle(t, docs, q)), q).toBeNull();
    }
    expect(searchIndex(files, t, 'git data').map((h) => h.id)).toEqual(['a', 'd']);
    expect(searchIndex(files, t, 'creme').map((h) => h.id)).toEqual(['c']);
  });

  it('requires every word and reports the matched fields', () => {
    expect(searchIndex(files, t, 'dessert git')).toEqual([]);
    const [hit] = searchIndex(files, t, 'dessert');
    expect(hit!.fields).toEqual(['data.body']);
  });

  it('weighs an exact match above a prefix and a typo match', () => {
    const exact = searchIndex(files, t, 'search')[0]!.score;
    const near = [
      { id: 'x', data: { title: 'searching', body: '' } },
      { id: 'y', data: { title: 'saerch', body: '' } },
    ];
    expect(exact).toBeGreaterThan(0);
    const mixed = buildSearch(t, [...docs, ...near]);
    const hits = searchIndex(mixed, t, 'search');
    expect(hits.map((h) => h.id)).toContain('x');
    expect(sameHits(hits, oracle(t, [...docs, ...near], 'search'))).toBeNull();
  });

  it('asks for the manifest, then exactly the shards of the words in one round', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      id: `d${i}`,
      data: { title: `title${i % 37} word${i}`, body: `alpha${i % 11} beta${i % 13} gamma zeta${i}` },
    }));
    const big = buildSearch(t, many, { maxShardBytes: 512 });
    const shards = [...big.keys()].filter((p) => p.includes('/terms/'));
    expect(shards.length).toBeGreaterThan(10);
    const q = parseSearchText('gamma');
    const { rounds } = withFetches(big, (read) => rankSearch(t, q, read));
    expect(rounds[0]).toEqual([searchManifestPath('github', 'repo')]);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).toEqual(rankFirstPaths(t, q, big.get(searchManifestPath('github', 'repo'))!));
    // 'gamma' (5 letters: typo tolerant) reads the range of "ga", a few shards of many.
    expect(rounds[1]!.length).toBeLessThanOrEqual(3);
    expect(rounds[1]!.length).toBeLessThan(shards.length / 4);
    expect(sameHits(searchIndex(big, t, 'gamma zeta1'), oracle(t, many, 'gamma zeta1'))).toBeNull();
  });

  it('refuses a query without words or with more than 32', () => {
    expect(() => parseSearchText(' -- ')).toThrow(InvalidConfig);
    expect(() => parseSearchText(42)).toThrow(InvalidConfig);
    expect(() => parseSearchText(Array(33).fill('w').join(' '))).toThrow(/at most 32/);
    expect(parseSearchText(Array(32).fill('w').join(' ')).words).toHaveLength(32);
  });
});

describe('rankedPage', () => {
  it('orders ties by id across page edges and reads only the page and its ties', () => {
    // Five identical titles tie at the top (a rare title term outweighs a common body term); ordinals
    // follow ids at build, so the tie spans table parts 0 ('a', 'b', 'k', 'm') and 2 ('z').
    const same = ['m', 'b', 'z', 'a', 'k'].map((id) => ({ id, data: { title: 'tie', body: '' } }));
    const other = Array.from({ length: 600 }, (_, i) => ({
      id: `o${i}`,
      data: { title: 'x', body: 'tie and more words' },
    }));
    const files = buildSearch(t, [...same, ...other]);
    // 'c', created later, gets the last ordinal: by ordinal the tie reads a b k m z c, by id a b c k m z.
    const c = { id: 'c', data: { title: 'tie', body: '' } };
    applyUpdate(files, t, [{ id: 'c', after: c.data }]);
    const q = parseSearchText('tie');
    const ranked = withFetches(files, (read) => rankSearch(t, q, read)).value;
    const all = oracle(t, [...same, c, ...other], 'tie').map((h) => h.id);
    expect(all.slice(0, 6)).toEqual(['a', 'b', 'c', 'k', 'm', 'z']);
    const { value, rounds } = withFetches(files, (read) => rankedPage(t, ranked.hits, 1, 2, read));
    expect(value.map((h) => h.id)).toEqual(all.slice(1, 3));
    expect(rounds.flat().filter((p) => p.includes('/table/')).length).toBeLessThan(3);
    const last = withFetches(files, (read) => rankedPage(t, ranked.hits, all.length - 3, 10, read)).value;
    expect(last.map((h) => h.id)).toEqual(all.slice(-3));
    expect(withFetches(files, (read) => rankedPage(t, ranked.hits, all.length, 10, read)).value).toEqual([]);
  });
});
