/**
 * A bounded first pass over a pack from the server, before anything inflates it for real: a pack is
 * untrusted, and zlib lets 1 MB of it claim a gigabyte. The pass reads every object's header — type and
 * declared size, a varint (https://git-scm.com/docs/pack-format#_object_types), refused over
 * `maxObjectBytes` before a byte is inflated — then inflates its zlib stream in small chunks that are
 * counted and dropped, stopping as soon as the output passes the declared size (a stream that inflates
 * to more or less than declared is malformed). For an `ofs-delta` or `ref-delta` the first inflated bytes
 * are the delta header, the base's and the result's sizes (https://git-scm.com/docs/pack-format#_deltified_representation):
 * a result over `maxObjectBytes` is refused, and so is an `ofs-delta` whose base has another size. The
 * sizes of the objects the pack resolves to are summed against `maxInflatedBytes` — what parsing it
 * for real will hold in memory — and the pass stops at a deadline. Memory of the pass: one 64 KiB
 * output chunk and a map of object offsets, whatever the pack claims.
 */
import pako from 'pako';
import { toHex } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { malformed } from './pkt-line.js';

/** The limits the pass enforces (bytes, objects, milliseconds). */
export interface PackCheckLimits {
  maxObjects: number;
  maxObjectBytes: number;
  /** Sum of the sizes of the objects the pack resolves to (a delta counts its result's size). */
  maxInflatedBytes: number;
  /** Milliseconds parsing one pack may take, measured with `now`. */
  maxParseMs: number;
  /** Clock in milliseconds (default `Date.now`; inject in tests). */
  now?: () => number;
}

/** Which limit a refusal hit: its option name and value, both in `data` and the message. */
export function overLimit(limit: keyof PackCheckLimits, max: number, detail: string): InvalidResponse {
  return new InvalidResponse(`pack from the git server refused: ${detail}, over the limit ${limit} of ${max}`, {
    what: 'pack',
    limit,
    max,
  });
}

/**
 * A check that throws `overLimit('maxParseMs')` once `limits.maxParseMs` have passed since this call.
 *
 * @example
 * const tick = parseDeadline(limits); for (const o of objects) { tick(); … }
 */
export function parseDeadline(limits: PackCheckLimits): () => void {
  const now = limits.now ?? Date.now;
  const deadline = now() + limits.maxParseMs;
  return () => {
    if (now() > deadline) throw overLimit('maxParseMs', limits.maxParseMs, 'parsing the pack took too long');
  };
}

/** Input handed to zlib at once: small, so a bomb is caught within one chunk's output. */
const INPUT_CHUNK = 16 * 1024;
/** Output chunk of the inflater; the only buffer the pass allocates per object. */
const OUTPUT_CHUNK = 64 * 1024;
/** A delta header is two varints of at most 10 bytes each. */
const DELTA_HEADER_BYTES = 20;
const OFS_DELTA = 6;
const REF_DELTA = 7;
const TYPES = new Set([1, 2, 3, 4, OFS_DELTA, REF_DELTA]);

/** A little-endian base-128 varint as used in pack and delta headers, read with arithmetic (no 32-bit ops). */
function varint(bytes: Uint8Array, at: number, first: number, shift0: number): { value: number; next: number } {
  let value = first;
  let scale = 2 ** shift0;
  let i = at;
  let byte = 0x80;
  while (byte & 0x80) {
    if (i >= bytes.length || i - at >= 9) throw malformed('pack', `a size varint at byte ${at} does not end`);
    byte = bytes[i++] as number;
    value += (byte & 0x7f) * scale;
    scale *= 128;
  }
  return { value, next: i };
}

/** An object's header: type, declared (inflated) size, the base of a delta, and where its zlib stream starts. */
interface Header {
  type: number;
  size: number;
  /** ofs-delta: the pack offset of its base. */
  baseOffset?: number;
  /** ref-delta: the id of its base. */
  baseSha?: string;
  start: number;
}

/** One checked object of the pack: its header and where its zlib stream ends. */
export interface PackEntry extends Header {
  offset: number;
  end: number;
}

function readHeader(pack: Uint8Array, offset: number): Header {
  const first = pack[offset] as number;
  const type = (first >> 4) & 7;
  if (!TYPES.has(type)) throw malformed('pack', `object at byte ${offset} has unknown type ${type}`);
  const { value: size, next } =
    first & 0x80 ? varint(pack, offset + 1, first & 0x0f, 4) : { value: first & 0x0f, next: offset + 1 };
  if (type === REF_DELTA) return { type, size, baseSha: toHex(pack.subarray(next, next + 20)), start: next + 20 };
  if (type !== OFS_DELTA) return { type, size, start: next };
  // ofs-delta: a big-endian varint with +1 per continuation byte (git's encode_in_pack_object_header).
  let i = next;
  let c = pack[i++] ?? 0;
  let back = c & 0x7f;
  while (c & 0x80) {
    if (i >= pack.length || i - next >= 9) throw malformed('pack', `the delta offset at byte ${next} does not end`);
    c = pack[i++] as number;
    back = (back + 1) * 128 + (c & 0x7f);
  }
  return { type, size, baseOffset: offset - back, start: i };
}

