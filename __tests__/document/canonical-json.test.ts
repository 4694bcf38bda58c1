/** Canonical JSON and the stored envelope bytes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesEqual } from '../../src/core/bytes.js';
import { InvalidDocument, InvalidIdentity, InvalidVersion } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { MAX_JSON_DEPTH } from '../../src/document/canonical-json.js';
import { canonicalJson, decodeEnvelope, encodeEnvelope } from '../../src/document/index.js';

/** Reference: deep-sort keys, then JSON.stringify with 2-space indent, plus newline. */
function reference(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (x && typeof x === 'object') {
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
      );
    }
    return x;
  };
  return `${JSON.stringify(sort(v), null, 2)}\n`;
}

function hasIndexKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasIndexKey);
  if (v && typeof v === 'object') {
    return Object.entries(v).some(([k, x]) => /^(0|[1-9][0-9]*)$/.test(k) || hasIndexKey(x));
  }
  return false;
}

/** Recursively rebuild objects with their keys in a shuffled order. */
function permute(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => permute(x, seed + i));
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    let s = seed;
    for (let i = keys.length - 1; i > 0; i--) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const j = s % (i + 1);
      [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
    }
    return Object.fromEntries(keys.map((k) => [k, permute((v as Record<string, unknown>)[k], seed + 1)]));
  }
  return v;
}

function failure(v: unknown): { field: unknown; message: string } {
  try {
    canonicalJson(v);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidDocument);
    return { field: (e as InvalidDocument).data.field, message: (e as Error).message };
  }
  throw new Error('expected canonicalJson to throw');
}

describe('canonicalJson', () => {
  it('sorts keys (code-unit order), indents by 2 and ends with a newline', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: {}, d: [] })).toBe(
      '{\n  "a": [\n    true,\n    null,\n    "x"\n  ],\n  "b": 1,\n  "c": {},\n  "d": []\n}\n',
    );
    expect(canonicalJson('s')).toBe('"s"\n');
    expect(canonicalJson(-0)).toBe('0\n');
    expect(canonicalJson(1e21)).toBe('1e+21\n');
    // Integer-like keys are sorted as strings too (JSON.stringify would put them first).
    expect(canonicalJson({ b: 1, '10': 2, '9': 3, '': 4 })).toBe('{\n  "": 4,\n  "10": 2,\n  "9": 3,\n  "b": 1\n}\n');
    // Code-unit order: 'Z' < 'a' < 'é' < '😀' (U+D83D) < '～' (U+FF5E)
    expect(Object.keys(JSON.parse(canonicalJson({ '～': 1, '😀': 2, é: 3, a: 4, Z: 5 })))).toEqual([
      'Z',
      'a',
      'é',
      '😀',
      '～',
    ]);
  });

  it('property: equals sorted JSON.stringify, is stable under key-order permutations, and round-trips', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (v, seed) => {
        const out = canonicalJson(v);
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        // JSON.stringify lists integer-like keys first whatever their insertion order, so the
        // reference only holds for objects without them.
        if (!hasIndexKey(v)) expect(out).toBe(reference(v));
        expect(canonicalJson(permute(v, seed))).toBe(out);
        expect(canonicalJson(JSON.parse(out))).toBe(out);
      }),
      { numRuns: 300 },
    );
  });

  it('converts values with toJSON (Date) like JSON.stringify', () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2024, 0, 1)) })).toBe('{\n  "at": "2024-01-01T00:00:00.000Z"\n}\n');
  });

  it('rejects non-JSON values with an error naming the path', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const cases: [unknown, string, RegExp][] = [
      [undefined, '$', /undefined/],
      [{ a: undefined }, '$.a', /undefined/],
      [{ list: [1, undefined] }, '$.list[1]', /undefined/],
      [{ f: () => 1 }, '$.f', /function/],
      [{ n: Number.NaN }, '$.n', /NaN/],
      [{ n: Number.POSITIVE_INFINITY }, '$.n', /Infinity/],
      [{ deep: { big: 10n } }, '$.deep.big', /BigInt/],
      [{ s: Symbol('x') }, '$.s', /symbol/],
      [cyclic, '$.self', /cycle/],
      [{ m: new Map() }, '$.m', /Map/],
      [{ 'odd key': [0, [new Set()]] }, '$["odd key"][1][0]', /Set/],
      // biome-ignore lint/suspicious/noSparseArray: testing holes
      [[1, , 3], '$[1]', /sparse/],
    ];
    for (const [value, field, why] of cases) {
      const f = failure(value);
      expect(f.field).toBe(field);
      expect(f.message).toMatch(why);
      expect(f.message).toContain(field);
    }
  });

  it('rejects nesting deeper than MAX_JSON_DEPTH with InvalidDocument, not a RangeError (10,000 deep)', () => {
    const nest = (n: number, wrap: (v: unknown) => unknown) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = wrap(v);
      return v;
    };
    for (const wrap of [(v: unknown) => [v], (v: unknown) => ({ a: v })]) {
      for (const n of [10_000, MAX_JSON_DEPTH + 1]) {
        let err: unknown;
        try {
          canonicalJson(nest(n, wrap), 'data');
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(InvalidDocument);
        expect((err as InvalidDocument).message).toMatch(/deeper than 512 levels/);
        expect((err as InvalidDocument).data).toMatchObject({ field: 'data', limit: MAX_JSON_DEPTH });
      }
      // Exactly at the limit is fine, and round-trips.
      const ok = nest(MAX_JSON_DEPTH, wrap);
      expect(JSON.parse(canonicalJson(ok))).toEqual(ok);
    }
    // Through the document envelope (which adds one level) the error names the document.
    const deep = nest(10_000, (v) => [v]);
    let envErr: unknown;
    try {
      encodeEnvelope({ namespace: 'github', type: 'repo', id: 'deep', data: deep });
    } catch (e) {
      envErr = e;
    }
    expect(envErr).toBeInstanceOf(InvalidDocument);
    expect((envErr as InvalidDocument).message).toMatch(/^document nests arrays\/objects deeper than 512 levels/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(JSON.parse(canonicalJson({ a: shared, b: [shared, shared] }))).toEqual({
      a: { x: 1 },
      b: [{ x: 1 }, { x: 1 }],
    });
  });
});

