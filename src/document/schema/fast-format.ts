/**
 * `format` checks for the fast path (fast-path.ts) without allocating: the library's `date-time` splits the
 * string and matches two regular expressions (arrays and substrings per value), which made it a fifth of a
 * 10,000-document write's validation (bench/guarded-write.ts). Here the common RFC 3339 shape is accepted
 * by reading its characters; anything else — a leap second, a lower-case separator, another shape — goes to
 * the library's own check, so the verdict is always the library's (a property test compares them).
 */
import { format } from '@cfworker/json-schema';

type StringCheck = (s: string) => boolean;

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const ZERO = 48;

/** The digits at `s[i..i+n)` as a number, or -1 when one of them is not an ASCII digit. */
function digits(s: string, i: number, n: number): number {
  let out = 0;
  for (let j = i; j < i + n; j++) {
    const d = s.charCodeAt(j) - ZERO;
    if (d < 0 || d > 9) return -1;
    out = out * 10 + d;
  }
  return out;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` with every field in range and seconds below 60: a string the
 * library's `date-time` accepts. False means "not this shape", not "invalid".
 */
function plainDateTime(s: string): boolean {
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (DAYS[month] as number))) return false;
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    const start = ++i;
    while (i < n && digits(s, i, 1) >= 0) i++;
    if (i === start) return false;
  }
  const zone = s.charCodeAt(i);
  if (zone === 90) return i + 1 === n; // Z
  if (zone !== 43 && zone !== 45) return false; // + or -
  if (i + 6 !== n || s.charCodeAt(i + 3) !== 58) return false;
  const oh = digits(s, i + 1, 2);
  const om = digits(s, i + 4, 2);
  return oh >= 0 && oh <= 23 && om >= 0 && om <= 59;
}

/**
 * The check of one `format` for the fast path (undefined: a format the library does not know, which
 * checks nothing).
 *
 * @example
 * fastFormat('date-time')?.('2026-01-02T03:04:05Z'); // true
 */
export function fastFormat(name: string): StringCheck | undefined {
  const library = (format as Record<string, StringCheck | undefined>)[name];
  if (!library) return undefined;
  if (name === 'date-time') return (s) => plainDateTime(s) || library(s);
  return library;
}
