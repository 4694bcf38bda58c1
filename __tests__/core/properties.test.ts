/** Property tests of the pure byte helpers and object codecs against Node's own implementations. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesEqual,
  concatBytes,
  fromBase64,
  fromHex,
  fromUtf8,
  toBase64,
  toBytes,
  toHex,
  utf8,
} from '../../src/core/bytes.js';
import {
  type CommitFields,
  compareTreeEntries,
  decodeCommit,
  decodeTree,
  encodeCommit,
  encodeTree,
  formatTimezone,
  isSha,
  parseSignatureDate,
  signatureDate,
  type TreeEntry,
} from '../../src/core/git/objects.js';
import { sha1Hex } from '../../src/core/git/sha1.js';

const bytes = fc.uint8Array({ maxLength: 300 });
const sha = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex'));

describe('sha1', () => {
  it('matches node:crypto for random inputs', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(sha1Hex(b)).toBe(createHash('sha1').update(b).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('matches node:crypto around every padding boundary (0..200 bytes) and for 1 MB', () => {
    for (let n = 0; n <= 200; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(sha1Hex(b)).toBe(createHash('sha1').update(b).digest('hex'));
    }
    const big = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 7) & 0xff);
    expect(sha1Hex(big)).toBe(createHash('sha1').update(big).digest('hex'));
    expect(sha1Hex(utf8('abc'))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });
});

describe('base64 / hex / utf8', () => {
  it('toBase64 equals Buffer and fromBase64 inverts it (also with GitHub-style line breaks)', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const b64 = toBase64(b);
        expect(b64).toBe(Buffer.from(b).toString('base64'));
        expect(bytesEqual(fromBase64(b64), b)).toBe(true);
        const wrapped = `${b64.replace(/.{1,60}/g, '$&\n')}`;
        expect(bytesEqual(fromBase64(wrapped), b)).toBe(true);
        expect(bytesEqual(fromBase64(b64.replace(/=+$/, '')), b)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('fromBase64 rejects characters outside the alphabet and over-long padding', () => {
    expect(() => fromBase64('ab$d')).toThrow(TypeError);
    expect(() => fromBase64('QQ===')).toThrow(/padding/);
    expect(() => fromBase64('QQ==QQ==')).toThrow(TypeError);
  });

  it('hex round trip equals Buffer', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(toHex(b)).toBe(Buffer.from(b).toString('hex'));
        expect(bytesEqual(fromHex(toHex(b)), b)).toBe(true);
      }),
    );
  });

  it('utf8 round trips well-formed strings; fromUtf8 refuses invalid bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(fromUtf8(utf8(s))).toBe(s);
        expect(bytesEqual(toBytes(s), new Uint8Array(Buffer.from(s, 'utf8')))).toBe(true);
      }),
    );
    expect(() => fromUtf8(new Uint8Array([0xff, 0xfe]))).toThrow(TypeError);
    const b = new Uint8Array([1, 2]);
    expect(toBytes(b)).toBe(b);
    expect([...concatBytes([new Uint8Array([1]), new Uint8Array(), new Uint8Array([2, 3])])]).toEqual([1, 2, 3]);
  });
});

describe('object codecs', () => {
  const name = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((s) => !/[/\x00]/.test(s) && s !== '.' && s !== '..');
  const entry: fc.Arbitrary<TreeEntry> = fc.record({
    mode: fc.constantFrom('100644', '100755', '040000', '120000', '160000'),
    name,
    sha,
  });

  it('random trees round-trip encode → decode, in git order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => e.name, maxLength: 20 }), (entries) => {
        const decoded = decodeTree(encodeTree(entries));
        expect(decoded).toEqual([...entries].sort(compareTreeEntries));
        for (let i = 1; i < decoded.length; i++) {
          expect(compareTreeEntries(decoded[i - 1] as TreeEntry, decoded[i] as TreeEntry)).toBeLessThan(0);
        }
        // Encoding is independent of input order.
        expect(bytesEqual(encodeTree([...entries].reverse()), encodeTree(entries))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('random commits round-trip encode → decode', () => {
    const person = fc.record({
      name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter((s) => !/[<>\n]/.test(s)),
      email: fc.string({ minLength: 1, maxLength: 10 }).filter((s) => !/[<>\n]/.test(s)),
      timestamp: fc.integer({ min: 0, max: 4_000_000_000 }),
      timezone: fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => formatTimezone(m - (m % 15))),
    });
    const commit: fc.Arbitrary<CommitFields> = fc.record({
      tree: sha,
      parents: fc.array(sha, { maxLength: 3 }),
      author: person,
      committer: person,
      message: fc.string({ unit: 'grapheme', maxLength: 40 }),
    });
    fc.assert(
      fc.property(commit, (c) => {
        expect(decodeCommit(encodeCommit(c))).toEqual(c);
      }),
      { numRuns: 200 },
    );
  });

  it('signature dates round-trip through ISO-8601', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: -12 * 4, max: 14 * 4 }),
        (timestamp, quarters) => {
          const timezone = formatTimezone(quarters * 15);
          const iso = signatureDate({ name: 'n', email: 'e', timestamp, timezone });
          const back = parseSignatureDate(iso);
          expect(back.timestamp).toBe(timestamp);
          expect(back.timezone).toBe(timezone === '-0000' ? '+0000' : timezone);
        },
      ),
    );
    expect(() => parseSignatureDate('not a date')).toThrow(/invalid date/);
    expect(formatTimezone(-150)).toBe('-0230');
    expect(formatTimezone(345)).toBe('+0545');
  });

  it('isSha accepts only 40 lowercase hex characters', () => {
    expect(isSha('a'.repeat(40))).toBe(true);
    expect(isSha('A'.repeat(40))).toBe(false);
    expect(isSha('a'.repeat(39))).toBe(false);
    expect(isSha(null)).toBe(false);
  });
});
