/**
 * A realistic corpus for size and cost tests: English-like words (syllables) drawn with a Zipf
 * distribution (s = 1) over a 6,000-word vocabulary; a title of ~8 words and a body of ~80. Seeded, so
 * every run measures the same bytes.
 */
import type { SearchDoc } from '../../../src/document/search/index.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'ro',
  'mi',
  'te',
  'sun',
  'lo',
  'ver',
  'an',
  'di',
  'po',
  'qua',
  'le',
  'tion',
  'in',
  'ex',
  'ber',
];

/** `count` documents `{ title, body }` with ids `doc-00000…`. */
export function zipfCorpus(count: number, seed = 42): SearchDoc[] {
  const rnd = mulberry32(seed);
  const vocabulary = Array.from({ length: 6000 }, (_, i) => {
    let w = '';
    for (let n = 1 + (i % 3) + (i > 300 ? 1 : 0), x = i; n > 0; n--, x = Math.floor(x / 16)) w += SYLLABLES[x % 16];
    return `${w}${i >= 4096 ? SYLLABLES[i % 7] : ''}`;
  });
  // Cumulative Zipf weights 1/rank, sampled by binary search.
  const cdf: number[] = [];
  let sum = 0;
  for (let r = 1; r <= vocabulary.length; r++) {
    sum += 1 / r;
    cdf.push(sum);
  }
  const pick = () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
  const words = (n: number) => Array.from({ length: n }, pick).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    id: `doc-${String(i).padStart(5, '0')}`,
    data: { title: words(6 + Math.floor(rnd() * 5)), body: `${words(70 + Math.floor(rnd() * 20))}.` },
  }));
}
