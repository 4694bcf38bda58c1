/**
 * git's delta format (https://git-scm.com/docs/pack-format#_deltified_representation), applied as
 * git's `patch_delta` (patch-delta.c) does: the base's size and the result's size as varints, then
 * instructions — `1xxxxxxx` copies a range of the base (offset and size bytes present per bit, a size of
 * 0 meaning 0x10000), `0xxxxxxx` (1–127) inserts that many following bytes, `0` is reserved. Anything
 * git would reject is rejected here: a base of another size, a copy outside the base, output past or
 * short of the declared result, opcode 0, instructions cut short.
 */

/** A delta git would refuse; `reason` says why. */
export class BadDelta extends Error {
  constructor(readonly reason: string) {
    super(`bad delta: ${reason}`);
    this.name = 'BadDelta';
  }
}

/** A delta-header varint at `at` (little-endian base-128), read with arithmetic. */
export function deltaVarint(delta: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let i = at;
  let byte = 0x80;
  while (byte & 0x80) {
    if (i >= delta.length || i - at >= 9) throw new BadDelta('a size in its header does not end');
    byte = delta[i++] as number;
    value += (byte & 0x7f) * scale;
    scale *= 128;
  }
  return { value, next: i };
}

/**
 * The object `delta` makes from `base`.
 *
 * @example
 * applyDelta(utf8('hello'), Uint8Array.from([5, 6, 0x90, 5, 1, 0x21])); // "hello!"
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Uint8Array {
  const src = deltaVarint(delta, 0);
  if (src.value !== base.length) throw new BadDelta(`it expects a ${src.value}-byte base, the base has ${base.length}`);
  const dst = deltaVarint(delta, src.next);
  const out = new Uint8Array(dst.value);
  let i = dst.next;
  let o = 0;
  const byte = () => {
    if (i >= delta.length) throw new BadDelta('a copy instruction is cut short');
    return delta[i++] as number;
  };
  while (i < delta.length) {
    const cmd = delta[i++] as number;
    if (cmd & 0x80) {
      let off = 0;
      let size = 0;
      for (let b = 0; b < 4; b++) if (cmd & (1 << b)) off += byte() * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (cmd & (0x10 << b)) size += byte() * 2 ** (8 * b);
      if (size === 0) size = 0x10000;
      if (off + size > base.length || o + size > out.length)
        throw new BadDelta('a copy reaches outside its base or result');
      out.set(base.subarray(off, off + size), o);
      o += size;
    } else if (cmd) {
      if (o + cmd > out.length || i + cmd > delta.length) throw new BadDelta('an insert reaches outside its result');
      out.set(delta.subarray(i, i + cmd), o);
      o += cmd;
      i += cmd;
    } else throw new BadDelta('opcode 0 is reserved');
  }
  if (o !== out.length) throw new BadDelta(`it makes ${o} bytes, not its declared ${out.length}`);
  return out;
}
