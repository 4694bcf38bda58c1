/**
 * A build's term shards straight from its flat postings (invert.ts): cut as chunk.ts's `chunkLines` cuts
 * and encoded as shard.ts's `encodeShard` encodes, byte for byte (build-bytes.test.ts pins it), without
 * making a Posting object per posting. A run is one shard line: a term and a range of its postings.
 */
import { ByteWriter, numberLength } from './codec.js';
import type { Inverted } from './invert.js';
import type { Key } from './manifest.js';
import { sharedPrefix, utf8Length } from './shard.js';

/** One shard line: `terms[term]` with postings `from` ≤ k < `to`. */
export interface Run {
  term: number;
  from: number;
  to: number;
}

/** Characters of posting `k` encoded after ordinal `prev` (chunk.ts postingLength). */
function postingBytes(inv: Inverted, k: number, prev: number): number {
  const fields = inv.fields;
  let mask = 0;
  let allOne = 1;
  let present = 0;
  let tfChars = 0;
  for (let f = 0; f < fields; f++) {
    const tf = inv.tfs[k * fields + f]!;
    if (tf > 0) {
      mask |= 1 << f;
      present++;
      tfChars += numberLength(tf - 1);
      if (tf !== 1) allOne = 0;
    }
  }
  const head = ((inv.ordinals[k]! - prev - 1) * ((1 << fields) - 1) + (mask - 1)) * 2 + allOne;
  return numberLength(head) + present + (allOne ? 0 : tfChars);
}

/** Bytes of a line without its postings: shared-prefix symbol, suffix, space, newline. */
function termBytes(term: string, prev: string): number {
  return utf8Length(term.slice(sharedPrefix(term, prev))) + 3;
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

/** Add the postings of term `r` to the cut one by one, starting a new shard when the next does not fit. */
function cutTerm(inv: Inverted, r: number, maxBytes: number, cut: Cut): void {
  const term = inv.terms[r]!;
  let from = inv.starts[r]!;
  let pieceBytes = termBytes(term, lastTerm(inv, cut.cur));
  let prev = -1;
  for (let k = from; k < inv.starts[r + 1]!; k++) {
    let pb = postingBytes(inv, k, prev);
    if (cut.curBytes + pieceBytes + pb > maxBytes && (k > from || cut.cur.length > 0)) {
      if (k > from) cut.cur.push({ term: r, from, to: k });
      cut.chunks.push(cut.cur);
      cut.cur = [];
      cut.curBytes = 0;
      from = k;
      pieceBytes = termBytes(term, '');
      pb = postingBytes(inv, k, -1);
    }
    pieceBytes += pb;
    prev = inv.ordinals[k]!;
  }
  cut.cur.push({ term: r, from, to: inv.starts[r + 1]! });
  cut.curBytes += pieceBytes;
}

/**
 * Cut every term's postings into shards of at most `maxBytes` (chunk.ts `chunkLines`, same cuts); at
 * least one (maybe empty) shard.
 *
 * @example
 * const shards = chunkRuns(invertDocs(t, docs), Math.floor(FILL * 131072));
 */
export function chunkRuns(inv: Inverted, maxBytes: number): Run[][] {
  const cut: Cut = { chunks: [], cur: [], curBytes: 0 };
  for (let r = 0; r < inv.terms.length; r++) {
    const term = inv.terms[r]!;
    let whole = termBytes(term, lastTerm(inv, cut.cur));
    let prev = -1;
    for (let k = inv.starts[r]!; k < inv.starts[r + 1]!; k++) {
      whole += postingBytes(inv, k, prev);
      prev = inv.ordinals[k]!;
    }
    if (cut.curBytes + whole <= maxBytes) {
      cut.cur.push({ term: r, from: inv.starts[r]!, to: inv.starts[r + 1]! });
      cut.curBytes += whole;
    } else cutTerm(inv, r, maxBytes, cut);
  }
  if (cut.cur.length > 0 || cut.chunks.length === 0) cut.chunks.push(cut.cur);
  return cut.chunks;
}

/** Write a run's postings (shard.ts writePostings, no tombstones). */
function writeRunPostings(inv: Inverted, run: Run, w: ByteWriter): void {
  const fields = inv.fields;
  const m = (1 << fields) - 1;
  let last = -1;
  for (let k = run.from; k < run.to; k++) {
    const o = inv.ordinals[k]!;
    let mask = 0;
    let allOne = 1;
    for (let f = 0; f < fields; f++) {
      const tf = inv.tfs[k * fields + f]!;
      if (tf > 0) {
        mask |= 1 << f;
        if (tf !== 1) allOne = 0;
      }
    }
    w.number(((o - last - 1) * m + (mask - 1)) * 2 + allOne);
    for (let f = 0; f < fields; f++) if (mask & (1 << f)) w.symbol(inv.norms[o * fields + f]!);
    if (!allOne) for (let f = 0; f < fields; f++) if (mask & (1 << f)) w.number(inv.tfs[k * fields + f]! - 1);
    last = o;
  }
}

/**
 * A shard's bytes from its runs (shard.ts `encodeShard`, same bytes).
 *
 * @example
 * encodeRuns(inv, shards[0]!); // Uint8Array of the shard's lines
 */
export function encodeRuns(inv: Inverted, runs: readonly Run[]): Uint8Array {
  const w = new ByteWriter();
  let prev = '';
  for (const run of runs) {
    const term = inv.terms[run.term]!;
    const shared = sharedPrefix(term, prev);
    w.symbol(shared);
    w.text(term.slice(shared));
    w.ascii(0x20);
    writeRunPostings(inv, run, w);
    w.ascii(0x0a);
    prev = term;
  }
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
