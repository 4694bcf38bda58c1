/**
 * A build's term dictionary: term → id in an open-addressing table keyed by the term's code units, so
 * an ASCII field is tokenized by scanning it in place — a token already seen costs a hash and a compare,
 * not a string (a 10,000-document build meets ~880,000 tokens of ~47,000 distinct terms; making each a
 * string was most of the build's remaining allocation).
 *
 * The scan is one pass per character: a token's end is found and its hash computed in the same loop, and
 * its ids go to a reused buffer rather than through a callback (issue 42: the first write with search
 * ≤ 1.3× the CPU without).
 */
import { MAX_TOKEN_CHARS, tokenize } from './text.js';

/**
 * 1 for ASCII letters and digits: the ASCII characters of `\p{L}` and `\p{N}` (text.test.ts checks all
 * 128). Index 0 is 0, so the scan can read a NUL past the text's end as a separator.
 */
const WORD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) WORD[c] = 1;
for (let c = 65; c <= 90; c++) WORD[c] = 1;
for (let c = 97; c <= 122; c++) WORD[c] = 1;

/**
 * An ASCII letter or digit lower-cased: setting bit 5 maps A–Z to a–z and leaves a–z and 0–9 (which have
 * it set) as they are. Only ever applied to {@link WORD} characters.
 */
const lower = (c: number) => c | 32;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const ASCII = /^[\x00-\x7f]*$/;

/** An Int32Array twice as long (at least `need`), holding `a`'s values. */
function grownInt32(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

/**
 * Term ids in order of first use; `terms[id]` is the term.
 *
 * Lookups touch only typed arrays: each slot holds a term's hash next to its id (one cache line, not
 * two), and the terms' code units are packed in one pool, so a token is compared without following a
 * pointer to a string somewhere in the heap — with ~47,000 distinct terms, those misses were most of a
 * lookup's cost.
 *
 * Sized up front from the terms expected: growing a table mid-build runs code the compiler has no
 * feedback for, which throws away the compiled scan (a 10,000-document build lost ~30 ms to one rehash).
 */
export class TermTable {
  readonly terms: string[] = [];
  /**
   * The ids of the last {@link scan}'s tokens, in order: `ids[0 … count)`. Sized for most fields at once,
   * for the same reason.
   */
  ids = new Int32Array(1 << 14);
  /** Per slot: `[hash, id + 1]` (0 = empty). */
  private slots: Int32Array;
  private mask: number;
  /** The terms' code units, one after the other; term `id` is `pool[ends[id − 1] … ends[id])`. */
  private pool: Uint16Array;
  private ends: Int32Array<ArrayBuffer>;

  /** Terms the table holds before it grows (at least the terms expected). */
  get capacity(): number {
    return (this.mask + 1) / 2;
  }

  /** `expectedTerms`: distinct terms the table is sized for (it grows past them). */
  constructor(expectedTerms = 1 << 12) {
    const expected = Math.max(16, Math.min(expectedTerms, 1 << 20));
    // Half full at most, so probes stay short.
    let count = 1 << 4;
    while (count < 2 * expected) count *= 2;
    this.slots = new Int32Array(2 * count);
    this.mask = count - 1;
    // Room for every term the slots take before they are rehashed (then these may grow too).
    this.pool = new Uint16Array(count * 6);
    this.ends = new Int32Array(count / 2);
  }

  /**
   * Tokenize `text` (tokenize's tokens, in order) into {@link ids}; the token count.
   *
   * @example
   * const n = table.scan('To be, or NOT'); // 4; table.ids.subarray(0, n): [0, 1, 2, 3]; table.terms: ['to', 'be', 'or', 'not']
   */
  scan(text: string): number {
    if (!ASCII.test(text)) return this.scanTokens(tokenize(text));
    const len = text.length;
    let n = 0;
    let i = 0;
    while (i < len) {
      let c = text.charCodeAt(i);
      if (WORD[c] === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = FNV_OFFSET;
      do {
        h = Math.imul(h ^ lower(c), FNV_PRIME);
        // Past the end: 0, a separator.
        c = ++i < len ? text.charCodeAt(i) : 0;
      } while (WORD[c] === 1);
      if (i - start > MAX_TOKEN_CHARS) continue;
      if (n === this.ids.length) this.ids = grownInt32(this.ids, n + 1);
      this.ids[n++] = this.idOf(text, start, i, h, 32);
    }
    return n;
  }

  /** The ids of tokens made by tokenize (non-ASCII text: lower-cased and folded already). */
  private scanTokens(tokens: readonly string[]): number {
    if (this.ids.length < tokens.length) this.ids = grownInt32(this.ids, tokens.length);
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      let h = FNV_OFFSET;
      for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), FNV_PRIME);
      this.ids[k] = this.idOf(t, 0, t.length, h, 0);
    }
    return tokens.length;
  }

  /**
   * The id of `text[start, end)` (hash `h`), added if new. `fold` is ORed into each code unit: 32 for an
   * ASCII letter-or-digit run (lower-cases it), 0 for a token of tokenize (taken as it is).
   */
  private idOf(text: string, start: number, end: number, h: number, fold: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = slots[2 * s + 1]! - 1;
      if (id < 0) return this.insert(s, h, text, start, end, fold);
      if (slots[2 * s] === h && this.holds(id, text, start, end, fold)) return id;
    }
  }

  /** Whether term `id` is `text[start, end)` with `fold` applied. */
  private holds(id: number, text: string, start: number, end: number, fold: number): boolean {
    const from = id === 0 ? 0 : this.ends[id - 1]!;
    if (this.ends[id]! - from !== end - start) return false;
    const pool = this.pool;
    for (let k = start; k < end; k++) if (pool[from + k - start] !== (text.charCodeAt(k) | fold)) return false;
    return true;
  }

  private insert(slot: number, h: number, text: string, start: number, end: number, fold: number): number {
    const id = this.terms.length;
    const from = id === 0 ? 0 : this.ends[id - 1]!;
    if (from + end - start > this.pool.length) this.growPool(from + end - start);
    for (let k = start; k < end; k++) this.pool[from + k - start] = text.charCodeAt(k) | fold;
    if (id >= this.ends.length) this.ends = grownInt32(this.ends, id + 1);
    this.ends[id] = from + end - start;
    const slice = text.slice(start, end);
    this.terms.push(fold === 0 ? slice : slice.toLowerCase());
    this.slots[2 * slot] = h;
    this.slots[2 * slot + 1] = id + 1;
    // Half full at most, so probes stay short.
    if (this.terms.length * 2 > this.mask + 1) this.rehash();
    return id;
  }

  private growPool(need: number): void {
    const next = new Uint16Array(Math.max(need, this.pool.length * 2));
    next.set(this.pool);
    this.pool = next;
  }

  private rehash(): void {
    const old = this.slots;
    const count = this.mask + 1;
    this.slots = new Int32Array(old.length * 2);
    this.mask = count * 2 - 1;
    for (let s = 0; s < count; s++) {
      if (old[2 * s + 1] === 0) continue;
      let t = old[2 * s]! & this.mask;
      while (this.slots[2 * t + 1] !== 0) t = (t + 1) & this.mask;
      this.slots[2 * t] = old[2 * s]!;
      this.slots[2 * t + 1] = old[2 * s + 1]!;
    }
  }
}
