/**
 * A line's postings as codes in one bit stream (bits.ts), measured (for cutting shards) and written from
 * flat arrays, and read back into Posting objects. Per line: k (5 bits), then per posting
 *
 *   gap    expGolomb(ordinal − previous − 1, k)          the first counts from −1
 *   shape  0 = the type's usual shape: only the DEFAULT field (the field of the longest base norm), tf 1
 *          1, then mask − 1 in truncated binary (mask 0 allowed in the delta: a tombstone), then gamma(tf)
 *             per field of the mask
 *   norms  per field of the mask: gamma(zigzag(norm − base[f]) + 1)
 *
 * where k = ⌊log2⌋ of the line's mean ordinal step (its only ordinal's + 1 for a one-posting line) and
 * base[f] is the norm of field f's average length when the index was built (the manifest's `norms`).
 * A field's length varies little around its average, so its norm takes 1–3 bits, not a whole symbol.
 */
import { BitReader, type BitWriter, expGolombBits, gammaBits, log2Floor } from './bits.js';
import { NORM_LEVELS } from './codec.js';

/** What codes a type's postings: its fields and their base norms. */
export interface PostingCoding {
  fields: number;
  /** Per field: the norm symbol postings are coded relative to. */
  bases: readonly number[];
  /** The one-field mask coded in one bit (with tf 1). */
  defaultMask: number;
  /** The delta's lines may hold tombstones (postings of no field). */
  tombstones: boolean;
}

/** Bits of a line's k. */
export const K_BITS = 5;

/**
 * The coding of a type whose manifest gives these base norms.
 *
 * @example
 * postingCoding([8, 28]); // default field 1 (the longer), no tombstones
 */
export function postingCoding(bases: readonly number[], tombstones = false): PostingCoding {
  let longest = 0;
  for (let f = 1; f < bases.length; f++) if (bases[f]! >= bases[longest]!) longest = f;
  return { fields: bases.length, bases, defaultMask: 1 << longest, tombstones };
}

/**
 * Flat postings: `ordinals[k]`, and per field `tfs[k · fields + f]` and the norm at
 * `norms[(normByOrdinal ? ordinal : k) · fields + f]` (a build keeps one norm per document).
 */
export interface FlatPostings {
  ordinals: ArrayLike<number>;
  tfs: ArrayLike<number>;
  norms: ArrayLike<number>;
  normByOrdinal: boolean;
}

/** The k of postings from ≤ i < to: ⌊log2⌋ of their mean step. */
export function lineK(p: FlatPostings, from: number, to: number): number {
  const count = to - from;
  const step = count === 1 ? p.ordinals[from]! + 1 : (p.ordinals[to - 1]! - p.ordinals[from]!) / (count - 1);
  return Math.min(2 ** K_BITS - 1, log2Floor(Math.max(1, Math.floor(step))));
}

