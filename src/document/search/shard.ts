/**
 * Term shards: the inverted index of one type, one line per term, lines in term order:
 * `<shared><suffix> <postings>\n`, where `shared` is one symbol (codec.ts) counting the code units the
 * term shares with the previous line's term (front coding: sorted terms share their starts), and the
 * postings are one bit stream written in printable symbols (postings.ts, bits.ts). Read back, a shard
 * is untrusted: `parseShard` checks every code, the order and the shard's bounds, and gives
 * `InvalidResponse` naming the key.
 */
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { BitWriter } from './bits.js';
import { ByteWriter, SYMBOL_COUNT } from './codec.js';
import { compareKeys, type Key, type SearchManifest, shardPathOf } from './manifest.js';
import {
  type FlatPostings,
  type PostingCoding,
  postingCoding,
  readLinePostings,
  writeLinePostings,
} from './postings.js';
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
 * The postings of `lines` as one set of flat arrays (postings.ts codes from flat arrays, as the build
 * holds them), line i's postings from `starts[i]` to `starts[i + 1]`: one allocation for a shard, not
 * three typed arrays per line.
 *
 * @example
 * flatLines([{ term: 'git', postings: [{ ordinal: 0, tf: [1], norm: [5] }] }], 1).flat.ordinals; // [0]
 */
export function flatLines(lines: readonly Line[], fields: number): { flat: FlatPostings; starts: Int32Array } {
  const starts = new Int32Array(lines.length + 1);
  lines.forEach((l, i) => {
    starts[i + 1] = starts[i]! + l.postings.length;
  });
  const count = starts[lines.length]!;
  const ordinals = new Int32Array(count);
  const tfs = new Int32Array(count * fields);
  const norms = new Uint8Array(count * fields);
  let k = 0;
  for (const l of lines) {
    for (const p of l.postings) {
      ordinals[k] = p.ordinal;
      for (let f = 0; f < fields; f++) {
        tfs[k * fields + f] = p.tf[f]!;
        norms[k * fields + f] = p.norm[f]!;
      }
      k++;
    }
  }
  return { flat: { ordinals, tfs, norms, normByOrdinal: false }, starts };
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

/**
 * A line's head says how much of the previous term it keeps and which code units follow. Most terms
 * keep fewer than 8 and add fewer than 11, so one symbol says both (8 · 11 = 88 of the 94) and the
 * postings follow the suffix at once; symbol 88 starts the general head: a symbol for the shared
 * length, the suffix, a space.
 */
const COMPACT_SHARED = 8;
const COMPACT_SUFFIX = 11;
const GENERAL_HEAD = COMPACT_SHARED * COMPACT_SUFFIX;

/**
 * Bytes of a line without its postings: head, suffix, newline.
 *
 * @example
 * termLineBytes('database', 'data'); // 6: one head symbol, 'base', the newline
 */
export function termLineBytes(term: string, prev: string): number {
  const shared = sharedPrefix(term, prev);
  const compact = shared < COMPACT_SHARED && term.length - shared < COMPACT_SUFFIX;
  return (compact ? 1 : 3) + utf8Length(term, shared) + 1;
}

/**
 * Write a line's head and suffix (then its postings and a newline follow).
 *
 * @example
 * writeTermHead(w, 'database', 'data');
 */
export function writeTermHead(w: ByteWriter, term: string, prev: string): void {
  const shared = sharedPrefix(term, prev);
  const suffix = term.slice(shared);
  if (shared < COMPACT_SHARED && suffix.length < COMPACT_SUFFIX) {
    w.symbol(shared * COMPACT_SUFFIX + suffix.length);
    w.text(suffix);
    return;
  }
  w.symbol(GENERAL_HEAD);
  w.symbol(shared);
  w.text(suffix);
  w.ascii(0x20);
}

/** UTF-8 bytes of a string from code unit `from` on, without encoding it (nor slicing it). */
export function utf8Length(s: string, from = 0): number {
  let n = 0;
  for (let i = from; i < s.length; i++) {
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

/**
 * A shard's bytes.
 *
 * @example
 * encodeShard([{ term: 'git', postings: [{ ordinal: 0, tf: [1], norm: [5] }] }], postingCoding([5]));
 */
export function encodeShard(lines: readonly Line[], c: PostingCoding): Uint8Array {
  const { flat, starts } = flatLines(lines, c.fields);
  const w = new ByteWriter();
  const bits = new BitWriter(w);
  for (const [i, l] of lines.entries()) {
    writeTermHead(w, l.term, lines[i - 1]?.term ?? '');
    writeLinePostings(flat, c, starts[i]!, starts[i + 1]!, bits);
    w.ascii(0x0a);
  }
  return w.bytes();
}

const TERM = /^[\p{L}\p{N}]+$/u;

export interface ShardBounds {
  key: string;
  /** How the postings are coded (the delta's allows tombstones). */
  coding: PostingCoding;
  /** The manifest's next ordinal: every posting is below it. */
  next: number;
  lower: Key | null;
  upper: Key | null;
}

function badShard(key: string, why: string, line?: number): never {
  const where = line === undefined ? '' : ` line ${line}`;
  throw new InvalidResponse(
    `search shard ${key}${where} ${why}; the search index must be rebuilt (docs.rebuildSearch; CLI: docdb doc search-index --rebuild)`,
    { key, line },
  );
}

/** The term of a line after the line of `prev`, and where its postings start; `bad` if no term head. */
function readTermHead(text: string, prev: string, bad: () => never): { term: string; start: number } {
  const head = text.length > 0 ? text.charCodeAt(0) - 0x21 : -1;
  if (head < 0 || head > GENERAL_HEAD) bad();
  if (head < GENERAL_HEAD) {
    const shared = Math.floor(head / COMPACT_SUFFIX);
    const start = 1 + (head % COMPACT_SUFFIX);
    if (shared > prev.length || start > text.length) bad();
    return { term: prev.slice(0, shared) + text.slice(1, start), start };
  }
  const shared = text.length > 1 ? text.charCodeAt(1) - 0x21 : -1;
  const space = text.indexOf(' ', 2);
  if (shared < 0 || shared >= SYMBOL_COUNT || shared > prev.length || space < 0) bad();
  return { term: prev.slice(0, shared) + text.slice(2, space), start: space + 1 };
}

/** One line after the line of `prev`, checked: a well-formed term, postings that decode. */
function parseLine(text: string, prev: string, n: number, b: ShardBounds): Line {
  const { term, start } = readTermHead(text, prev, () =>
    badShard(b.key, 'does not start with a term head (the prefix shared with the previous term, the rest)', n),
  );
  if (!TERM.test(term) || codePoints(term) > MAX_TOKEN_CHARS) badShard(b.key, 'does not hold a term', n);
  const bad = (why: string) => badShard(b.key, why, n);
  return { term, postings: readLinePostings(text, start, text.length, b.coding, b.next, bad) };
}

/**
 * Parse a shard read back from the section (untrusted): terms strictly increasing, every posting within
 * the shard's bounds and below the next ordinal. Anything else is `InvalidResponse` naming the key.
 *
 * @example
 * const lines = parseShard(bytes, { key, coding: codingOf(m), next: m.next, lower: null, upper: null });
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
  return parseShard(bytes, { key, coding: codingOf(m), next: m.next, lower: m.shards[i]!.lower, upper });
}

/**
 * How the postings of the type of `m` are coded (`tombstones`: the delta's).
 *
 * @example
 * codingOf(m).bases; // m.norms
 */
export function codingOf(m: SearchManifest, tombstones = false): PostingCoding {
  return postingCoding(m.norms, tombstones);
}
