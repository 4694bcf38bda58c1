/**
 * The bit writer's one-call paths (bits.ts: `bits` below 19 bits, `expGolomb` and `usualPosting` when the
 * whole code fits 18 bits) at every fill of its accumulator: 0 to 12 bits held before the code, so a code
 * that would push the accumulator past 31 bits shows as a wrong value read back. Exhaustive over the
 * widths near each path's limit (the random codes of codes.test.ts rarely meet a 12-bit fill and a long code).
 */
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../../../src/document/search/bits.js';
import { ByteWriter } from '../../../src/document/search/codec.js';

const fail = (why: string): never => {
  throw new Error(why);
};

/** `held` ones, then `write`, then padding; a reader past the ones. */
function afterFill(held: number, write: (w: BitWriter) => void): BitReader {
  const out = new ByteWriter();
  const w = new BitWriter(out);
  w.bits(2 ** held - 1, held);
  write(w);
  w.end();
  const text = new TextDecoder().decode(out.bytes());
  const r = new BitReader(text, 0, text.length, fail);
  expect(r.bits(held)).toBe(2 ** held - 1);
  return r;
}

const HELD = Array.from({ length: 13 }, (_, i) => i);

describe('the bit writer at every fill of its accumulator', () => {
  it('writes n plain bits, n = 1 to 32, all ones or a high one, whatever it holds', () => {
    for (const held of HELD) {
      for (let n = 1; n <= 32; n++) {
        for (const v of [2 ** n - 1, 2 ** (n - 1), 1]) {
          const r = afterFill(held, (w) => w.bits(v, n));
          expect(r.bits(n), `held ${held}, ${n} bits of ${v}`).toBe(v);
        }
      }
    }
  });

  it('writes a usual posting (gap, shape bit, norm) of up to 24 bits, whatever it holds', () => {
    for (const held of HELD) {
      for (let k = 0; k <= 14; k++) {
        for (const v of [0, 2 ** k - 1, 2 ** (k + 1) + 3, 2 ** (k + 2) - 1]) {
          for (const x of [1, 2, 5, 9]) {
            const r = afterFill(held, (w) => w.usualPosting(v, k, x));
            const where = `held ${held}, k ${k}, v ${v}, x ${x}`;
            expect(r.expGolomb(k), where).toBe(v);
            expect(r.bits(1), where).toBe(0);
            expect(r.gamma(), where).toBe(x);
          }
        }
      }
    }
  });

  it('writes an expGolomb code of up to 24 bits, whatever it holds', () => {
    for (const held of HELD) {
      for (let k = 0; k <= 16; k++) {
        for (const v of [0, 2 ** k, 2 ** (k + 2) + 1, 2 ** (k + 3) - 1]) {
          const r = afterFill(held, (w) => w.expGolomb(v, k));
          expect(r.expGolomb(k), `held ${held}, k ${k}, v ${v}`).toBe(v);
        }
      }
    }
  });
});
