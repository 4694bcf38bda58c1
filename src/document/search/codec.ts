/**
 * The printable encoding of postings (docs/search.md "Stored format"). Shards are ASCII text so that
 * they diff, display and travel like every other file of the section; numbers are written with 94
 * printable symbols (`!`..`~`): a number below 62 is one terminal symbol; a larger one is a
 * continuation symbol (62..93, carrying (v − 62) mod 32) followed by the rest, ⌊(v − 62) / 32⌋. Values
 * below 62 take one character, below 2,046 two, below 65,534 three.
 *
 * A field's length is stored as one NORM symbol (Lucene's norms idea): its level in a table of lower
 * bounds — exact up to 15 tokens, then steps of 12 % — so ranking needs no other file, and the oracle
 * quantizes the same way.
 */

const FIRST = 0x21;
/** Symbols: 94 printable characters. */
export const SYMBOL_COUNT = 94;
const SYMBOLS = SYMBOL_COUNT;
/** Terminal digits (the last symbol of a number). */
const TERMINAL = 62;
/** Continuation digits. */
const CONTINUE = SYMBOLS - TERMINAL;

/** The 94 symbols as one-character strings (no string is made per digit). */
const CHARS: readonly string[] = Array.from({ length: SYMBOL_COUNT }, (_, i) => String.fromCharCode(FIRST + i));

/**
 * `v` (a non-negative safe integer) as symbols.
 *
 * @example
 * numberText(100); // two characters
 */
export function numberText(v: number): string {
  if (v < TERMINAL) return CHARS[v]!;
  let n = v;
  let out = '';
  while (n >= TERMINAL) {
    n -= TERMINAL;
    out += CHARS[TERMINAL + (n % CONTINUE)];
    n = Math.floor(n / CONTINUE);
  }
  return out + CHARS[n];
}

/** Where a reader of base-47 numbers is in a line; `bad` says why the line is not well formed. */
export class Cursor {
  pos: number;
  constructor(
    readonly text: string,
    start: number,
    readonly bad: (why: string) => never,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** The next number (at most ~2^50: nothing stored comes near it, and larger is damage). */
  number(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.text.length) this.bad('ends inside a number');
      const d = this.text.charCodeAt(this.pos++) - FIRST;
      if (d < 0 || d >= SYMBOLS) this.bad('holds a character outside the posting alphabet');
      if (scale > 2 ** 45) this.bad('holds a number too large');
      // v = d0 + 32·(d1 + 32·(…)) with every continuation digit d ≥ 62 standing for itself.
      v += d * scale;
      if (d < TERMINAL) return v;
      scale *= CONTINUE;
    }
  }

  /** The next single character as a symbol 0..93. */
  symbol(): number {
    if (this.pos >= this.text.length) this.bad('ends before a norm symbol');
    const d = this.text.charCodeAt(this.pos++) - FIRST;
    if (d < 0 || d >= SYMBOLS) this.bad('holds a character outside the posting alphabet');
    return d;
  }
}

/** Lower bounds of the norm levels: 0..15 exact, then ×1.12 (rounded up, distinct) past 100,000. */
export const NORM_LEVELS: readonly number[] = (() => {
  const out: number[] = [];
  for (let i = 0; i < 16; i++) out.push(i);
  let x = 16;
  while (x <= 100_000) {
    out.push(x);
    x = Math.max(x + 1, Math.ceil(x * 1.12));
  }
  return out;
})();

/**
 * The norm symbol of a field of `length` tokens: the highest level whose lower bound ≤ length.
 *
 * @example
 * normOf(7); // 7
 * normLength(normOf(1000)); // a length within 12 % below 1000
 */
export function normOf(length: number): number {
  let lo = 0;
  let hi = NORM_LEVELS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (NORM_LEVELS[mid]! <= length) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The field length a norm symbol stands for (its level's lower bound).
 *
 * @example
 * normLength(3); // 3
 */
export function normLength(symbol: number): number {
  return NORM_LEVELS[symbol]!;
}

/**
 * Characters `numberText(v)` has.
 *
 * @example
 * numberLength(61); // 1
 * numberLength(62); // 2
 */
export function numberLength(v: number): number {
  let n = 1;
  for (let x = v; x >= TERMINAL; x = Math.floor((x - TERMINAL) / CONTINUE)) n++;
  return n;
}

/**
 * A growing byte buffer that shards are written into directly: symbols are single ASCII bytes, so a
 * shard is encoded without building strings (a 10,000-document build spent most of its time
 * concatenating them).
 */
export class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /** One symbol 0..93. */
  symbol(s: number): void {
    this.room(1);
    this.buf[this.length++] = FIRST + s;
  }

  /** `group` (< radix²) as two symbols: ⌊group / radix⌋, then group mod radix (one bound check, not two). */
  pair(group: number, radix: number): void {
    this.room(2);
    this.buf[this.length++] = FIRST + ((group / radix) | 0);
    this.buf[this.length++] = FIRST + (group % radix);
  }

  /** One raw ASCII byte (space, newline). */
  ascii(code: number): void {
    this.room(1);
    this.buf[this.length++] = code;
  }

  /** A number as numberText writes it. */
  number(v: number): void {
    this.room(8);
    let n = v;
    while (n >= TERMINAL) {
      n -= TERMINAL;
      this.buf[this.length++] = FIRST + TERMINAL + (n % CONTINUE);
      n = Math.floor(n / CONTINUE);
    }
    this.buf[this.length++] = FIRST + n;
  }

  /** Bytes `from` ≤ i < `to` of `src`, as they are. */
  raw(src: Uint8Array, from: number, to: number): void {
    this.room(to - from);
    this.buf.set(src.subarray(from, to), this.length);
    this.length += to - from;
  }

  /** The bytes written so far, not copied (valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** Well-formed text as UTF-8. */
  text(s: string): void {
    this.room(s.length * 3);
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) this.buf[this.length++] = c;
      else if (c < 0x800) {
        this.buf[this.length++] = 0xc0 | (c >> 6);
        this.buf[this.length++] = 0x80 | (c & 63);
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
        this.buf[this.length++] = 0xf0 | (c >> 18);
        this.buf[this.length++] = 0x80 | ((c >> 12) & 63);
        this.buf[this.length++] = 0x80 | ((c >> 6) & 63);
        this.buf[this.length++] = 0x80 | (c & 63);
      } else {
        this.buf[this.length++] = 0xe0 | (c >> 12);
        this.buf[this.length++] = 0x80 | ((c >> 6) & 63);
        this.buf[this.length++] = 0x80 | (c & 63);
      }
    }
  }

  /** The bytes written (a copy the size of the content). */
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
