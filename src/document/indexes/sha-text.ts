/**
 * A blob SHA as an index row stores it since format 2: the 20 bytes in base64url, 27 characters instead of
 * 40 hex (rows carry one per run, so this is ~13 bytes a run off every document of a first write). Written
 * by hand rather than with Buffer: the index core also runs in the browser client.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Character code → its 6-bit value (tables, not a Map: every row read back converts one SHA). */
const VALUE = new Uint8Array(128).fill(255);
for (const [i, c] of [...ALPHABET].entries()) VALUE[c.charCodeAt(0)] = i;
/** 12-bit value → its 2 characters. */
const PAIR = Array.from({ length: 4096 }, (_, v) => ALPHABET[v >> 6]! + ALPHABET[v & 63]!);
/** 12-bit value → its 3 hex digits. */
const HEX3 = Array.from({ length: 4096 }, (_, v) => v.toString(16).padStart(3, '0'));
const HEX = /^[0-9a-f]{40}$/;

/**
 * The 27-character base64url spelling of a 40-hex SHA.
 *
 * @example
 * shaToText('0123456789abcdef0123456789abcdef01234567'); // 'ASNFZ4mrze8BI0VniavN7wEjRWc'
 */
export function shaToText(hex: string): string {
  if (!HEX.test(hex)) throw new TypeError(`not a 40-hex SHA: ${hex}`);
  let out = '';
  // 160 bits = 26 groups of 6 and 4 left: read 3 hex digits (12 bits) at a time, 2 characters each.
  for (let i = 0; i < 39; i += 3) out += PAIR[Number.parseInt(hex.slice(i, i + 3), 16)]!;
  return out + ALPHABET[Number.parseInt(hex[39]!, 16) << 2]!;
}

/**
 * The 40-hex SHA of a stored spelling, or undefined when `text` is not one (untrusted input).
 *
 * @example
 * textToSha('ASNFZ4mrze8BI0VniavN7wEjRWc'); // '0123456789abcdef0123456789abcdef01234567'
 */
export function textToSha(text: string): string | undefined {
  if (text.length !== 27) return undefined;
  let bad = 0;
  let out = '';
  for (let i = 0; i < 26; i += 2) {
    const a = VALUE[text.charCodeAt(i)] ?? 255;
    const b = VALUE[text.charCodeAt(i + 1)] ?? 255;
    bad |= a | b;
    out += HEX3[((a & 63) << 6) | (b & 63)];
  }
  const last = VALUE[text.charCodeAt(26)] ?? 255;
  // 26 characters of 6 bits and a last one of 4 (its 2 low bits zero): exactly one spelling per SHA.
  if (bad > 63 || last > 63 || (last & 3) !== 0) return undefined;
  return out + HEX3[last >> 2]!.slice(2);
}

/**
 * Whether `text` is a SHA's stored spelling (27 characters of the alphabet, the last with its 2 low bits
 * zero), without spelling it in hex.
 *
 * @example
 * isShaText('ASNFZ4mrze8BI0VniavN7wEjRWc'); // true
 */
export function isShaText(text: string): boolean {
  if (text.length !== 27) return false;
  let bad = 0;
  for (let i = 0; i < 27; i++) bad |= VALUE[text.charCodeAt(i)] ?? 255;
  return bad <= 63 && (VALUE[text.charCodeAt(26)]! & 3) === 0;
}
