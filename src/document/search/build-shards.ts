/**
 * A build's term shards straight from its flat postings (invert.ts): cut as chunk.ts's `chunkLines` cuts
 * and encoded as shard.ts's `encodeShard` encodes, byte for byte (build-bytes.test.ts pins it), without
 * making a Posting object per posting. A run is one shard line: a term and a range of its postings.
 */
import { BitWriter, streamChars } from './bits.js';
import { ByteWriter } from './codec.js';
import { cutPoint, groupCuts } from './cut.js';
import type { Inverted } from './invert.js';
import type { Key } from './manifest.js';
import { type FlatPostings, lineBits, type PostingCoding, writeLinePostings } from './postings.js';
import { termLineBytes, writeTermHead } from './shard.js';

/** One shard line: `terms[term]` with postings `from` ≤ k < `to`. */
export interface Run {
  term: number;
  from: number;
  to: number;
}

/** The build's postings as postings.ts reads them (one norm per document). */
function flatOfInverted(inv: Inverted): FlatPostings {
  return { ordinals: inv.ordinals, tfs: inv.tfs, norms: inv.norms, normByOrdinal: true };
}

/** Where the cut is: finished shards, the shard being filled and its bytes. */
interface Cut {
  chunks: Run[][];
  cur: Run[];
  curBytes: number;
}

function lastTerm(inv: Inverted, cur: readonly Run[]): string {
  return cur.length === 0 ? '' : inv.terms[cur[cur.length - 1]!.term]!;
}

function closeShard(cut: Cut): void {
  cut.chunks.push(cut.cur);
  cut.cur = [];
  cut.curBytes = 0;
}

/** Add term `r`, too large for the room left, piece by piece (chunk.ts `chunkLines`, same cuts). */
function cutTerm(inv: Inverted, flat: FlatPostings, c: PostingCoding, r: number, maxBytes: number, cut: Cut): void {
  const term = inv.terms[r]!;
  const end = inv.starts[r + 1]!;
  for (let from = inv.starts[r]!; from < end; ) {
    const head = termLineBytes(term, lastTerm(inv, cut.cur));
    const to = cutPoint(flat, c, from, end, maxBytes - cut.curBytes - head, cut.cur.length === 0);
    if (to === from) {
      closeShard(cut);
      continue;
    }
    cut.cur.push({ term: r, from, to });
    cut.curBytes += head + streamChars(lineBits(flat, c, from, to));
    from = to;
    if (from < end) closeShard(cut);
  }
}

/**
 * Every term's whole line, written once, one after the other as in a shard: its head after the term
 * before it, its postings stream, a newline. Line r is `bytes` from `starts[r]` to `starts[r + 1]`, its
 * stream from `streams[r]`. Its length is what the cut needs; a shard copies its lines as they are but
 * the first, whose head follows no term.
 */
export interface Lines {
  bytes: Uint8Array;
  starts: Int32Array;
  streams: Int32Array;
}

/** Write each term's line once (its head after the term before it, its stream, a newline). */
function writeLines(inv: Inverted, flat: FlatPostings, c: PostingCoding): Lines {
  const w = new ByteWriter();
  const bits = new BitWriter(w);
  const starts = new Int32Array(inv.terms.length + 1);
  const streams = new Int32Array(inv.terms.length);
  for (let r = 0; r < inv.terms.length; r++) {
    writeTermHead(w, inv.terms[r]!, r === 0 ? '' : inv.terms[r - 1]!);
    streams[r] = w.length;
    writeLinePostings(flat, c, inv.starts[r]!, inv.starts[r + 1]!, bits);
    w.ascii(0x0a);
    starts[r + 1] = w.length;
  }
  return { bytes: w.view(), starts, streams };
}

/**
 * Cut every term's postings into shards of at most `maxBytes` (chunk.ts `chunkLines`, same cuts); at
 * least one (maybe empty) shard. Also gives every term's line, for `encodeRuns`.
 *
 * @example
 * const { chunks, lines } = chunkRuns(invertDocs(t, docs), postingCoding([8, 28]), Math.floor(FILL * 131072));
 */
export function chunkRuns(inv: Inverted, c: PostingCoding, maxBytes: number): { chunks: Run[][]; lines: Lines } {
  const flat = flatOfInverted(inv);
  const lines = writeLines(inv, flat, c);
  const sizes = new Float64Array(inv.terms.length);
  for (let r = 0; r < inv.terms.length; r++) sizes[r] = lines.starts[r + 1]! - lines.starts[r]!;
  const closes = groupCuts(inv.terms, sizes);
  const cut: Cut = { chunks: [], cur: [], curBytes: 0 };
  for (let r = 0; r < inv.terms.length; r++) {
    if (cut.cur.length > 0 && closes(r, cut.curBytes, maxBytes)) closeShard(cut);
    const from = inv.starts[r]!;
    const to = inv.starts[r + 1]!;
    // A shard being filled ends with term r − 1, after which line r takes sizes[r]; a new shard's
    // first line keeps nothing of a previous term.
    const whole =
      cut.cur.length > 0 ? sizes[r]! : termLineBytes(inv.terms[r]!, '') + lines.starts[r + 1]! - 1 - lines.streams[r]!;
    if (cut.curBytes + whole <= maxBytes) {
      cut.cur.push({ term: r, from, to });
      cut.curBytes += whole;
    } else cutTerm(inv, flat, c, r, maxBytes, cut);
  }
  if (cut.cur.length > 0 || cut.chunks.length === 0) cut.chunks.push(cut.cur);
  return { chunks: cut.chunks, lines };
}

/**
 * A shard's bytes from its runs (shard.ts `encodeShard`, same bytes): whole lines copied from `lines`
 * (the first with its head written after no term), a piece of a term written.
 *
 * @example
 * encodeRuns(inv, coding, chunks[0]!, lines); // Uint8Array of the shard's lines
 */
export function encodeRuns(inv: Inverted, c: PostingCoding, runs: readonly Run[], lines: Lines): Uint8Array {
  const flat = flatOfInverted(inv);
  const w = new ByteWriter();
  const bits = new BitWriter(w);
  // Whole lines after the first lie side by side in `lines` as in the shard: copied as one range.
  let copyFrom = 0;
  let copyTo = 0;
  const copy = () => w.raw(lines.bytes, copyFrom, copyTo);
  for (const [i, run] of runs.entries()) {
    const whole = run.from === inv.starts[run.term] && run.to === inv.starts[run.term + 1];
    if (whole && i > 0) {
      // Within a shard a whole line follows line run.term − 1: as written in `lines`, head and all.
      const start = lines.starts[run.term]!;
      if (start !== copyTo) {
        copy();
        copyFrom = start;
      }
      copyTo = lines.starts[run.term + 1]!;
      continue;
    }
    copy();
    copyFrom = copyTo = 0;
    const term = inv.terms[run.term]!;
    writeTermHead(w, term, i === 0 ? '' : inv.terms[run.term - 1]!);
    if (whole) w.raw(lines.bytes, lines.streams[run.term]!, lines.starts[run.term + 1]!);
    else {
      writeLinePostings(flat, c, run.from, run.to, bits);
      w.ascii(0x0a);
    }
  }
  copy();
  return w.bytes();
}

/**
 * The first key of a non-empty shard.
 *
 * @example
 * firstRunKey(inv, shards[1]!); // ['kato', 4123]
 */
export function firstRunKey(inv: Inverted, runs: readonly Run[]): Key {
  return [inv.terms[runs[0]!.term]!, inv.ordinals[runs[0]!.from]!];
}
