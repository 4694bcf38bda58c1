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
const ms = (x: number) => `${Math.round(x)} ms`;

/** The first write at 10,000 documents with its build stages measured alone, or an error naming the bench. */
function stagesAt10k(r: Results) {
  const w = sizeOf(r, 10_000).firstWrite;
  if (!w?.stages)
    throw new Error('bench/results/search.json has no build stages at 10000: run npx tsx bench/search.ts');
  return { plain: w.plain.cpuMs, search: w.search.cpuMs, ...w.stages };
}
const kb = (b: number) => `${Math.round(b / 1024).toLocaleString('en')} KB`;

/** Search figures by marker name. */
export const searchFigures: Record<string, Figure> = {
  /** "4": the most requests a one-word search with a token took at 10,000 documents. */
  'search-10k-requests': (r) => String(most(tokenQueries(sizeOf(r, 10_000)).map((q) => q.requests))),
  /** "208 KB": the most such a search downloaded at 10,000 documents. */
  'search-10k-kb': (r) => kb(most(tokenQueries(sizeOf(r, 10_000)).map((q) => q.received))),
  'search-100k-requests': (r) => String(most(tokenQueries(sizeOf(r, 100_000)).map((q) => q.requests))),
  'search-100k-kb': (r) => kb(most(tokenQueries(sizeOf(r, 100_000)).map((q) => q.received))),
  /** "133 ms": the CPU the 1.3× goal leaves search beside the plain first write of 10,000 documents. */
  'search-10k-cpu-room': (r) => ms(0.3 * stagesAt10k(r).plain),
  /** "81 ms": tokenizing the declared fields alone, cold (the floor of any build that reads the words). */
  'search-10k-scan-cpu': (r) => ms(stagesAt10k(r).scanCpuMs),
  /** "300 ms": the whole build alone, cold, nothing uploaded. */
  'search-10k-build-cpu': (r) => ms(stagesAt10k(r).buildCpuMs),
  /** "430 ms": what the write with search took more than the one without. */
  'search-10k-cpu-added': (r) => ms(stagesAt10k(r).search - stagesAt10k(r).plain),
  /** "37.5 %": every file of the index against the searchable text's UTF-8 bytes, at 10,000 documents. */
  'search-index-share': (r) => {
    const s = sizeOf(r, 10_000);
    return `${((100 * s.index.bytes) / s.textBytes).toFixed(1)} %`;
  },
};
