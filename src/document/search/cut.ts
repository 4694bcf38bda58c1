/**
 * Where a term too large for the room left in a shard is cut. A line's code parameter depends on the
 * postings it holds (postings.ts `lineK`), so a piece's size is measured as the piece it would be, and
 * the cut is found by binary search (a piece's size grows with its postings, up to the small change of
 * its parameter). The build (build-shards.ts) and the writes (chunk.ts) cut alike, so both give the
 * same shards.
 */
import { streamChars } from './bits.js';
import { type FlatPostings, lineBits, type PostingCoding } from './postings.js';

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
  const fits = (end: number) => streamChars(lineBits(p, c, from, end)) <= room;
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
