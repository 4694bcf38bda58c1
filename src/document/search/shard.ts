/**
 * Term shards: the inverted index of one type, one line per term, lines in term order:
 * `<shared><suffix> <postings>\n`, where `shared` is one symbol (codec.ts) counting the code units the
 * term shares with the previous line's term (front coding: sorted terms share their starts). Postings reference documents by ordinal, gap-coded; each carries, per field, the term's
 * frequency and the field's length as one norm symbol (codec.ts):
 *
 *   head  = ((gap − 1) · M + (mask − 1)) · 2 + allOne    base 47; M = 2^fields − 1; mask = fields holding the term
 *   norms = one symbol per field of the mask
 *   tfs   = (tf − 1) per field of the mask, only when allOne = 0
 *
 * so the usual posting (one field, tf 1, a small gap) takes two characters. Read back, a shard is
 * untrusted: `parseShard` checks every number, the order and the shard's bounds, and gives
 * `InvalidResponse` naming the key.
 */
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { ByteWriter, Cursor, NORM_LEVELS, SYMBOL_COUNT } from './codec.js';
import { compareKeys, type Key, type SearchManifest, shardPathOf } from './manifest.js';
import { codePoints, MAX_TOKEN_CHARS } from './text.js';

export interface Posting {
  ordinal: number;
  /** Per field: the term's frequency in it (0 = absent). */
  tf: number[];
  /** Per field: the field's norm symbol (0 where tf is 0). */
  norm: number[];
}

export interface Line {
  term: string;
  /** Ascending ordinals. */
  postings: Posting[];
}

/** Most bytes of a shard a reader accepts (a writer stays under 1 MiB; larger is damage). */
export const MAX_READ_SHARD_BYTES = 2 * 1024 * 1024;

/**
 * Write the encoded postings of a line (no term).
 *
 * @example
 * const w = new ByteWriter(); writePostings([{ ordinal: 0, tf: [1], norm: [5] }], 1, w); // two bytes
 */
export function writePostings(postings: readonly Posting[], fields: number, w: ByteWriter, tombstones = false): void {
  // In the delta (delta.ts) a posting may be a tombstone (no field): masks then count from 0.
  const m = (1 << fields) - (tombstones ? 0 : 1);
  const off = tombstones ? 0 : 1;
  let last = -1;
  for (const p of postings) {
    let mask = 0;
    let allOne = 1;
    for (let f = 0; f < fields; f++) {
      const tf = p.tf[f]!;
      if (tf > 0) {
        mask |= 1 << f;
        if (tf !== 1) allOne = 0;
      }
    }
    w.number(((p.ordinal - last - 1) * m + (mask - off)) * 2 + allOne);
    for (let f = 0; f < fields; f++) if (p.tf[f]! > 0) w.symbol(p.norm[f]!);
    if (!allOne) for (let f = 0; f < fields; f++) if (p.tf[f]! > 0) w.number(p.tf[f]! - 1);
    last = p.ordinal;
  }
}

/**
 * Code units `term` shares with the previous term of its shard (front coding), at most 93 and never
 * half of a surrogate pair, so the suffix is well-formed text.
 *
 * @example
 * sharedPrefix('database', 'data'); // 4
 */
