/**
 * Issue 11 CPU work: SHA-1 and base64 come from the platform, the portable fallbacks agree with it byte
 * for byte, and the one Link / rate-limit header parser serves every layer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromBase64Js, toBase64, toBase64Js, utf8 } from '../../src/core/bytes.js';
import { ObjectDb } from '../../src/core/git/object-db.js';
import { hashObject } from '../../src/core/git/objects.js';
import { sha1Hex, sha1HexAsync, sha1HexJs, sha1HexParts, sha1Implementation } from '../../src/core/git/sha1.js';
import { documentChange, encodeEnvelope } from '../../src/document/envelope.js';
import { deriveKey } from '../../src/document/identity.js';
import { nextLink, parseLinkHeader, parseRateLimit } from '../../src/transport/headers.js';

describe('sha1', () => {
  it('uses node:crypto in Node', () => {
    expect(sha1Implementation()).toBe('node');
  });

  it('platform, parts, async and portable implementations agree (including the padding boundaries)', async () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const data = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
      const js = sha1HexJs(data);
      expect(sha1Hex(data)).toBe(js);
      expect(await sha1HexAsync(data)).toBe(js);
      expect(sha1HexParts([data.subarray(0, n >> 1), data.subarray(n >> 1)])).toBe(js);
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (d) => sha1Hex(d) === sha1HexJs(d)));
  });

  it('matches the FIPS test vector and git hash-object', () => {
    expect(sha1Hex(utf8('abc'))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hashObject('blob', utf8('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});

describe('base64', () => {
  it('platform and portable encoders agree on every length and byte value', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (d) => {
        const b = toBase64(d);
        expect(b).toBe(toBase64Js(d));
        expect([...fromBase64(b)]).toEqual([...d]);
        expect([...fromBase64Js(b)]).toEqual([...d]);
      }),
    );
  });

  it("ignores GitHub's embedded newlines", () => {
    expect(new TextDecoder().decode(fromBase64('aGVs\nbG8g\nd29y\nbGQ=\n'))).toBe('hello world');
  });

  it('rejects non-alphabet characters and excess padding instead of skipping them (Buffer would)', () => {
    expect(() => fromBase64('aGk*')).toThrow(/invalid base64 character at 3/);
    expect(() => fromBase64('aG-k')).toThrow(TypeError);
    expect(() => fromBase64('aGk===')).toThrow(/padding/);
    expect(() => fromBase64('aG=k')).toThrow(TypeError);
  });
});

describe('header parsers', () => {
  it('parses every rel of a Link header, including multi-rel values and unquoted rels', () => {
    const link =
      '<https://api.github.com/r?page=2>; rel="next", <https://api.github.com/r?page=9>; rel="last",' +
      ' <https://api.github.com/r?page=1>; rel=first';
    expect(parseLinkHeader(link)).toEqual({
      next: 'https://api.github.com/r?page=2',
      last: 'https://api.github.com/r?page=9',
      first: 'https://api.github.com/r?page=1',
    });
    expect(nextLink('<https://x/a?page=3>; rel="prev next"')).toBe('https://x/a?page=3');
    expect(nextLink('<https://x/a?page=3>; rel="prev"')).toBeUndefined();
    expect(nextLink(undefined)).toBeUndefined();
    expect(parseLinkHeader(42)).toEqual({});
  });

  it('reads x-ratelimit-* from a record (any casing), a Headers object, or nothing', () => {
    const expected = { limit: 5000, remaining: 4990, reset: 1700000000, used: 10, resource: 'core' };
    expect(
      parseRateLimit({
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4990',
        'x-ratelimit-reset': '1700000000',
        'x-ratelimit-used': '10',
      }),
    ).toEqual(expected);
    expect(
      parseRateLimit({
        'X-RateLimit-Limit': 5000,
        'X-RateLimit-Remaining': 4990,
        'X-RateLimit-Reset': 1700000000,
        'X-RateLimit-Used': 10,
        'X-RateLimit-Resource': 'core',
      }),
    ).toEqual(expected);
    const h = new Headers({ 'x-ratelimit-remaining': '7', 'x-ratelimit-resource': 'graphql' });
    expect(parseRateLimit(h)).toEqual({ limit: 0, remaining: 7, reset: 0, used: 0, resource: 'graphql' });
    expect(parseRateLimit({ etag: 'x' })).toBeUndefined();
    expect(parseRateLimit(undefined)).toBeUndefined();
  });
});

describe('ObjectDb decoded-tree index', () => {
  it('lookupPath answers from the index and agrees with a scan of the tree bytes', () => {
    const db = new ObjectDb();
    const changes = Array.from({ length: 1000 }, (_, i) => ({
      path: `d${i % 7}/k${i}.json`,
      mode: '100644' as const,
      sha: db.putBlob(utf8(String(i))),
    }));
    const root = db.applyTreeChanges(null, changes);
    for (const i of [0, 1, 500, 999]) {
      const e = db.lookupPath(root, `d${i % 7}/k${i}.json`);
      expect(e?.sha).toBe(db.getTree(db.lookupPath(root, `d${i % 7}`)!.sha).find((x) => x.name === `k${i}.json`)?.sha);
    }
    expect(db.lookupPath(root, 'd0/missing.json')).toBeUndefined();
    expect(db.lookupPath(root, 'd0/k0.json/below')).toBeUndefined();
    // A second ObjectDb that only has the bytes (nothing decoded yet) answers the same.
    const fresh = new ObjectDb();
    for (const id of db.objectIds()) {
      const o = db.get(id)!;
      fresh.put(o.type, o.body);
    }
    expect(fresh.lookupPath(root, 'd3/k500.json')).toEqual(db.lookupPath(root, 'd3/k500.json'));
    expect(fresh.treeIndex(root).get('d3')?.mode).toBe('040000');
  });
});

describe('documentChange', () => {
  it('validates once and yields the same key and bytes as deriveKey + encodeEnvelope', () => {
    const doc = { namespace: 'github', type: 'repo', id: 'octo/hello', data: { stars: 1 } };
    const c = documentChange(doc);
    expect(c.key).toBe(deriveKey({ namespace: 'github', doc_type: 'repo', id: 'octo/hello' }));
    expect(new TextDecoder().decode(c.value)).toContain('"stars": 1');
    expect(c.value).toEqual(encodeEnvelope(doc));
    expect(() => documentChange({ ...doc, id: '../x' })).toThrow(/id/);
    expect(() => documentChange({ ...doc, version: 'abc' })).toThrow(/version is output only/);
  });
});
