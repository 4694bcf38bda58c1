/**
 * Where a term too large for the room left in a shard is cut. A line's code parameter depends on the
 * postings it holds (postings.ts `lineK`), so a piece's size is measured as the piece it would be, and
 * the cut is found by binary search (a piece's size grows with its postings, up to the small change of
 * its parameter). The build (build-shards.ts) and the writes (chunk.ts) cut alike, so both give the
 * same shards.
 */
import { expGolombBits, streamChars } from './bits.js';
import { type FlatPostings, K_BITS, lineK, type PostingCoding, postingBodyBits } from './postings.js';

/**
 * The end of the longest piece from `from` (at most `to`) whose postings take at most `room` bytes; at
 * least one posting when `alone` (an empty shard takes a posting whatever its size), else maybe none
 * (`from`: close the shard first).
 *
 * @example
 * cutPoint(flat, coding, 0, flat.ordinals.length, 4096, true); // postings 0 ≤ i < result fit in 4 KiB
 */
export function cutPoint(
  p: FlatPostings,
  c: PostingCoding,
  from: number,
  to: number,
  room: number,
  alone: boolean,
): number {
  const sums = new Map<number, Float64Array>();
  const fits = (end: number) => streamChars(pieceBits(p, c, from, end, to, sums)) <= room;
  if (!fits(from + 1)) return alone ? from + 1 : from;
  let lo = from + 1;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * `lineBits(p, c, from, end)` without a pass over the piece per probe: for each k the search meets, the
 * running sums of the postings' bits after the first (a term of 100,000 postings is cut in a few passes,
 * not one per probe).
 */
function pieceBits(
  p: FlatPostings,
  c: PostingCoding,
  from: number,
  end: number,
  to: number,
  cache: Map<number, Float64Array>,
): number {
  const k = lineK(p, from, end);
  let sums = cache.get(k);
  if (!sums) {
    // sums[j]: bits of postings from + 1 … from + j − 1, each after the one before it.
    sums = new Float64Array(to - from + 1);
    for (let i = from + 1; i < to; i++) {
      const gap = p.ordinals[i]! - p.ordinals[i - 1]! - 1;
      sums[i - from + 1] = sums[i - from]! + expGolombBits(gap, k) + postingBodyBits(p, i, c);
    }
    cache.set(k, sums);
  }
  const first = expGolombBits(p.ordinals[from]!, k) + postingBodyBits(p, from, c);
  return K_BITS + first + sums[end - from]! - sums[1]!;
}

/**
 * Per line: the bytes of the lines from it to the end of its group — the terms sharing its first `chars`
 * code points: 2 is the range a typo-tolerant word reads (match.ts TYPO_PREFIX_CHARS), 3 a 3-letter
 * prefix's — when it starts one, else 0. `bytes[i]` is line i's size after line i − 1.
 *
 * @example
 * groupBytes(['saba', 'sabi', 'sela'], [10, 6, 9], 2); // [16, 0, 9]
 */
export function groupBytes(terms: readonly string[], bytes: ArrayLike<number>, chars: number): Float64Array {
  const out = new Float64Array(terms.length);
  let sum = 0;
  for (let i = terms.length - 1; i >= 0; i--) {
    sum += bytes[i]!;
    if (i === 0 || !sameGroup(terms[i]!, terms[i - 1]!, chars)) {
      out[i] = sum;
      sum = 0;
    }
  }
  return out;
}

/** Code units of `term`'s first `chars` code points. */
function groupEnd(term: string, chars: number): number {
  let end = 0;
  for (let n = 0; n < chars && end < term.length; n++) end += term.codePointAt(end)! > 0xffff ? 2 : 1;
  return end;
}

/** Whether `a` and `b` start with the same `chars` code points (a slice of each per line was most of the cut's time). */
function sameGroup(a: string, b: string, chars: number): boolean {
  const end = groupEnd(a, chars);
  if (groupEnd(b, chars) !== end) return false;
  for (let i = 0; i < end; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

/**
 * Where a build or a split closes a shard, given each line's two- and three-letter group bytes: before a
 * group that does not fit (closesBeforeGroup), the two-letter one first.
 *
 * @example
 * const closes = groupCuts(terms, lineBytes); closes(r, curBytes, maxBytes);
 */
export function groupCuts(
  terms: readonly string[],
  bytes: ArrayLike<number>,
): (i: number, curBytes: number, maxBytes: number) => boolean {
  const two = groupBytes(terms, bytes, 2);
  const three = groupBytes(terms, bytes, 3);
  return (i, curBytes, maxBytes) =>
    closesBeforeGroup(curBytes, two[i]!, maxBytes) || closesBeforeGroup(curBytes, three[i]!, maxBytes);
}

/**
 * Whether a shard of `curBytes` closes before a group of `group` bytes: when the group would not fit
 * and the shard is at least half full, so that a word's range is read from one shard rather than the
 * ends of two (at the cost of shards a little less full).
 *
 * @example
 * closesBeforeGroup(70_000, 30_000, 98_304); // true
 */
export function closesBeforeGroup(curBytes: number, group: number, maxBytes: number): boolean {
  return group > 0 && curBytes + group > maxBytes && curBytes >= maxBytes / 2;
}