const zigzag = (d: number) => (d >= 0 ? 2 * d : -2 * d - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/** Bits of v in truncated binary over `range` values. */
function truncatedBits(v: number, range: number): number {
  if (range <= 1) return 0;
  const b = log2Floor(range - 1) + 1;
  return v < (1 << b) - range ? b - 1 : b;
}

/** A tf above 1 in the shape: the shape is then not the usual one. */
const NOT_ALL_ONE = 1 << 8;

/** Posting i's mask of fields holding the term, plus NOT_ALL_ONE when a tf is above 1 (no object per posting). */
function shapeOf(p: FlatPostings, i: number, fields: number): number {
  let shape = 0;
  for (let f = 0; f < fields; f++) {
    const tf = p.tfs[i * fields + f]!;
    if (tf > 0) shape |= 1 << f;
    if (tf > 1) shape |= NOT_ALL_ONE;
  }
  return shape;
}

/** Bits of the shape and norms of posting i. */
export function postingBodyBits(p: FlatPostings, i: number, c: PostingCoding): number {
  const shape = shapeOf(p, i, c.fields);
  const mask = shape & (NOT_ALL_ONE - 1);
  const at = (p.normByOrdinal ? p.ordinals[i]! : i) * c.fields;
  let n = 1;
  if (shape !== c.defaultMask) {
    const off = c.tombstones ? 0 : 1;
    n += truncatedBits(mask - off, (1 << c.fields) - off);
    for (let f = 0; f < c.fields; f++) if (mask & (1 << f)) n += gammaBits(p.tfs[i * c.fields + f]!);
  }
  for (let f = 0; f < c.fields; f++) {
    if (mask & (1 << f)) n += gammaBits(zigzag(p.norms[at + f]! - c.bases[f]!) + 1);
  }
  return n;
}

/**
 * Bits of the stream of postings from ≤ i < to (its k included).
 *
 * @example
 * streamChars(lineBits(flat, coding, 0, flat.ordinals.length)); // characters of the line's postings
 */
export function lineBits(p: FlatPostings, c: PostingCoding, from: number, to: number): number {
  const k = lineK(p, from, to);
  let n = K_BITS;
  let prev = -1;
  for (let i = from; i < to; i++) {
    const o = p.ordinals[i]!;
    n += expGolombBits(o - prev - 1, k) + postingBodyBits(p, i, c);
    prev = o;
  }
  return n;
}

/** Truncated binary of v over `range` values. */
function writeTruncated(w: BitWriter, v: number, range: number): void {
  if (range <= 1) return;
  const b = log2Floor(range - 1) + 1;
  const short = (1 << b) - range;
  if (v < short) w.bits(v, b - 1);
  else w.bits(v + short, b);
}

/**
 * Write the stream of postings from ≤ i < to (then `w.end()` pads it).
 *
 * @example
 * writeLinePostings(flat, coding, 0, 3, new BitWriter(bytes));
 */
export function writeLinePostings(p: FlatPostings, c: PostingCoding, from: number, to: number, w: BitWriter): void {
  writeCodes(p, c, from, to, w);
  w.end();
}

/**
 * The codes of postings from ≤ i < to. Nothing follows the loop: a cold build compiles this loop while
 * it runs (on-stack replacement, in the first long line), and code after the loop, never reached by
 * then, had no type feedback — the compiled loop deoptimized at its end in every long line after (2,121
 * times in a 10,000-document build).
 */
function writeCodes(p: FlatPostings, c: PostingCoding, from: number, to: number, w: BitWriter): void {
  const k = lineK(p, from, to);
  w.bits(k, K_BITS);
  const { ordinals, norms, normByOrdinal } = p;
  const { fields, defaultMask, bases } = c;
  // The field of the usual shape: its only norm is the usual posting's.
  const usual = 31 - Math.clz32(defaultMask);
  const base = bases[usual]!;
  let prev = -1;
  for (let i = from; i < to; i++) {
    const o = ordinals[i]!;
    const shape = shapeOf(p, i, fields);
    if (shape === defaultMask) {
      w.usualPosting(o - prev - 1, k, zigzag(norms[(normByOrdinal ? o : i) * fields + usual]! - base) + 1);
    } else writeOther(p, c, i, o - prev - 1, k, shape, w);
    prev = o;
  }
}

/** Posting i of another shape than the usual, its gap `gap`. */
function writeOther(p: FlatPostings, c: PostingCoding, i: number, gap: number, k: number, shape: number, w: BitWriter) {
  w.expGolomb(gap, k);
  const off = c.tombstones ? 0 : 1;
  const mask = shape & (NOT_ALL_ONE - 1);
  w.bits(1, 1);
  writeTruncated(w, mask - off, (1 << c.fields) - off);
  for (let f = 0; f < c.fields; f++) if (mask & (1 << f)) w.gamma(p.tfs[i * c.fields + f]!);
  const at = (p.normByOrdinal ? p.ordinals[i]! : i) * c.fields;
  for (let f = 0; f < c.fields; f++) if (mask & (1 << f)) w.gamma(zigzag(p.norms[at + f]! - c.bases[f]!) + 1);
}

/** A decoded posting (shard.ts's Posting). */
export interface ReadPosting {
  ordinal: number;
  tf: number[];
  norm: number[];
}

function readTruncated(r: BitReader, range: number): number {
  if (range <= 1) return 0;
  const b = log2Floor(range - 1) + 1;
  const short = (1 << b) - range;
  const v = r.bits(b - 1);
  return v < short ? v : v * 2 + r.bits(1) - short;
}

/** The shape of the next posting: per field its tf (0 = absent). */
function readShape(r: BitReader, c: PostingCoding, bad: (why: string) => never): number[] {
  const tf = new Array<number>(c.fields).fill(0);
  if (r.bits(1) === 0) {
    for (let f = 0; f < c.fields; f++) if (c.defaultMask & (1 << f)) tf[f] = 1;
    return tf;
  }
  const off = c.tombstones ? 0 : 1;
  const mask = readTruncated(r, (1 << c.fields) - off) + off;
  if (mask >= 1 << c.fields) bad('holds a field mask out of range');
  for (let f = 0; f < c.fields; f++) if (mask & (1 << f)) tf[f] = r.gamma();
  return tf;
}

/**
 * The postings of one line's stream (`text` from `start` to `end`), checked: ordinals below `next`,
 * norms in range, at least one posting.
 *
 * @example
 * readLinePostings(line, space + 1, line.length, coding, m.next, bad);
 */
export function readLinePostings(
  text: string,
  start: number,
  end: number,
  c: PostingCoding,
  next: number,
  bad: (why: string) => never,
): ReadPosting[] {
  const r = new BitReader(text, start, end, bad);
  const k = r.bits(K_BITS);
  const out: ReadPosting[] = [];
  let prev = -1;
  while (!r.done) {
    const ordinal = prev + 1 + r.expGolomb(k);
    if (ordinal >= next) bad(`references ordinal ${ordinal}, not below the manifest's next ${next}`);
    const tf = readShape(r, c, bad);
    const norm = new Array<number>(c.fields).fill(0);
    for (let f = 0; f < c.fields; f++) {
      if (tf[f] === 0) continue;
      norm[f] = c.bases[f]! + unzigzag(r.gamma() - 1);
      if (norm[f]! < 0 || norm[f]! >= NORM_LEVELS.length) bad('holds a norm symbol out of range');
    }
    out.push({ ordinal, tf, norm });
    prev = ordinal;
  }
  if (out.length === 0) bad('has a term without postings');
  return out;
}
