/**
 * The seeded corpus bench/search.ts measures: English-like documents — a title of ~8 words and a body of
 * ~80 — whose words are drawn with Zipf's law (s = 1) over a 50,000-word vocabulary of pronounceable words,
 * short for the frequent ranks and longer for the rare ones (mean ≈ 4.6 letters a word, English's is ≈ 4.7).
 * Generated the same at every run, so every run measures the same bytes.
 */
import { seededRandom } from '../src/core/seeded-random.js';
import { fieldText, type SearchDoc, tokenize } from '../src/document/search/index.js';
import { zipfSampler } from './zipf-words.js';

export const SEARCH_NAMESPACE = 'bench';
export const SEARCH_TYPE = 'note';
/** The type's declaration: 2 searchable fields. */
export const SEARCH_DECLARED = { namespace: SEARCH_NAMESPACE, type: SEARCH_TYPE, fields: ['data.title', 'data.body'] };

const VOCABULARY_SIZE = 50_000;
const CONSONANTS = 'bcdfghklmnprstvw';
const VOWELS = 'aeiou';
const CODAS = 'nrstl';

/** How many syllables the word of `rank` has: frequent words are short, as in English. */
function syllablesOf(rank: number, rnd: () => number): number {
  if (rank < 50) return 1;
  if (rank < 1000) return 2;
  if (rank < 10_000) return 3;
  return 3 + (rnd() < 0.5 ? 1 : 0);
}

/** The vocabulary, most frequent first: distinct pronounceable words (consonant, vowel, sometimes a coda). */
function vocabulary(): string[] {
  const rnd = seededRandom(7);
  const pick = (s: string) => s[Math.floor(rnd() * s.length)]!;
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < VOCABULARY_SIZE) {
    let w = '';
    for (let n = syllablesOf(words.length, rnd); n > 0; n--) {
      w += pick(CONSONANTS) + pick(VOWELS) + (rnd() < 0.3 ? pick(CODAS) : '');
    }
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

const zipfWord = zipfSampler(vocabulary());

function sentence(rnd: () => number, words: number): string {
  const ws = Array.from({ length: words }, () => zipfWord(rnd));
  ws[0] = ws[0]!.charAt(0).toUpperCase() + ws[0]!.slice(1);
  return ws.join(' ');
}

/** A body of 70..90 words in sentences of 8..15 words. */
function body(rnd: () => number): string {
  let left = 70 + Math.floor(rnd() * 21);
  const sentences: string[] = [];
  while (left > 0) {
    const n = Math.min(left, 8 + Math.floor(rnd() * 8));
    sentences.push(`${sentence(rnd, n)}.`);
    left -= n;
  }
  return sentences.join(' ');
}

/** The id of document `i`: spread over 50 folders like the other benches' ids. */
export const searchId = (i: number) => `g${i % 50}/note-${i}`;

/**
 * Document `i`'s data (`generation` > 0 gives the same document other words: an update).
 *
 * @example
 * searchData(0); // { i: 0, title: 'Ka lo …', body: 'Me ti …. …' }
 */
export function searchData(i: number, generation = 0): { i: number; title: string; body: string } {
  const rnd = seededRandom(i * 7919 + generation * 104_729 + 1);
  return { i, title: sentence(rnd, 6 + Math.floor(rnd() * 5)), body: body(rnd) };
}

/** Documents 0..n-1 as DocumentStore inputs. */
export function searchDocs(n: number, generation = 0) {
  return Array.from({ length: n }, (_, i) => ({
    namespace: SEARCH_NAMESPACE,
    type: SEARCH_TYPE,
    id: searchId(i),
    data: searchData(i, generation),
  }));
}

/** What the corpus holds: its searchable text's UTF-8 bytes and each term's document frequency. */
export interface CorpusStats {
  n: number;
  textBytes: number;
  df: Map<string, number>;
}

/** The searchable text bytes (each declared field's text, as the core takes it) and document frequencies. */
export function corpusStats(n: number): CorpusStats {
  const enc = new TextEncoder();
  const df = new Map<string, number>();
  let textBytes = 0;
  for (let i = 0; i < n; i++) {
    const doc: SearchDoc = { id: searchId(i), data: searchData(i) };
    const terms = new Set<string>();
    for (const field of SEARCH_DECLARED.fields) {
      const text = fieldText(doc, field);
      textBytes += enc.encode(text).length;
      for (const t of tokenize(text)) terms.add(t);
    }
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { n, textBytes, df };
}

/** The one-word queries measured, each with why it was chosen. */
export interface BenchQuery {
  label: string;
  text: string;
}

/**
 * A common word (the most frequent term — as a one-word query it is also a prefix of others), a rare word
 * (5+ letters, so typo candidates are looked up too, in 0.2–0.6 % of the documents) and a 3-letter prefix.
 *
 * @example
 * const { common, rare, prefix } = benchQueries(corpusStats(10_000));
 */
export function benchQueries(stats: CorpusStats): Record<'common' | 'rare' | 'prefix', BenchQuery> {
  const byDf = [...stats.df].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [common, commonDf] = byDf[0]!;
  const within = (lo: number, hi: number) =>
    byDf.find(([t, d]) => t.length >= 6 && d >= stats.n * lo && d <= stats.n * hi)?.[0];
  const rare = within(0.002, 0.006);
  const middle = within(0.02, 0.05);
  if (!rare || !middle) throw new Error(`search corpus: no rare or middle word among ${stats.df.size} terms`);
  const docs = (d: number) => `in ${d.toLocaleString('en')} documents`;
  return {
    common: { label: `the most frequent term (${docs(commonDf)})`, text: common },
    rare: { label: `a rare word (${docs(stats.df.get(rare)!)})`, text: rare },
    prefix: { label: `the first 3 letters of a word ${docs(stats.df.get(middle)!)}`, text: middle.slice(0, 3) },
  };
}
