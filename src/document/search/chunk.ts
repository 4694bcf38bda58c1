/**
 * Cutting term lines into shards of at most `maxBytes`: lines in order fill a shard until the next
 * posting would not fit; a term too large for the space left continues in the next shard (whose lower
 * bound is then `[term, ordinal]`), so a huge term's postings span shards.
 */
import { streamChars } from './bits.js';
import { cutPoint, groupCuts } from './cut.js';
import type { Key } from './manifest.js';
import { lineBits, type PostingCoding } from './postings.js';
import { flatLines, type Line, termLineBytes } from './shard.js';

/**
 * Bytes of a shard's lines as encoded.
 *
 * @example
 * shardBytes(lines, postingCoding([8, 28])); // encodeShard(lines, coding).length
 */
export function shardBytes(lines: readonly Line[], c: PostingCoding): number {
  const { flat, starts } = flatLines(lines, c.fields);
  let n = 0;
  for (const [i, l] of lines.entries()) {
    n += termLineBytes(l.term, lines[i - 1]?.term ?? '') + streamChars(lineBits(flat, c, starts[i]!, starts[i + 1]!));
  }
  return n;
}

/**
 * Cut `lines` (term order) into shards of at most `maxBytes` each; at least one (maybe empty) shard.
 * A build passes FILL · its bound.
 *
 * @example
 * chunkLines(lines, postingCoding([8, 28]), 131072); // [[...lines of shard 0], [...lines of shard 1]]
 */
export function chunkLines(lines: readonly Line[], c: PostingCoding, maxBytes: number): Line[][] {
  const chunks: Line[][] = [];
  let cur: Line[] = [];
  let curBytes = 0;
  const { flat, starts } = flatLines(lines, c.fields);
  const streams = lines.map((_, i) => streamChars(lineBits(flat, c, starts[i]!, starts[i + 1]!)));
  const terms = lines.map((l) => l.term);
  const closes = groupCuts(
    terms,
    streams.map((n, i) => termLineBytes(terms[i]!, terms[i - 1] ?? '') + n),
  );
  for (const [i, line] of lines.entries()) {
    if (cur.length > 0 && closes(i, curBytes, maxBytes)) {
      chunks.push(cur);
      cur = [];
      curBytes = 0;
    }
    const base = starts[i]!;
    const count = line.postings.length;
    const whole = termLineBytes(line.term, cur[cur.length - 1]?.term ?? '') + streams[i]!;
    if (curBytes + whole <= maxBytes) {
      // The usual case: the whole line fits, no copy of its postings.
      cur.push(line);
      curBytes += whole;
      continue;
    }
    // Too large for the space left: as many postings as fit, the rest in the next shard(s).
    for (let from = 0; from < count; ) {
      const head = termLineBytes(line.term, cur[cur.length - 1]?.term ?? '');
      const to = cutPoint(flat, c, base + from, base + count, maxBytes - curBytes - head, cur.length === 0) - base;
      if (to === from) {
        chunks.push(cur);
        cur = [];
        curBytes = 0;
        continue;
      }
      cur.push({ term: line.term, postings: line.postings.slice(from, to) });
      curBytes += head + streamChars(lineBits(flat, c, base + from, base + to));
      from = to;
      if (from < count) {
        chunks.push(cur);
        cur = [];
        curBytes = 0;
      }
    }
  }
  if (cur.length > 0 || chunks.length === 0) chunks.push(cur);
  return chunks;
}

/**
 * How full a build or a split leaves a shard: room for the next writes' postings, so that a write does
 * not split every shard it touches (B-tree bulk loading's fill factor).
 */
export const FILL = 0.75;

/**
 * Cut a shard's lines that outgrew `maxBytes` into even pieces of at most FILL · maxBytes; lines that
 * fit stay one shard.
 *
 * @example
 * resplit(lines, postingCoding([8, 28]), 131072); // [lines] when they fit, else two or more even shards
 */
export function resplit(lines: readonly Line[], c: PostingCoding, maxBytes: number): Line[][] {
  const bytes = shardBytes(lines, c);
  if (bytes <= maxBytes) return [[...lines]];
  const pieces = Math.ceil(bytes / (FILL * maxBytes));
  return chunkLines(lines, c, Math.max(Math.ceil(bytes / pieces), Math.floor(FILL * maxBytes)));
}

/** The first key of a non-empty shard. */
export function firstKey(lines: readonly Line[]): Key {
  return [lines[0]!.term, lines[0]!.postings[0]!.ordinal];
}

/**
 * The lower bound of a shard whose first key is `first`, after a shard whose last term is `prevLast`:
 * the shortest start of `first`'s term above `prevLast`, at ordinal 0 (suffix truncation, as B-trees
 * do), or `first` itself when a term continues across the cut. A word's range then starts in the shard
 * that holds it, not at the end of the one before: `shardsForRange('bo')` reads the shard starting at
 * "bo", not also the one ending at "bizu".
 *
 * @example
 * separatorKey('bizu', ['bobaga', 281]); // ['bo', 0]
 */
export function separatorKey(prevLast: string, first: Key): Key {
  const term = first[0];
  if (term === prevLast) return first;
  for (let n = 1; n < term.length; n++) {
    if (isLowSurrogate(term.charCodeAt(n))) continue;
    const start = term.slice(0, n);
    if (start > prevLast) return [start, 0];
  }
  return [term, 0];
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
