/**
 * Postings as a bit stream written in printable text (docs/search.md "Stored format"). A posting holds
 * ~11 bits of information on average; writing each number in whole characters spent ~23. So a line's
 * postings are one stream of variable-length codes, packed 13 bits to a pair of symbols (94² = 8,836 ≥
 * 2^13: 6.5 bits a character of the 6.55 printable ASCII holds), a last group of ≤ 6 bits in one symbol.
 * Shards stay valid UTF-8 text (GraphQL's `Blob.text` is null for binary blobs).
 *
 * Codes (every one is a run of 1s ended by a 0 and then plain bits, so the padding of a line's last
 * group — all 1s — can never be read as a code: a reader stops where only 1s are left):
 * - gamma(x ≥ 1): ⌊log2 x⌋ ones, a zero, the low ⌊log2 x⌋ bits of x;
 * - expGolomb(v ≥ 0, k): gamma(⌊v / 2^k⌋ + 1), then the low k bits of v (k chosen per line, as a
 *   Rice parameter is: the gaps of a frequent term are small, those of a rare term large).
 */
import type { ByteWriter } from './codec.js';

const FIRST = 0x21;
/** Symbols of the printable alphabet (`!`..`~`). */
const SYMBOLS = 94;
/** Bits a pair of symbols carries. */
const PAIR_BITS = 13;
/** Bits a last lone symbol carries. */
const LONE_BITS = 6;
/** Longest run of ones a gamma code may start with (values below 2^31). */
const MAX_GAMMA_ONES = 31;

/** ⌊log2 x⌋ for x ≥ 1. */
export function log2Floor(x: number): number {
  return x < 2 ** 31 ? 31 - Math.clz32(x) : Math.floor(Math.log2(x));
}

/**
 * Bits of gamma(x), x ≥ 1.
 *
 * @example
 * gammaBits(1); // 1
 * gammaBits(5); // 5
 */
export function gammaBits(x: number): number {
  return 2 * log2Floor(x) + 1;
}

/**
 * Bits of expGolomb(v, k).
 *
 * @example
 * expGolombBits(0, 3); // 4
 */
export function expGolombBits(v: number, k: number): number {
  return gammaBits(shiftDown(v, k) + 1) + k;
}

/** ⌊v / 2^k⌋ for v ≥ 0 (a shift below 2^31; `2 ** k` is a call to Math.pow, slow per posting). */
function shiftDown(v: number, k: number): number {
  return v < 2 ** 31 ? v >>> k : Math.floor(v / 2 ** k);
}

/** gamma(x) as one number of 2n + 1 bits, n = ⌊log2 x⌋ < 8: n ones, a zero, x's low n bits. */
function smallGamma(x: number, n: number): number {
  return (((1 << n) - 1) << (n + 1)) | (x & ((1 << n) - 1));
}

/** 2^n − 1: n ones. */
function onesOf(n: number): number {
  return n < 31 ? (1 << n) - 1 : 2 ** n - 1;
}

/**
 * Characters a stream of `bits` bits takes.
 *
 * @example
 * streamChars(13); // 2
 * streamChars(19); // 3
 */
export function streamChars(bits: number): number {
  const rest = bits % PAIR_BITS;
  return 2 * Math.floor(bits / PAIR_BITS) + (rest === 0 ? 0 : rest <= LONE_BITS ? 1 : 2);
}

/** Writes codes into a ByteWriter, 13 bits to a pair of symbols; `end()` pads and flushes a line's stream. */
export class BitWriter {
  private acc = 0;
  private held = 0;

  constructor(private readonly out: ByteWriter) {}

  /** The low `n` (≤ 32) bits of `v` (a whole number ≥ 0), high bit first. */
  bits(v: number, n: number): void {
    if (n > 18) {
      this.bits(Math.floor(v / 65536), n - 16);
      this.bits(v, 16);
      return;
    }
    // Integer ops only: acc < 2^13 before, so below 2^31 after. `&` keeps v's low bits even past 2^31.
    this.acc = (this.acc << n) | (v & ((1 << n) - 1));
    this.held += n;
    while (this.held >= PAIR_BITS) {
      this.held -= PAIR_BITS;
      const group = this.acc >>> this.held;
      this.acc &= (1 << this.held) - 1;
      this.out.pair(group, SYMBOLS);
    }
  }

  /** gamma(x), x ≥ 1. */
  gamma(x: number): void {
    const n = log2Floor(x);
    if (n < 8) {
      this.bits(smallGamma(x, n), 2 * n + 1);
      return;
    }
    this.bits(onesOf(n), n);
    this.bits(0, 1);
    this.bits(x, n);
  }

