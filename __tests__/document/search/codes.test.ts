/**
 * Stored format 2's pieces: the bit stream's codes round-trip and are as long as counted, damage in a
 * stream is refused, and shard cuts and lower bounds follow the ranges queries read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, expGolombBits, gammaBits, streamChars } from '../../../src/document/search/bits.js';
import { separatorKey } from '../../../src/document/search/chunk.js';
import { ByteWriter } from '../../../src/document/search/codec.js';
import { closesBeforeGroup, groupBytes } from '../../../src/document/search/cut.js';
import { buildSearch, parseSearchText, rankFirstPaths } from '../../../src/document/search/index.js';
import { parseSearchManifest, shardPathOf } from '../../../src/document/search/manifest.js';
import { loadShard } from '../../../src/document/search/shard.js';
import { zipfCorpus } from './corpus.js';

type Code =
  | { kind: 'gamma'; x: number }
  | { kind: 'eg'; v: number; k: number }
  | { kind: 'bits'; v: number; n: number };

const code = fc.oneof(
  fc.record({
    kind: fc.constant('gamma' as const),
    x: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 2 ** 32 - 1 })),
  }),
  fc.record({
    kind: fc.constant('eg' as const),
    v: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
    k: fc.integer({ min: 0, max: 31 }),
  }),
  fc
    .integer({ min: 0, max: 32 })
    .chain((n) =>
      fc.record({ kind: fc.constant('bits' as const), v: fc.integer({ min: 0, max: 2 ** n - 1 }), n: fc.constant(n) }),
    ),
);

function written(codes: readonly Code[]): { text: string; bits: number } {
  const out = new ByteWriter();
  const w = new BitWriter(out);
  let bits = 0;
  for (const c of codes) {
    if (c.kind === 'gamma') {
      w.gamma(c.x);
      bits += gammaBits(c.x);
    } else if (c.kind === 'eg') {
      w.expGolomb(c.v, c.k);
      bits += expGolombBits(c.v, c.k);
    } else {
      w.bits(c.v, c.n);
      bits += c.n;
    }
  }
  w.end();
  return { text: new TextDecoder().decode(out.bytes()), bits };
}

const fail = (why: string): never => {
  throw new Error(why);
};

describe('the posting bit stream', () => {
  it('reads back every code written, in as many characters as counted, in printable ASCII', () => {
    fc.assert(
      fc.property(fc.array(code, { maxLength: 40 }), (codes) => {
        const { text, bits } = written(codes);
        expect(text.length).toBe(streamChars(bits));
        expect(text).toMatch(/^[!-~]*$/);
        const r = new BitReader(text, 0, text.length, fail);
        for (const c of codes) {
          if (c.kind === 'gamma') expect(r.gamma()).toBe(c.x);
          else if (c.kind === 'eg') expect(r.expGolomb(c.k)).toBe(c.v);
          else expect(r.bits(c.n)).toBe(c.v);
        }
      }),
    );
  });

  it('ends where only padding is left: the 1 bits of a last group are never read as a code', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 30 }), (xs) => {
        const { text } = written(xs.map((x) => ({ kind: 'gamma', x })));
        const r = new BitReader(text, 0, text.length, fail);
        const got: number[] = [];
        while (!r.done) got.push(r.gamma());
        expect(got).toEqual(xs);
      }),
    );
  });

  it('refuses a character outside the alphabet, a pair past 13 bits, a lone last symbol past 6, and a cut code', () => {
    expect(() => new BitReader('a é', 0, 3, fail)).toThrow(/outside the posting alphabet/);
    expect(() => new BitReader('~~', 0, 2, fail)).toThrow(/pair of symbols outside/);
    expect(() => new BitReader('~', 0, 1, fail)).toThrow(/symbol outside a last group/);
    const { text } = written([{ kind: 'gamma', x: 1000 }]);
    expect(() => new BitReader(text, 0, text.length - 1, fail).gamma()).toThrow(/ends inside a posting/);
    // 32 ones then a zero: a gamma code of a number past 2^32.
    const long = written([
      { kind: 'bits', v: 2 ** 32 - 1, n: 32 },
      { kind: 'bits', v: 0, n: 1 },
    ]).text;
    expect(() => new BitReader(long, 0, long.length, fail).gamma()).toThrow(/number too large/);
  });
});

describe('shard cuts', () => {
  it('a lower bound is the shortest start of the first term above the last one before it', () => {
    expect(separatorKey('bizu', ['bobaga', 281])).toEqual(['bo', 0]);
    expect(separatorKey('boba', ['bobaga', 281])).toEqual(['bobag', 0]);
    expect(separatorKey('', ['a', 3])).toEqual(['a', 0]);
    // A term continued across the cut keeps its ordinal.
    expect(separatorKey('bobaga', ['bobaga', 281])).toEqual(['bobaga', 281]);
    // Never half a surrogate pair.
    expect(separatorKey('a', ['😀x', 0])).toEqual(['😀', 0]);
  });

  it('two- and three-letter groups: their bytes at their first line; a half-full shard closes before one that does not fit', () => {
    expect([...groupBytes(['saba', 'sabi', 'sela', 'seto', 'z'], [10, 6, 9, 1, 4], 2)]).toEqual([16, 0, 10, 0, 4]);
    expect([...groupBytes(['saba', 'sabi', 'sela', 'seto', 'z'], [10, 6, 9, 1, 4], 3)]).toEqual([16, 0, 9, 1, 4]);
    expect([...groupBytes(['😀😀a', '😀😀b', '😀x'], [1, 2, 3], 2)]).toEqual([3, 0, 3]);
    expect(closesBeforeGroup(60, 50, 100)).toBe(true);
    expect(closesBeforeGroup(40, 70, 100)).toBe(false); // less than half full: fill it
    expect(closesBeforeGroup(60, 40, 100)).toBe(false); // the group fits
    expect(closesBeforeGroup(60, 0, 100)).toBe(false); // not a group's first line
  });

  it('a word of 5+ letters reads the one shard of its two-letter range, whatever shard the range starts', () => {
    const t = { namespace: 'n', type: 't', fields: ['data.title', 'data.body'] };
    const files = buildSearch(t, zipfCorpus(3000), { maxShardBytes: 65_536, maxShards: 4096 });
    const manifest = files.get('_docdb/search/n/t/manifest.json')!;
    const m = parseSearchManifest(t, manifest);
    expect(m.shards.length).toBeGreaterThan(4);
    const group = (term: string) => Array.from(term).slice(0, 2).join('');
    const groupsOf = (i: number) =>
      new Set(
        i < 0 || i >= m.shards.length ? [] : loadShard(m, i, files.get(shardPathOf(m, i))!).map((l) => group(l.term)),
      );
    // Every shard opening with a two-letter group that ends in it: a typo-tolerant word of it reads that shard alone.
    const starts = m.shards.flatMap((_, i) => {
      const first = loadShard(m, i, files.get(shardPathOf(m, i))!)[0];
      const start = first ? group(first.term) : '';
      // A shard whose first key is [start, 0] would start the range without a shorter bound: skip it.
      const plain = first?.term === start && first.postings[0]!.ordinal === 0;
      return i > 0 && !plain && !groupsOf(i - 1).has(start) && !groupsOf(i + 1).has(start) ? [start] : [];
    });
    for (const start of starts) {
      const paths = rankFirstPaths(t, parseSearchText(`${start}xyzw`), manifest);
      expect(
        paths.filter((p) => p.includes('/terms/')),
        start,
      ).toHaveLength(1);
    }
  });
});
