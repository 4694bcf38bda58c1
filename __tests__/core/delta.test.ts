/**
 * git's delta format applied as git's patch_delta does (src/core/git/delta.ts): copies with offset and
 * size bytes present or absent, the 0x10000 size of a copy that names none, inserts; and what git
 * refuses — a base of another size, a copy outside the base, output past or short of the declared
 * result, opcode 0, instructions cut short. Whole packs of real git deltas: pack-limits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { applyDelta, BadDelta } from '../../src/core/git/delta.js';
import { sizeVarint } from '../git-http/pack-bombs.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const delta = (base: number, result: number, ops: number[]) =>
  Uint8Array.from([...sizeVarint(base), ...sizeVarint(result), ...ops]);

describe('applyDelta', () => {
  it('copies and inserts', () => {
    expect(text(applyDelta(utf8('hello'), delta(5, 6, [0x90, 5, 1, 0x21])))).toBe('hello!');
    // copy 3 from offset 1, insert "X", copy 1 from offset 0 (no offset byte: 0)
    expect(text(applyDelta(utf8('abcd'), delta(4, 5, [0x91, 1, 3, 1, 0x58, 0x90, 1])))).toBe('bcdXa');
  });

  it('a copy with no size byte copies 0x10000; offset and size bytes go little-endian, any subset', () => {
    const base = Uint8Array.from({ length: 0x20005 }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
    const ops = [
      0x80, // offset 0, size 0x10000
      0x9d,
      0x03,
      0x02,
      0x00,
      0x02, // offset bytes 0, 2, 3 = 0x020003; size byte 0 = 2
      0xf0,
      0x03,
      0x02,
      0x01, // offset 0; size bytes 0, 1, 2 = 0x010203
    ];
    const out = applyDelta(base, delta(base.length, 0x10000 + 2 + 0x010203, ops));
    const want = Buffer.concat([
      base.subarray(0, 0x10000),
      base.subarray(0x20003, 0x20005),
      base.subarray(0, 0x010203),
    ]);
    expect(Buffer.from(out).equals(want)).toBe(true);
  });

  it.each([
    ['a base of another size', utf8('abc'), delta(4, 1, [0x90, 1]), /expects a 4-byte base, the base has 3/],
    ['a copy past the end of the base', utf8('abc'), delta(3, 4, [0x91, 1, 3]), /outside its base or result/],
    ['a copy past the declared result', utf8('abc'), delta(3, 2, [0x90, 3]), /outside its base or result/],
    ['an insert past the declared result', utf8('abc'), delta(3, 1, [2, 0x41, 0x42]), /insert reaches outside/],
    ['an insert cut short', utf8('abc'), delta(3, 3, [3, 0x41]), /insert reaches outside/],
    ['a copy cut short', utf8('abc'), delta(3, 3, [0x91, 1]), /copy instruction is cut short/],
    ['opcode 0', utf8('abc'), delta(3, 1, [0]), /opcode 0 is reserved/],
    ['fewer bytes than declared', utf8('abc'), delta(3, 5, [0x90, 3]), /makes 3 bytes, not its declared 5/],
    ['a header that does not end', utf8('abc'), Uint8Array.from([0x83]), /does not end/],
  ])('refuses %s', (_name, base, d, message) => {
    expect(() => applyDelta(base, d)).toThrow(BadDelta);
    expect(() => applyDelta(base, d)).toThrow(message);
  });
});
