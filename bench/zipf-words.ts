/**
 * Words drawn with Zipf's law (s = 1), the generator both search corpora share: the bench's
 * (bench/search-corpus.ts, 50,000 English-like words) and the search tests' (__tests__/document/search/corpus.ts,
 * 6,000 syllable words). Each brings its own vocabulary and seeded generator (src/core/seeded-random.ts), so
 * each corpus is the same at every run.
 */

/**
 * A sampler of `vocabulary` (most frequent first): the word of rank r is drawn with weight 1/r, by binary search
 * over the cumulative weights, one `rnd()` a word.
 *
 * @example
 * const word = zipfSampler(['the', 'of', 'and']);
 * word(seededRandom(1)); // 'the' about half the time
 */
export function zipfSampler(vocabulary: readonly string[]): (rnd: () => number) => string {
  const cdf: number[] = [];
  let sum = 0;
  for (let r = 1; r <= vocabulary.length; r++) {
    sum += 1 / r;
    cdf.push(sum);
  }
  return (rnd) => {
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
}
