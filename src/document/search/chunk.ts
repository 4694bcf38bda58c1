/**
 * Cutting term lines into shards of at most `maxBytes`: lines in order fill a shard until the next
 * posting would not fit; a term too large for the space left continues in the next shard (whose lower
 * bound is then `[term, ordinal]`), so a huge term's postings span shards.
 */
import { numberLength } from './codec.js';
import type { Key } from './manifest.js';
import { type Line, type Posting, sharedPrefix, utf8Length } from './shard.js';

/** Characters of one encoded posting after `prev`. */
function postingLength(p: Posting, prev: number, fields: number): number {
  const m = (1 << fields) - 1;
  let mask = 0;
  let allOne = 1;
  let present = 0;
  let tfs = 0;
  for (let f = 0; f < fields; f++) {
    const tf = p.tf[f]!;
    if (tf > 0) {
      mask |= 1 << f;
      present++;
      tfs += numberLength(tf - 1);
      if (tf !== 1) allOne = 0;
    }
  }
  const head = ((p.ordinal - prev - 1) * m + (mask - 1)) * 2 + allOne;
  return numberLength(head) + present + (allOne ? 0 : tfs);
}

/** Bytes of a line without its postings: shared-prefix symbol, suffix, space, newline. */
function termBytes(term: string, prev: string): number {
  return utf8Length(term.slice(sharedPrefix(term, prev))) + 3;
}

/** Bytes of a shard's lines as encoded. */
export function shardBytes(lines: readonly Line[], fields: number): number {
  let n = 0;
  for (const [i, l] of lines.entries())
    n += termBytes(l.term, lines[i - 1]?.term ?? '') + postingsBytes(l.postings, fields);
  return n;
}

function postingsBytes(postings: readonly Posting[], fields: number): number {
  let n = 0;
  let prev = -1;
  for (const p of postings) {
    n += postingLength(p, prev, fields);
    prev = p.ordinal;
  }
  return n;
}

/**
 * Cut `lines` (term order) into shards of at most `maxBytes` each; at least one (maybe empty) shard.
 * A build passes FILL · its bound.
 *
 * @example
 * chunkLines(lines, 2, 131072); // [[...lines of shard 0], [...lines of shard 1]]
 */
export function chunkLines(lines: readonly Line[], fields: number, maxBytes: number): Line[][] {
  const chunks: Line[][] = [];
  let cur: Line[] = [];
  let curBytes = 0;
  for (const line of lines) {
    const whole = termBytes(line.term, cur[cur.length - 1]?.term ?? '') + postingsBytes(line.postings, fields);
    if (curBytes + whole <= maxBytes) {
      // The usual case: the whole line fits, no copy of its postings.
      cur.push(line);
      curBytes += whole;
      continue;
    }
    let piece: Posting[] = [];
    let pieceBytes = termBytes(line.term, cur[cur.length - 1]?.term ?? '');
    let prev = -1;
    for (const p of line.postings) {
      let pb = postingLength(p, prev, fields);
      if (curBytes + pieceBytes + pb > maxBytes && (piece.length > 0 || cur.length > 0)) {
        if (piece.length > 0) cur.push({ term: line.term, postings: piece });
        chunks.push(cur);
        cur = [];
        curBytes = 0;
        piece = [];
        pieceBytes = termBytes(line.term, '');
        pb = postingLength(p, -1, fields);
      }
      piece.push(p);
      pieceBytes += pb;
      prev = p.ordinal;
    }
    cur.push({ term: line.term, postings: piece });
    curBytes += pieceBytes;
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
 * resplit(lines, 2, 131072); // [lines] when they fit, else two or more even shards
 */
export function resplit(lines: readonly Line[], fields: number, maxBytes: number): Line[][] {
  const bytes = shardBytes(lines, fields);
  if (bytes <= maxBytes) return [[...lines]];
  const pieces = Math.ceil(bytes / (FILL * maxBytes));
  return chunkLines(lines, fields, Math.max(Math.ceil(bytes / pieces), Math.floor(FILL * maxBytes)));
}

/** The first key of a non-empty shard. */
export function firstKey(lines: readonly Line[]): Key {
  return [lines[0]!.term, lines[0]!.postings[0]!.ordinal];
}
