/**
 * A bounded first pass over a pack from the server, before anything inflates it for real: a pack is
 * untrusted, and zlib lets 1 MB of it claim a gigabyte. The pass reads every object's header — type and
 * declared size, a varint (https://git-scm.com/docs/pack-format#_object_types), refused over
 * `maxObjectBytes` before a byte is inflated — then inflates its zlib stream in small chunks that are
 * counted and dropped, stopping as soon as the output passes the declared size (a stream that inflates
 * to more or less than declared is malformed). For an `ofs-delta` or `ref-delta` the first inflated bytes
 * are the delta header, the base's and the result's sizes (https://git-scm.com/docs/pack-format#_deltified_representation):
 * a result over `maxObjectBytes` is refused, and so is an `ofs-delta` whose base has another size. The
 * sizes of the objects the pack resolves to, plus `OBJECT_COST` per object, are summed against
 * `maxInflatedBytes` — what reading it for real will hold in memory — and the pass stops at a deadline.
 * Memory of the pass: one 64 KiB output chunk and typed arrays of 41 bytes per declared object (whose
 * count `maxInflatedBytes` has already bounded), whatever the pack claims.
 */
import pako from 'pako';
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

/**
 * What holding one resolved object costs beyond its bytes — its id, its array's header, map entries —
 * charged against `maxInflatedBytes` per declared object (measured about 800 bytes: bench/pack-memory.ts,
 * 1,000,000 tiny blobs cost 780 MiB), so a pack of millions of tiny objects is refused from its header.
 */
export const OBJECT_COST = 1024;

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
  /** ofs-delta: the pack offset of its base; ref-delta: where the base's 20-byte id is in the pack. */
  base: number;
  start: number;
}

/**
 * The checked pack, one slot per object in pack order, in typed arrays (a few dozen bytes per object,
 * however many objects the header declares): offset, type code, zlib stream start and end, base
 * (ofs-delta: the base's offset; ref-delta: where its base's id is), resolved size.
 */
export interface PackIndex {
  count: number;
  offset: Float64Array;
  type: Uint8Array;
  start: Float64Array;
  end: Float64Array;
  base: Float64Array;
  size: Float64Array;
}

/** The slot of the object at pack offset `offset`, or -1 (offsets ascend: a binary search). */
export function slotAt(index: PackIndex, n: number, offset: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = index.offset[mid] as number;
    if (at === offset) return mid;
    if (at < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function readHeader(pack: Uint8Array, offset: number): Header {
  const first = pack[offset] as number;
  const type = (first >> 4) & 7;
  if (!TYPES.has(type)) throw malformed('pack', `object at byte ${offset} has unknown type ${type}`);
  const { value: size, next } =
    first & 0x80 ? varint(pack, offset + 1, first & 0x0f, 4) : { value: first & 0x0f, next: offset + 1 };
  if (type === REF_DELTA) return { type, size, base: next, start: next + 20 };
  if (type !== OFS_DELTA) return { type, size, base: -1, start: next };
  // ofs-delta: a big-endian varint with +1 per continuation byte (git's encode_in_pack_object_header).
  let i = next;
  let c = pack[i++] ?? 0;
  let back = c & 0x7f;
  while (c & 0x80) {
    if (i >= pack.length || i - next >= 9) throw malformed('pack', `the delta offset at byte ${next} does not end`);
    c = pack[i++] as number;
    back = (back + 1) * 128 + (c & 0x7f);
  }
  return { type, size, base: offset - back, start: i };
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
): PackIndex {
  let total = count * OBJECT_COST;
  if (total > limits.maxInflatedBytes) {
    throw overLimit(
      'maxInflatedBytes',
      limits.maxInflatedBytes,
      `its ${count} objects cost ${OBJECT_COST} bytes each to hold`,
    );
  }
  const index: PackIndex = {
    count,
    offset: new Float64Array(count),
    type: new Uint8Array(count),
    start: new Float64Array(count),
    end: new Float64Array(count),
    base: new Float64Array(count),
    size: new Float64Array(count),
  };
  let offset = 12;
  for (let n = 0; n < count; n++) {
    if (offset >= pack.length - 20) throw malformed('pack', `it ends after ${n} of its ${count} objects`);
    const h = readHeader(pack, offset);
    const delta = h.type === OFS_DELTA || h.type === REF_DELTA;
    if (h.size > limits.maxObjectBytes) {
      const what = delta ? 'a delta' : 'an object';
      throw overLimit('maxObjectBytes', limits.maxObjectBytes, `${what} at byte ${offset} declares ${h.size} bytes`);
    }
    if (!delta) total += h.size;
    if (total > limits.maxInflatedBytes) {
      throw overLimit('maxInflatedBytes', limits.maxInflatedBytes, `its objects declare ${total} bytes or more`);
    }
    const { end, head } = inflateCapped(pack, h.start, h.size, delta ? DELTA_HEADER_BYTES : 0, tick);
    const size = delta ? checkDelta(head, h, offset, index, n, limits) : h.size;
    if (delta) total += size;
    if (total > limits.maxInflatedBytes) {
      throw overLimit('maxInflatedBytes', limits.maxInflatedBytes, `its objects resolve to ${total} bytes or more`);
    }
    index.offset[n] = offset;
    index.type[n] = h.type;
    index.start[n] = h.start;
    index.end[n] = end;
    index.base[n] = h.base;
    index.size[n] = size;
    offset = end;
    tick();
  }
  if (pack.length - offset !== 20) throw malformed('pack', `${pack.length - offset - 20} bytes follow its last object`);
  return index;
}

/** The result size from a delta's header, checked against `maxObjectBytes` and (ofs-delta) its base. */
function checkDelta(head: Uint8Array, h: Header, offset: number, index: PackIndex, n: number, limits: PackCheckLimits) {
  const base = varint(head, 0, 0, 0);
  const result = varint(head, base.next, 0, 0).value;
  if (result > limits.maxObjectBytes) {
    throw overLimit(
      'maxObjectBytes',
      limits.maxObjectBytes,
      `a delta at byte ${offset} declares a result of ${result} bytes`,
    );
  }
  if (h.type === REF_DELTA) return result; // the base's size is checked when it is applied
  const slot = slotAt(index, n, h.base);
  if (slot < 0) throw malformed('pack', `the delta at byte ${offset} names no earlier object as its base`);
  if (index.size[slot] !== base.value) {
    throw malformed(
      'pack',
      `the delta at byte ${offset} expects a ${base.value}-byte base, its base has ${index.size[slot]}`,
    );
  }
  return result;
}
