/**
 * A realistic corpus for size and cost tests: English-like words (syllables) drawn with a Zipf
 * distribution (s = 1) over a 6,000-word vocabulary; a title of ~8 words and a body of ~80. Seeded, so
 * every run measures the same bytes. The Zipf draw is the bench corpus's (bench/zipf-words.ts).
 */
import { zipfSampler } from '../../../bench/zipf-words.js';
import { seededRandom } from '../../../src/core/seeded-random.js';
import type { SearchDoc } from '../../../src/document/search/index.js';

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
  const rnd = seededRandom(seed);
  const vocabulary = Array.from({ length: 6000 }, (_, i) => {
    let w = '';
    for (let n = 1 + (i % 3) + (i > 300 ? 1 : 0), x = i; n > 0; n--, x = Math.floor(x / 16)) w += SYLLABLES[x % 16];
    return `${w}${i >= 4096 ? SYLLABLES[i % 7] : ''}`;
  });
  const pick = zipfSampler(vocabulary);
  const words = (n: number) => Array.from({ length: n }, () => pick(rnd)).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    id: `doc-${String(i).padStart(5, '0')}`,
    data: { title: words(6 + Math.floor(rnd() * 5)), body: `${words(70 + Math.floor(rnd() * 20))}.` },
  }));
}
