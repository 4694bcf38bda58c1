/**
 * A blob SHA as an index row stores it since format 2: the 20 bytes in base64url, 27 characters instead of
 * 40 hex (rows carry one per run, so this is ~13 bytes a run off every document of a first write). Written
 * by hand rather than with Buffer: the index core also runs in the browser client.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));
const HEX = /^[0-9a-f]{40}$/;
/** 26 characters of 6 bits and a last one of 4 (its 2 low bits zero): exactly one spelling per SHA. */
const SHA64 = /^[A-Za-z0-9_-]{26}[AEIMQUYcgkosw048]$/;

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
  for (let i = 0; i < 39; i += 3) {
    const v = Number.parseInt(hex.slice(i, i + 3), 16);
    out += ALPHABET[v >> 6]! + ALPHABET[v & 63]!;
  }
  return out + ALPHABET[Number.parseInt(hex[39]!, 16) << 2]!;
}

/**
 * The 40-hex SHA of a stored spelling, or undefined when `text` is not one (untrusted input).
 *
 * @example
 * textToSha('ASNFZ4mrze8BI0VniavN7wEjRWc'); // '0123456789abcdef0123456789abcdef01234567'
 */
export function textToSha(text: string): string | undefined {
  if (!SHA64.test(text)) return undefined;
  let out = '';
  for (let i = 0; i < 26; i += 2) {
    const v = (VALUE.get(text[i]!)! << 6) | VALUE.get(text[i + 1]!)!;
    out += v.toString(16).padStart(3, '0');
  }
  return out + (VALUE.get(text[26]!)! >> 2).toString(16);
}