export function sharedPrefix(term: string, prev: string): number {
  const most = Math.min(term.length, prev.length, SYMBOL_COUNT - 1);
  let n = 0;
  while (n < most && term.charCodeAt(n) === prev.charCodeAt(n)) n++;
  if (n > 0 && n < term.length && isHighSurrogate(term.charCodeAt(n - 1))) n--;
  return n;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Write one line after the line of `prev` ('' for a shard's first), newline included. */
function writeLine(line: Line, prev: string, fields: number, w: ByteWriter, tombstones: boolean): void {
  const shared = sharedPrefix(line.term, prev);
  w.symbol(shared);
  w.text(line.term.slice(shared));
  w.ascii(0x20);
  writePostings(line.postings, fields, w, tombstones);
  w.ascii(0x0a);
}

/** UTF-8 bytes of a string, without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** A shard's bytes. */
export function encodeShard(lines: readonly Line[], fields: number, tombstones = false): Uint8Array {
  const w = new ByteWriter();
  for (const [i, l] of lines.entries()) writeLine(l, lines[i - 1]?.term ?? '', fields, w, tombstones);
  return w.bytes();
}

const TERM = /^[\p{L}\p{N}]+$/u;

function decodePostings(c: Cursor, fields: number, next: number, tombstones: boolean): Posting[] {
  const off = tombstones ? 0 : 1;
  const m = (1 << fields) - off;
  const postings: Posting[] = [];
  let last = -1;
  while (!c.done) {
    const head = c.number();
    const allOne = head % 2;
    const rest = (head - allOne) / 2;
    const mask = (rest % m) + off;
    const ordinal = last + 1 + (rest - (mask - off)) / m;
    if (ordinal >= next) c.bad(`references ordinal ${ordinal}, not below the manifest's next ${next}`);
    const tf = new Array<number>(fields).fill(0);
    const norm = new Array<number>(fields).fill(0);
    for (let f = 0; f < fields; f++) {
      if (!(mask & (1 << f))) continue;
      norm[f] = c.symbol();
      if (norm[f]! >= NORM_LEVELS.length) c.bad('holds a norm symbol out of range');
      tf[f] = 1;
    }
    if (!allOne) for (let f = 0; f < fields; f++) if (mask & (1 << f)) tf[f] = c.number() + 1;
    postings.push({ ordinal, tf, norm });
    last = ordinal;
  }
  if (postings.length === 0) c.bad('has a term without postings');
  return postings;
}

export interface ShardBounds {
  key: string;
  fields: number;
  /** The manifest's next ordinal: every posting is below it. */
  next: number;
  lower: Key | null;
  /** The delta's lines may hold tombstones (postings of no field). */
  tombstones?: boolean;
  upper: Key | null;
}

function badShard(key: string, why: string, line?: number): never {
  const where = line === undefined ? '' : ` line ${line}`;
  throw new InvalidResponse(
    `search shard ${key}${where} ${why}; the search index must be rebuilt (docs.rebuildSearch; CLI: docdb doc search-index --rebuild)`,
    { key, line },
  );
}

/** One line after the line of `prev`, checked: a well-formed term, postings that decode. */
function parseLine(text: string, prev: string, n: number, b: ShardBounds): Line {
  const shared = text.length > 0 ? text.charCodeAt(0) - 0x21 : -1;
  if (shared < 0 || shared >= SYMBOL_COUNT || shared > prev.length) {
    badShard(b.key, 'does not start with the length of the prefix shared with the previous term', n);
  }
  const space = text.indexOf(' ', 1);
  const term = space < 0 ? '' : prev.slice(0, shared) + text.slice(1, space);
  if (!TERM.test(term) || codePoints(term) > MAX_TOKEN_CHARS) badShard(b.key, 'does not hold a term', n);
  const c = new Cursor(text, space + 1, (why) => badShard(b.key, why, n));
  return { term, postings: decodePostings(c, b.fields, b.next, b.tombstones === true) };
}

/**
 * Parse a shard read back from the section (untrusted): terms strictly increasing, every posting within
 * the shard's bounds and below the next ordinal. Anything else is `InvalidResponse` naming the key.
 *
 * @example
 * const lines = parseShard(bytes, { key, fields: 2, next: m.next, lower: null, upper: null });
 */
export function parseShard(bytes: Uint8Array, b: ShardBounds): Line[] {
  if (bytes.length > MAX_READ_SHARD_BYTES) badShard(b.key, `holds ${bytes.length} bytes, more than a writer writes`);
  if (!isUtf8(bytes)) badShard(b.key, 'is not UTF-8');
  const text = fromUtf8(bytes);
  if (text !== '' && !text.endsWith('\n')) badShard(b.key, 'does not end with a newline');
  const rows = text === '' ? [] : text.slice(0, -1).split('\n');
  const lines: Line[] = [];
  for (const [i, r] of rows.entries()) lines.push(parseLine(r, lines[i - 1]?.term ?? '', i + 1, b));
  lines.forEach((l, i) => {
    const first: Key = [l.term, l.postings[0]!.ordinal];
    const last: Key = [l.term, l.postings[l.postings.length - 1]!.ordinal];
    if (i > 0 && lines[i - 1]!.term >= l.term) badShard(b.key, 'has terms out of order', i + 1);
    if ((b.lower && compareKeys(first, b.lower) < 0) || (b.upper && compareKeys(last, b.upper) >= 0)) {
      badShard(b.key, 'holds a posting outside its shard', i + 1);
    }
  });
  return lines;
}

/**
 * Parse shard `i` of the manifest `m` with its bounds from the manifest.
 *
 * @example
 * const lines = loadShard(m, 0, bytes);
 */
export function loadShard(m: SearchManifest, i: number, bytes: Uint8Array | null): Line[] {
  const key = shardPathOf(m, i);
  if (bytes === null) badShard(key, 'is absent though the manifest lists it');
  const upper = m.shards[i + 1]?.lower ?? null;
  return parseShard(bytes, { key, fields: m.fields.length, next: m.next, lower: m.shards[i]!.lower, upper });
}
