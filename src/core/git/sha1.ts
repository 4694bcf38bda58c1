/**
 * SHA-1 for git object ids: the platform's implementation wherever one is reachable.
 *
 * - Node (and Deno/Bun with Node compatibility): `node:crypto` `createHash('sha1')`, synchronous and
 *   ~20× faster than JavaScript. It is reached through `process.getBuiltinModule` (Node ≥ 20.16) so the
 *   browser bundle never imports `node:crypto`.
 * - Browsers: `crypto.subtle.digest('SHA-1')` is async-only, so {@link sha1HexAsync} uses it; the
 *   synchronous {@link sha1Hex} falls back to the portable implementation below, because git object ids
 *   are needed on synchronous paths (building trees locally, comparing blob SHAs before deciding what to
 *   write). Git uses SHA-1 for object names; nothing here is security-sensitive.
 */
import { concatBytes } from '../bytes.js';

type NodeHash = { update(data: Uint8Array): NodeHash; digest(encoding: 'hex'): string };
type NodeCrypto = { createHash(algorithm: 'sha1'): NodeHash };

let nodeCrypto: NodeCrypto | null | undefined;

/** `node:crypto` when the host offers it synchronously, else null (looked up once). */
function platformCrypto(): NodeCrypto | null {
  if (nodeCrypto !== undefined) return nodeCrypto;
  nodeCrypto = null;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
    if (mod && typeof mod.createHash === 'function') nodeCrypto = mod;
  } catch {
    nodeCrypto = null;
  }
  return nodeCrypto;
}

/** Which implementation {@link sha1Hex} uses here (`'node'` or `'js'`); for benchmarks and tests. */
export function sha1Implementation(): 'node' | 'js' {
  return platformCrypto() ? 'node' : 'js';
}

/**
 * Hex SHA-1 digest of `data` (synchronous).
 *
 * @example
 * sha1Hex(new TextEncoder().encode('abc')) // 'a9993e364706816aba3e25717850c26c9cd0d89d'
 */
export function sha1Hex(data: Uint8Array): string {
  const c = platformCrypto();
  return c ? c.createHash('sha1').update(data).digest('hex') : sha1HexJs(data);
}

/**
 * Hex SHA-1 digest of the concatenation of `parts`, without copying them into one buffer first
 * (a git object is `<header><body>`; the body can be megabytes).
 *
 * @example
 * sha1HexParts([utf8('blob 3\0'), utf8('abc')]) === sha1Hex(utf8('blob 3\0abc'))
 */
export function sha1HexParts(parts: readonly Uint8Array[]): string {
  const c = platformCrypto();
  if (c) {
    const h = c.createHash('sha1');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  }
  return sha1HexJs(concatBytes(parts));
}

/**
 * Hex SHA-1 digest, asynchronously: `node:crypto` in Node, WebCrypto (`crypto.subtle`) in browsers,
 * the portable implementation only when neither exists (e.g. an insecure-context page).
 *
 * @example
 * await sha1HexAsync(new TextEncoder().encode('abc')) // 'a9993e364706816aba3e25717850c26c9cd0d89d'
 */
export async function sha1HexAsync(data: Uint8Array): Promise<string> {
  if (platformCrypto()) return sha1Hex(data);
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle) {
    const digest = new Uint8Array(await subtle.digest('SHA-1', data as Uint8Array<ArrayBuffer>));
    let s = '';
    for (const b of digest) s += b.toString(16).padStart(2, '0');
    return s;
  }
  return sha1HexJs(data);
}

const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/**
 * Portable SHA-1 in plain TypeScript (the synchronous fallback where no platform hash is reachable).
 * Exported so tests can check it against the platform on the same inputs.
 */
export function sha1HexJs(data: Uint8Array): string {
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const bitLen = data.length * 8;
  // Padding: 0x80, zeros, then the 64-bit big-endian bit length; total a multiple of 64 bytes.
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 0x100000000));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const w = new Uint32Array(80);
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number);
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = K[0] as number;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = K[1] as number;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = K[2] as number;
      } else {
        f = b ^ c ^ d;
        k = K[3] as number;
      }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + (w[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}
