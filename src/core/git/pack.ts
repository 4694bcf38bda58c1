/**
 * The pack format, encoding side: a version-2 pack with no deltas (every object whole), the form the
 * git stores send (to `git unpack-objects`/`index-pack` locally, to `git-receive-pack` over smart HTTP).
 * Compression is the caller's (zlib in Node, a portable deflate in browsers), so this file stays pure.
 * Pack format: https://git-scm.com/docs/pack-format
 */
import { concatBytes, fromHex } from '../bytes.js';
import type { ObjectType } from './objects.js';
import { sha1HexParts } from './sha1.js';

/** One object to pack: its type and its body (without the `<type> <size>\0` header). */
export interface RawObject {
  type: ObjectType;
  body: Uint8Array;
}

/** A zlib (RFC 1950) compressor for one object body. */
export type Deflate = (body: Uint8Array) => Uint8Array;

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };

/** Object header of the pack format: type and size as a little-endian base-128 varint. */
export function packObjectHeader(type: ObjectType, size: number): Uint8Array {
  const bytes: number[] = [];
  let c = (TYPE_CODE[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(c | 0x80);
    c = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(c);
  return Uint8Array.from(bytes);
}

/**
 * Encode objects as a version-2 pack with no deltas: `PACK`, version, count, the objects, then the
 * SHA-1 of everything before it.
 *
 * @example
 * const pack = encodePack([{ type: 'blob', body: utf8('hello\n') }], (b) => deflateSync(b));
 */
export function encodePack(objects: readonly RawObject[], deflate: Deflate): Uint8Array {
  const head = new Uint8Array(12);
  head.set([0x50, 0x41, 0x43, 0x4b]); // "PACK"
  const view = new DataView(head.buffer);
  view.setUint32(4, 2);
  view.setUint32(8, objects.length);
  const parts: Uint8Array[] = [head];
  for (const o of objects) parts.push(packObjectHeader(o.type, o.body.length), deflate(o.body));
  parts.push(fromHex(sha1HexParts(parts)));
  return concatBytes(parts);
}
