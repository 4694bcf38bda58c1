/**
 * Inline figures of bench/search.ts (issue 42) for the README's "Search a section": the most a one-word search
 * with a token costs at a corpus size, and the index's share of the searchable text.
 */
import type { SearchSize } from '../../bench/search-table.js';
import type { Results } from './results.js';

type Figure = (r: Results) => string;

/** The measured size `n`, or an error naming the command that writes it. */
function sizeOf(r: Results, n: number): SearchSize {
  const s = r.search.sizes.find((x) => x.n === n);
  if (!s) throw new Error(`bench/results/search.json has no size ${n}: run npx tsx bench/search.ts --n 10000,100000`);
  return s;
}

/** One-word searches with a token (every query kind, with and without `type`). */
const tokenQueries = (s: SearchSize) => s.queries.filter((q) => q.auth === 'token');

const most = (xs: number[]) => Math.max(...xs);
const kb = (b: number) => `${Math.round(b / 1024).toLocaleString('en')} KB`;

/** Search figures by marker name. */
export const searchFigures: Record<string, Figure> = {
  /** "4": the most requests a one-word search with a token took at 10,000 documents. */
  'search-10k-requests': (r) => String(most(tokenQueries(sizeOf(r, 10_000)).map((q) => q.requests))),
  /** "208 KB": the most such a search downloaded at 10,000 documents. */
  'search-10k-kb': (r) => kb(most(tokenQueries(sizeOf(r, 10_000)).map((q) => q.received))),
  'search-100k-requests': (r) => String(most(tokenQueries(sizeOf(r, 100_000)).map((q) => q.requests))),
  'search-100k-kb': (r) => kb(most(tokenQueries(sizeOf(r, 100_000)).map((q) => q.received))),
  /** "37.5 %": every file of the index against the searchable text's UTF-8 bytes, at 10,000 documents. */
  'search-index-share': (r) => {
    const s = sizeOf(r, 10_000);
    return `${((100 * s.index.bytes) / s.textBytes).toFixed(1)} %`;
  },
};
