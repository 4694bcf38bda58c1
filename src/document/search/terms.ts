/**
 * A build's term dictionary: term → id in an open-addressing table keyed by the term's code units, so
 * an ASCII field is tokenized by scanning it in place — a token already seen costs a hash and a compare,
 * not a string (a 10,000-document build meets ~880,000 tokens of ~47,000 distinct terms; making each a
 * string was most of the build's remaining allocation).
 */
import { MAX_TOKEN_CHARS, tokenize } from './text.js';

const A = 65;
const Z = 90;
const LOWER = 32;

/** ASCII letters and digits: the ASCII characters of `\p{L}` and `\p{N}` (text.test.ts checks all 128). */
function isAsciiWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= A && c <= Z);
}

const ASCII = /^[\x00-\x7f]*$/;

/** Term ids in order of first use; `terms[id]` is the term. */
export class TermTable {
  readonly terms: string[] = [];
  private slots = new Int32Array(1 << 16);
  private hashes = new Int32Array(1 << 16);

  /**
   * Ids of the tokens of `text` (tokenize's tokens, in order) passed to `each`; the token count.
   *
   * @example
   * table.tokens('To be, or NOT', (id) => ids.push(id)); // 4; table.terms: ['to', 'be', 'or', 'not']
   */
  tokens(text: string, each: (id: number) => void): number {
    if (!ASCII.test(text)) {
      const tokens = tokenize(text);
      for (const t of tokens) each(this.idOf(t, 0, t.length, false));
      return tokens.length;
    }
    let n = 0;
    for (let i = 0; i < text.length; ) {
      if (!isAsciiWordChar(text.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i;
      while (i < text.length && isAsciiWordChar(text.charCodeAt(i))) i++;
      if (i - start > MAX_TOKEN_CHARS) continue;
      each(this.idOf(text, start, i, true));
      n++;
    }
    return n;
  }

  /**
   * The id of `text[start, end)` with A–Z lower-cased, added if new. `ascii`: the slice is ASCII and is
   * lower-cased when added; else it is a token of tokenize (lower-cased already) and added as it is.
   */
  private idOf(text: string, start: number, end: number, ascii: boolean): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      h = Math.imul(h ^ (c >= A && c <= Z ? c + LOWER : c), 0x01000193);
    }
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]! - 1;
      if (id < 0) {
        const slice = text.slice(start, end);
        return this.insert(s, h, ascii ? slice.toLowerCase() : slice);
      }
      if (this.hashes[s] === h && this.equals(this.terms[id]!, text, start, end)) return id;
    }
  }

  private equals(term: string, text: string, start: number, end: number): boolean {
    if (term.length !== end - start) return false;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (term.charCodeAt(i - start) !== (c >= A && c <= Z ? c + LOWER : c)) return false;
    }
    return true;
  }

  private insert(slot: number, h: number, term: string): number {
    const id = this.terms.length;
    this.terms.push(term);
    this.slots[slot] = id + 1;
    this.hashes[slot] = h;
    // Half full at most, so probes stay short.
    if (this.terms.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = { slots: this.slots, hashes: this.hashes };
    this.slots = new Int32Array(old.slots.length * 2);
    this.hashes = new Int32Array(old.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let s = 0; s < old.slots.length; s++) {
      if (old.slots[s] === 0) continue;
      let t = old.hashes[s]! & mask;
      while (this.slots[t] !== 0) t = (t + 1) & mask;
      this.slots[t] = old.slots[s]!;
      this.hashes[t] = old.hashes[s]!;
    }
  }
}