describe('encodeEnvelope / decodeEnvelope', () => {
  const doc = { namespace: 'github', type: 'repo', id: 'octo/hello-world', data: { stars: 1, name: 'hello' } };
  const V = 'a'.repeat(40);

  it('stores canonical JSON of {data, id, namespace, type} without version', () => {
    const bytes = encodeEnvelope(doc);
    expect(new TextDecoder().decode(bytes)).toBe(
      '{\n  "data": {\n    "name": "hello",\n    "stars": 1\n  },\n  "id": "octo/hello-world",\n  "namespace": "github",\n  "type": "repo"\n}\n',
    );
    expect(decodeEnvelope(bytes, V)).toEqual({ ...doc, version: V });
  });

  it('same data in any key order gives the same bytes and blob SHA', () => {
    const a = encodeEnvelope(doc);
    const b = encodeEnvelope({
      data: { name: 'hello', stars: 1 },
      id: doc.id,
      type: doc.type,
      namespace: doc.namespace,
    });
    expect(bytesEqual(a, b)).toBe(true);
    expect(blobSha(a)).toBe(blobSha(b));
  });

  it('rejects version on input, unknown fields, missing data and bad identities', () => {
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return [(e as InvalidDocument).code, (e as InvalidDocument).data.field];
      }
      return null;
    };
    expect(fieldOf(() => encodeEnvelope({ ...doc, version: V } as never))).toEqual(['InvalidDocument', 'version']);
    expect(fieldOf(() => encodeEnvelope({ ...doc, doc_type: 'repo' } as never))).toEqual([
      'InvalidDocument',
      'doc_type',
    ]);
    expect(fieldOf(() => encodeEnvelope({ ...doc, data: undefined }))).toEqual(['InvalidDocument', 'data']);
    expect(fieldOf(() => encodeEnvelope(null as never))).toEqual(['InvalidDocument', 'document']);
    expect(fieldOf(() => encodeEnvelope({ ...doc, id: 'a/../b' }))).toEqual(['InvalidIdentity', 'id']);
    expect(fieldOf(() => encodeEnvelope({ ...doc, type: '' }))).toEqual(['InvalidIdentity', 'doc_type']);
    expect(fieldOf(() => encodeEnvelope({ ...doc, data: { when: 1n } }))).toEqual([
      'InvalidDocument',
      'document.data.when',
    ]);
    expect(() => encodeEnvelope({ ...doc, namespace: '_docdb' })).toThrow(InvalidIdentity);
  });

  it('decodeEnvelope rejects bytes that are not a stored envelope, and bad versions', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(() => decodeEnvelope(enc('not json'), V)).toThrow(InvalidDocument);
    expect(() => decodeEnvelope(enc('[1]'), V)).toThrow(InvalidDocument);
    expect(() => decodeEnvelope(enc('{"namespace":"n","type":"t","id":"i"}'), V)).toThrow(/lacks/);
    expect(() => decodeEnvelope(new Uint8Array([0xff]), V)).toThrow(InvalidDocument);
    expect(() => decodeEnvelope(encodeEnvelope(doc), 'HEAD')).toThrow(InvalidVersion);
  });
});

describe('a toJSON that throws (issue 18 §8)', () => {
  it('is InvalidDocument naming the path, not a raw Error', () => {
    const bad = {
      toJSON() {
        throw new Error('boom');
      },
    };
    let err: unknown;
    try {
      canonicalJson({ data: { when: [1, bad] } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidDocument);
    expect((err as InvalidDocument).data.field).toBe('$.data.when[1]');
    expect((err as Error).message).toBe('$.data.when[1] is not JSON: its toJSON() threw: boom');
  });
});
