/**
 * The pieces of bench/search.ts that decide what it measures and how it reports: the seeded corpus, the
 * choice of query words (and its guard), and the table the docs quote (a refused write is shown as refused).
 */
import { describe, expect, it } from 'vitest';
import { benchQueries, corpusStats, searchData, searchDocs } from '../../bench/search-corpus.js';
import { type SearchSize, type SearchWriteRow, searchTable } from '../../bench/search-table.js';

describe('bench/search corpus', () => {
  it('is the same at every run, and another generation of a document has other words', () => {
    expect(searchData(17)).toEqual(searchData(17));
    expect(searchData(17, 1).body).not.toBe(searchData(17).body);
    const [d] = searchDocs(1);
    expect(d).toMatchObject({ namespace: 'bench', type: 'note', id: 'g0/note-0' });
    const words = `${d!.data.title} ${d!.data.body}`.split(/\W+/).filter(Boolean);
    expect(words.length).toBeGreaterThanOrEqual(76); // title 6..10 + body 70..90
  });

  it('picks a common word, a rare word of 6+ letters in 0.2–0.6 % of the documents, and a 3-letter prefix', () => {
    const stats = corpusStats(2000);
    const q = benchQueries(stats);
    expect(stats.df.get(q.common.text)).toBe(Math.max(...stats.df.values()));
    const rareDf = stats.df.get(q.rare.text)!;
    expect(q.rare.text.length).toBeGreaterThanOrEqual(6);
    expect(rareDf).toBeGreaterThanOrEqual(4);
    expect(rareDf).toBeLessThanOrEqual(12);
    expect(q.prefix.text).toHaveLength(3);
  });

  it('refuses a corpus without such words instead of measuring another query', () => {
    const df = new Map([
      ['ba', 100],
      ['lo', 3],
    ]);
    expect(() => benchQueries({ n: 100, textBytes: 500, df })).toThrow(/no rare or middle word among 2 terms/);
  });
});

describe('bench/search table', () => {
  const write = (w: Partial<SearchWriteRow>): SearchWriteRow => ({
    documents: 1,
    requests: 9,
    sent: 2048,
    shardsRewritten: 1,
    shards: 20,
    searchFiles: 2,
    ...w,
  });
  const size: SearchSize = {
    n: 10_000,
    textBytes: 1000,
    index: { bytes: 500, files: 3, shards: 20, largestShard: 2048, termBytes: 400, tableBytes: 100 },
    firstWrite: {
      runs: 3,
      plain: { requests: 10, cpuMs: 500, ms: 1, sent: 1 },
      search: { requests: 13, cpuMs: 2000, ms: 1, sent: 1 },
    },
    queries: [
      {
        kind: 'rare word',
        label: '',
        text: 'kato',
        auth: 'token',
        requests: 5,
        received: 300 * 1024,
        total: 60,
        hits: 20,
        ms: 1,
      },
    ],
    write100: write({ documents: 100, shardsRewritten: 20 }),
    put1: write({}),
    putAgain: write({ refused: 'the search index of bench/note would need 269 shards' }),
  };

  it('shows each figure beside its goal, and a refused write as refused', () => {
    const md = searchTable({ date: '', node: '', sizes: [size] });
    expect(md).toContain(
      '| one-word search, rare word, with a token | 5 req, 300 KB; `kato`: 60 found | ≤ 4, ≤ 300 KB |',
    );
    expect(md).toContain('(**50.0 %**; table and id buckets 10.0 %); 20 shards, largest 2 KB');
    expect(md).toContain('13 vs 10 requests (**1.30×**); client CPU 2.00 s vs 0.50 s (**4.00×**), median of 3');
    expect(md).toContain('20 of 20 shards rewritten (**100.0 %**)');
    expect(md).toContain('**refused** after 9 requests: the search index of bench/note would need 269 shards');
  });

  it('says when the first write was not measured', () => {
    const { firstWrite: _, ...unmeasured } = size;
    expect(searchTable({ date: '', node: '', sizes: [unmeasured] })).toContain(
      '| first write with search vs without | not measured |',
    );
  });
});
