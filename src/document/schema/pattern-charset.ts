/**
 * Character sets for the pattern guard: which characters one regex atom can match, as sorted code point
 * ranges. `ANY` stands for "could be anything": unicode property escapes and whatever the guard does not
 * model. Every rule that uses these sets asks "are these two sets disjoint?", so a set that is too large only
 * ever makes the guard refuse more — and the complement of `ANY` is `ANY` too, never an under-estimate.
 */

export type Range = readonly [number, number];
export const ANY = 'any';
export type CharSet = readonly Range[] | typeof ANY;

export const EMPTY: CharSet = [];
const MAX_CP = 0x10ffff;

const r = (lo: string, hi = lo): Range => [lo.codePointAt(0)!, hi.codePointAt(0)!];
const DIGIT: CharSet = [r('0', '9')];
const WORD: CharSet = normalize([r('0', '9'), r('A', 'Z'), r('_'), r('a', 'z')]);
// What \s matches in ECMAScript: WhiteSpace and LineTerminator.
const SPACE: CharSet = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);

/** Sorts and merges ranges. */
function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function single(cp: number): CharSet {
  return [[cp, cp]];
}

export function union(a: CharSet, b: CharSet): CharSet {
  if (a === ANY || b === ANY) return ANY;
  return normalize([...a, ...b]);
}

export function complement(a: CharSet): CharSet {
  if (a === ANY) return ANY;
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of a) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

/** True only when no character is in both sets (`ANY` overlaps everything, even the empty set's neighbours). */
export function disjoint(a: CharSet, b: CharSet): boolean {
  if (a === ANY) return b !== ANY && b.length === 0;
  if (b === ANY) return a.length === 0;
  return a.every(([lo, hi]) => b.every(([blo, bhi]) => hi < blo || bhi < lo));
}

/** `\d \D \w \W \s \S`, or undefined for any other letter. */
export function classEscape(letter: string): CharSet | undefined {
  const base = { d: DIGIT, w: WORD, s: SPACE }[letter.toLowerCase()];
  if (!base) return undefined;
  return letter === letter.toLowerCase() ? base : complement(base);
}

const CONTROL: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, f: 0x0c, '0': 0 };

/**
 * Reads the escape at `src[i] === '\\'` (outside or inside a class) and returns the set it matches and the
 * index after it. `\b` is backspace here (inside a class); the parser handles `\b` / `\B` assertions itself.
 */
export function readEscape(src: string, i: number): { set: CharSet; end: number } {
  const c = src[i + 1]!;
  const cls = classEscape(c);
  if (cls) return { set: cls, end: i + 2 };
  if ((c === 'p' || c === 'P') && src[i + 2] === '{') return { set: ANY, end: src.indexOf('}', i) + 1 };
  if (c in CONTROL) return { set: single(CONTROL[c]!), end: i + 2 };
  if (c === 'b') return { set: single(8), end: i + 2 };
  if (c === 'c') return { set: single(src.charCodeAt(i + 2) % 32), end: i + 3 };
  if (c === 'x') return { set: single(Number.parseInt(src.slice(i + 2, i + 4), 16)), end: i + 4 };
  if (c === 'u' && src[i + 2] === '{') {
    const close = src.indexOf('}', i);
    return { set: single(Number.parseInt(src.slice(i + 3, close), 16)), end: close + 1 };
  }
  if (c === 'u') return readUnicodeEscape(src, i);
  // An identity escape of a syntax character (`\.`, `\-`, `\/`...): that character.
  const cp = src.codePointAt(i + 1)!;
  return { set: single(cp), end: i + 1 + String.fromCodePoint(cp).length };
}

/** `\uXXXX`, joining a `\uD83D\uDE00` surrogate pair into one code point as the `u` flag does. */
function readUnicodeEscape(src: string, i: number): { set: CharSet; end: number } {
  const hi = Number.parseInt(src.slice(i + 2, i + 6), 16);
  const lo = /^\\u([0-9a-fA-F]{4})/.exec(src.slice(i + 6));
  if (hi >= 0xd800 && hi <= 0xdbff && lo) {
    const low = Number.parseInt(lo[1]!, 16);
    if (low >= 0xdc00 && low <= 0xdfff) {
      return { set: single((hi - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000), end: i + 12 };
    }
  }
  return { set: single(hi), end: i + 6 };
}

/** Reads the class `[...]` starting at `src[i] === '['`: its set and the index after the `]`. */
export function readClass(src: string, i: number): { set: CharSet; end: number } {
  let j = i + 1;
  const negated = src[j] === '^';
  if (negated) j++;
  let set: CharSet = EMPTY;
  while (j < src.length && src[j] !== ']') {
    const from = readClassAtom(src, j);
    j = from.end;
    if (src[j] === '-' && src[j + 1] !== ']' && j + 1 < src.length) {
      const to = readClassAtom(src, j + 1);
      j = to.end;
      set = union(set, rangeBetween(from.set, to.set));
    } else {
      set = union(set, from.set);
    }
  }
  return { set: negated ? complement(set) : set, end: j + 1 };
}

function readClassAtom(src: string, j: number): { set: CharSet; end: number } {
  if (src[j] === '\\') return readEscape(src, j);
  const cp = src.codePointAt(j)!;
  return { set: single(cp), end: j + String.fromCodePoint(cp).length };
}

/** `a-z`: both ends are single characters (the `u` flag refuses `\d-z`); anything else is `ANY`. */
function rangeBetween(from: CharSet, to: CharSet): CharSet {
  if (from === ANY || to === ANY || from.length !== 1 || to.length !== 1) return ANY;
  const [lo] = from[0]!;
  const [hi] = to[0]!;
  return lo === from[0]![1] && hi === to[0]![1] && lo <= hi ? [[lo, hi]] : ANY;
}
