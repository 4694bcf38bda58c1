/**
 * SHA-1 in plain TypeScript, synchronous, identical in Node and browsers.
 *
 * Why not WebCrypto: `crypto.subtle.digest` is async-only, and git object ids are needed on hot,
 * synchronous paths (building trees, comparing blob SHAs before deciding whether to write). Git
 * itself uses SHA-1 for object names; this is not used for anything security-sensitive.
 */

const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/**
 * Hex SHA-1 digest of `data`.
 *
 * @example
 * sha1Hex(new TextEncoder().encode('abc')) // 'a9993e364706816aba3e25717850c26c9cd0d89d'
 */
export function sha1Hex(data: Uint8Array): string {
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