  /** expGolomb(v, k). */
  expGolomb(v: number, k: number): void {
    const q = shiftDown(v, k) + 1;
    const n = log2Floor(q);
    if (2 * n + 1 + k <= 18 && v < 2 ** 31) {
      // One call for the usual case (the build writes ~700,000 of these for 10,000 documents).
      this.bits((smallGamma(q, n) << k) | (v & ((1 << k) - 1)), 2 * n + 1 + k);
      return;
    }
    this.gamma(q);
    this.bits(v, k);
  }

  /**
   * expGolomb(v, k), a 0 bit, gamma(x): a posting of the usual shape (postings.ts) — its gap, its shape
   * bit, its one norm — in one call when the three fit 18 bits, as most do (a build writes ~700,000;
   * three calls each were most of encoding them).
   */
  usualPosting(v: number, k: number, x: number): void {
    const q = shiftDown(v, k) + 1;
    const n = log2Floor(q);
    const m = log2Floor(x);
    const len = 2 * n + 1 + k + 1 + 2 * m + 1;
    if (len <= 18 && v < 2 ** 31) {
      const gap = (smallGamma(q, n) << k) | (v & ((1 << k) - 1));
      this.bits((gap << (2 * m + 2)) | smallGamma(x, m), len);
      return;
    }
    this.expGolomb(v, k);
    this.bits(0, 1);
    this.gamma(x);
  }

  /** Pad the last group with ones and write it: one symbol for ≤ 6 bits, else a pair. */
  end(): void {
    if (this.held === 0) return;
    const width = this.held <= LONE_BITS ? LONE_BITS : PAIR_BITS;
    const pad = width - this.held;
    const group = (this.acc << pad) | ((1 << pad) - 1);
    if (width === LONE_BITS) this.out.symbol(group);
    else {
      this.out.symbol((group / SYMBOLS) | 0);
      this.out.symbol(group % SYMBOLS);
    }
    this.acc = 0;
    this.held = 0;
  }
}

/** The bits of one line's stream, unpacked once (a reused buffer: one line is read at a time). */
let unpacked = new Uint8Array(1 << 12);

/** Reads the codes of a stream written by BitWriter; `bad` says why the text is not such a stream. */
export class BitReader {
  private pos = 0;
  private readonly length: number;
  /** After this bit only padding (ones) is left. */
  private readonly lastZero: number;

  constructor(text: string, start: number, end: number, bad: (why: string) => never) {
    this.bad = bad;
    const chars = end - start;
    const total = PAIR_BITS * (chars >> 1) + (chars & 1 ? LONE_BITS : 0);
    if (unpacked.length < total) unpacked = new Uint8Array(Math.max(total, unpacked.length * 2));
    let at = 0;
    for (let i = start; i < end; i += 2) {
      const hi = this.symbolAt(text, i);
      let group: number;
      let width: number;
      if (i + 1 === end) {
        if (hi >= 1 << LONE_BITS) bad('ends with a symbol outside a last group');
        group = hi;
        width = LONE_BITS;
      } else {
        group = hi * SYMBOLS + this.symbolAt(text, i + 1);
        if (group >= 1 << PAIR_BITS) bad('holds a pair of symbols outside the posting code');
        width = PAIR_BITS;
      }
      for (let b = width - 1; b >= 0; b--) unpacked[at++] = (group >> b) & 1;
    }
    let lastZero = total - 1;
    while (lastZero >= 0 && unpacked[lastZero] === 1) lastZero--;
    this.length = total;
    this.lastZero = lastZero;
  }

  private readonly bad: (why: string) => never;

  private symbolAt(text: string, i: number): number {
    const d = text.charCodeAt(i) - FIRST;
    if (d < 0 || d >= SYMBOLS) this.bad('holds a character outside the posting alphabet');
    return d;
  }

  /** Whether only padding is left. */
  get done(): boolean {
    return this.pos > this.lastZero;
  }

  /** `n` bits as a number, high bit first. */
  bits(n: number): number {
    if (this.pos + n > this.length) this.bad('ends inside a posting');
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + unpacked[this.pos++]!;
    return v;
  }

  /** A gamma code's value (≥ 1). */
  gamma(): number {
    let n = 0;
    while (this.bits(1) === 1) if (++n > MAX_GAMMA_ONES) this.bad('holds a number too large');
    return onesOf(n) + 1 + this.bits(n);
  }

  /** An expGolomb code's value with parameter k. */
  expGolomb(k: number): number {
    return (this.gamma() - 1) * (onesOf(k) + 1) + this.bits(k);
  }
}
