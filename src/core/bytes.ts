/**
 * Small byte helpers shared by every layer. Platform APIs (`Buffer`, `btoa`/`atob`) are read lazily and
 * used when present; portable fallbacks keep every host working.
 */

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 encode a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * True when `bytes` are valid UTF-8: the platform's check where there is one (`isUtf8` of `node:buffer`,
 * no string made), else a strict decode.
 *
 * @example
 * isUtf8(utf8('é')); // true
 * isUtf8(new Uint8Array([0xff])); // false
 */
export function isUtf8(bytes: Uint8Array): boolean {
  const check = platformIsUtf8();
  if (check) return check(bytes);
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

let nodeIsUtf8: ((b: Uint8Array) => boolean) | null | undefined;
function platformIsUtf8(): ((b: Uint8Array) => boolean) | null {
  if (nodeIsUtf8 === undefined) {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:buffer') as { isUtf8?: (b: Uint8Array) => boolean } | undefined;
    nodeIsUtf8 = typeof mod?.isUtf8 === 'function' ? mod.isUtf8 : null;
  }
  return nodeIsUtf8;
}

/** Decode UTF-8, throwing `TypeError` on invalid sequences (never silently replaces bytes). */
export function fromUtf8(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

/** Accept `string | Uint8Array` values: strings are stored as their UTF-8 bytes. */
export function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? utf8(value) : value;
}

/** Concatenate byte arrays. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** Node's `Buffer` when present (read lazily, so a browser bundle never needs a polyfill). */
type BufferLike = {
  from(data: Uint8Array | string, encoding?: 'base64'): Uint8Array & { toString(encoding: 'base64'): string };
};
function platformBuffer(): BufferLike | undefined {
  const b = (globalThis as { Buffer?: BufferLike }).Buffer;
  return typeof b?.from === 'function' ? b : undefined;
}

const B64_STRICT = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Standard base64 (with padding): the platform's encoder (`Buffer` in Node, `btoa` in browsers), the
 * portable one only where neither exists.
 *
 * @example
 * toBase64(utf8('hi')) // 'aGk='
 */
export function toBase64(bytes: Uint8Array): string {
  const B = platformBuffer();
  if (B) return B.from(bytes).toString('base64');
  if (typeof btoa === 'function') {
    // btoa takes a binary string; build it in chunks (spreading a huge array overflows the stack).
    const parts: string[] = [];
    for (let i = 0; i < bytes.length; i += 3 * 8192) {
      parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + 3 * 8192))));
    }
    return parts.join('');
  }
  return toBase64Js(bytes);
}

/** Portable base64 encoder (exported for tests that compare it with the platform's). */
export function toBase64Js(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += B64.charAt(n >> 18) + B64.charAt((n >> 12) & 63) + B64.charAt((n >> 6) & 63) + B64.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] as number) << 16;
    out += `${B64.charAt(n >> 18)}${B64.charAt((n >> 12) & 63)}==`;
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8);
    out += `${B64.charAt(n >> 18)}${B64.charAt((n >> 12) & 63)}${B64.charAt((n >> 6) & 63)}=`;
  }
  return out;
}

/**
 * Decode base64, ignoring whitespace (GitHub's blob `content` has a newline every 60 characters).
 * Throws `TypeError` on any other non-alphabet character or bad padding. Validation is a regular
 * expression; the decoding itself is the platform's (`Buffer`/`atob`), which would silently skip junk.
 *
 * @example
 * fromBase64('aG\nk=') // bytes of 'hi'
 */
export function fromBase64(text: string): Uint8Array {
  const clean = /\s/.test(text) ? text.replace(/\s+/g, '') : text;
  if (!B64_STRICT.test(clean)) {
    const stripped = clean.replace(/=+$/, '');
    if (clean.length - stripped.length > 2) throw new TypeError('invalid base64 padding');
    const bad = stripped.search(/[^A-Za-z0-9+/]/);
    throw new TypeError(`invalid base64 character at ${bad}`);
  }
  const B = platformBuffer();
  if (B) {
    const buf = B.from(clean, 'base64');
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  }
  if (typeof atob === 'function' && clean.length % 4 !== 1) {
    const bare = clean.replace(/=+$/, '');
    const bin = atob(bare + '='.repeat((4 - (bare.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  return fromBase64Js(clean);
}

/** Portable base64 decoder (exported for tests). */
export function fromBase64Js(text: string): Uint8Array {
  const clean = text.replace(/[\s]/g, '');
  const stripped = clean.replace(/=+$/, '');
  if (clean.length - stripped.length > 2) throw new TypeError('invalid base64 padding');
  const out = new Uint8Array(Math.floor((stripped.length * 3) / 4));
  let buf = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < stripped.length; i++) {
    const c = stripped.charCodeAt(i);
    const v = c < 128 ? (B64_INDEX[c] as number) : -1;
    if (v < 0) throw new TypeError(`invalid base64 character at ${i}`);
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buf >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, b) => (b + 0x100).toString(16).slice(1));
const HEX_VALUE = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += HEX_DIGITS[b] as string;
  return s;
}

/**
 * Write the bytes of a hex string (even length, validated by the caller) into `out` at `offset`: a git
 * object id goes straight into the tree body being built, with no array or substring per byte.
 *
 * @example
 * hexInto('ff00', out, 4); // out[4] = 255, out[5] = 0
 */
export function hexInto(hex: string, out: Uint8Array, offset: number): void {
  for (let i = 0, j = 0; j < hex.length; i++, j += 2) {
    out[offset + i] =
      ((HEX_VALUE[hex.charCodeAt(j) & 127] as number) << 4) | (HEX_VALUE[hex.charCodeAt(j + 1) & 127] as number);
  }
}

/** Bytes of a hex string (even length, validated by the caller). */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  hexInto(hex, out, 0);
  return out;
}