/**
 * Inflate the zlib stream at `start`, dropping output, keeping its first `keep` bytes. Refuses output
 * past `size` as soon as it appears; returns where the stream ended and the kept bytes.
 */
function inflateCapped(pack: Uint8Array, start: number, size: number, keep: number, tick: () => void) {
  const head = new Uint8Array(Math.min(keep, size));
  let out = 0;
  const inflater = new pako.Inflate({ chunkSize: OUTPUT_CHUNK });
  inflater.onData = (chunk: Uint8Array) => {
    if (out + chunk.length > size)
      throw malformed('pack', `the object at byte ${start} inflates to more than its declared ${size} bytes`);
    if (out < head.length) head.set(chunk.subarray(0, head.length - out), out);
    out += chunk.length;
  };
  const state = inflater as unknown as { ended: boolean; err: number; msg: string; strm: { avail_in: number } };
  let at = start;
  while (!state.ended) {
    if (at >= pack.length) throw malformed('pack', `the object at byte ${start} is cut off`);
    const end = Math.min(at + INPUT_CHUNK, pack.length);
    inflater.push(pack.subarray(at, end), false);
    if (state.err) throw malformed('pack', `the object at byte ${start} is not valid zlib (${state.msg || state.err})`);
    at = state.ended ? end - state.strm.avail_in : end;
    tick();
  }
  if (out !== size)
    throw malformed('pack', `the object at byte ${start} inflates to ${out} bytes, not its declared ${size}`);
  return { end: at, head };
}

/**
 * Check `pack` (a whole version-2/3 pack with `count` objects, header already read) against `limits`
 * without holding more than a chunk of its inflated bytes. Throws `InvalidResponse`: `malformed` for a
 * pack that breaks the format, `overLimit` (with `data.limit`) for one that breaks a limit. Returns
 * each object's header and where its stream ends, in pack order.
 *
 * @example
 * checkPack(pack, count, { maxObjects: 5e6, maxObjectBytes: 128 << 20, maxInflatedBytes: 1 << 30, maxParseMs: 120_000 });
 */
export function checkPack(
  pack: Uint8Array,
  count: number,
  limits: PackCheckLimits,
  tick = parseDeadline(limits),
): PackEntry[] {
  const entries: PackEntry[] = [];
  /** Resolved size of each object so far, by offset: what an ofs-delta's base must be. */
  const sizes = new Map<number, number>();
  let total = 0;
  let offset = 12;
  for (let n = 0; n < count; n++) {
    if (offset >= pack.length - 20) throw malformed('pack', `it ends after ${n} of its ${count} objects`);
    const h = readHeader(pack, offset);
    const delta = h.type === OFS_DELTA || h.type === REF_DELTA;
    if (h.size > limits.maxObjectBytes) {
      throw overLimit(
        'maxObjectBytes',
        limits.maxObjectBytes,
        `${delta ? 'a delta' : 'an object'} at byte ${offset} declares ${h.size} bytes`,
      );
    }
    if (!delta) total += h.size;
    if (total > limits.maxInflatedBytes) {
      throw overLimit('maxInflatedBytes', limits.maxInflatedBytes, `its objects declare ${total} bytes or more`);
    }
    const { end, head } = inflateCapped(pack, h.start, h.size, delta ? DELTA_HEADER_BYTES : 0, tick);
    sizes.set(offset, delta ? checkDelta(head, h, offset, sizes, limits) : h.size);
    if (delta) total += sizes.get(offset) as number;
    if (total > limits.maxInflatedBytes) {
      throw overLimit('maxInflatedBytes', limits.maxInflatedBytes, `its objects resolve to ${total} bytes or more`);
    }
    entries.push({ ...h, offset, end });
    offset = end;
    tick();
  }
  if (pack.length - offset !== 20) throw malformed('pack', `${pack.length - offset - 20} bytes follow its last object`);
  return entries;
}

/** The result size from a delta's header, checked against `maxObjectBytes` and (ofs-delta) its base. */
function checkDelta(head: Uint8Array, h: Header, offset: number, sizes: Map<number, number>, limits: PackCheckLimits) {
  const base = varint(head, 0, 0, 0);
  const result = varint(head, base.next, 0, 0).value;
  if (result > limits.maxObjectBytes) {
    throw overLimit(
      'maxObjectBytes',
      limits.maxObjectBytes,
      `a delta at byte ${offset} declares a result of ${result} bytes`,
    );
  }
  if (h.baseOffset === undefined) return result; // ref-delta: the base's size is checked when it is applied
  const baseSize = sizes.get(h.baseOffset);
  if (baseSize === undefined)
    throw malformed('pack', `the delta at byte ${offset} names no earlier object as its base`);
  if (baseSize !== base.value) {
    throw malformed('pack', `the delta at byte ${offset} expects a ${base.value}-byte base, its base has ${baseSize}`);
  }
  return result;
}
