/**
 * A small seeded generator of numbers in [0, 1) (mulberry32): the same sequence on every run, for jitter in
 * benchmarks and the demo section's data — never for anything secret
 * (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c).
 *
 * @example
 * const next = seededRandom(42);
 * next(); // 0.6011037519201636 on every run
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
