import { describe, expect, it, vi } from 'vitest';
import { InvalidConfig } from '../../src/core/errors.js';
import {
  COMPILED_CACHE_SIZE,
  compiledSchemaFor,
  compileSchema,
  schemaCompiles,
} from '../../src/document/schema/compile.js';
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, MAX_SCHEMA_KEYWORDS } from '../../src/document/schema/limits.js';
import { patternRisk } from '../../src/document/schema/pattern-guard.js';

const repo = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['name', 'stars'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 20 },
    full_name: { type: 'string', pattern: '^[a-z0-9-]+/[a-z0-9-]+$' },
    state: { enum: ['open', 'closed'] },
    stars: { type: 'integer', minimum: 0 },
    score: { type: 'number', exclusiveMaximum: 1 },
    topics: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
    created: { type: 'string', format: 'date-time' },
    owner: { type: 'object', required: ['login'], properties: { login: { type: 'string' } } },
  },
};

/** The InvalidConfig a schema is refused with (fails the test when it is accepted). */
function refusal(schema: unknown, field?: string): InvalidConfig {
  try {
    compileSchema(schema, field ? { field } : {});
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidConfig);
    return e as InvalidConfig;
  }
  throw new Error('schema was accepted');
}

describe('compileSchema: documents', () => {
  const v = compileSchema(repo);

  it('accepts a valid document', () => {
    const ok = {
      name: 'docdb',
      full_name: 'me/docdb',
      state: 'open',
      stars: 3,
      score: 0.5,
      topics: ['a', 'b'],
      created: '2024-01-02T03:04:05Z',
      owner: { login: 'me' },
    };
    expect(v.validate(ok)).toEqual([]);
  });

  it('reports every problem with pointer, rule, expected and the type found', () => {
    const problems = v.validate({
      name: '',
      full_name: 'Not A Repo',
      state: 'merged',
      stars: -1.5,
      score: 1,
      topics: ['a', 'a', 'b'],
      created: 'yesterday',
      owner: {},
      extra: true,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { pointer: '/name', rule: 'minLength', expected: 'at least 1 character', found: 'string' },
        { pointer: '/full_name', rule: 'pattern', expected: 'matching ^[a-z0-9-]+/[a-z0-9-]+$', found: 'string' },
        { pointer: '/state', rule: 'enum', expected: 'one of 2 values', found: 'string' },
        { pointer: '/stars', rule: 'type', expected: 'integer', found: 'number' },
        { pointer: '/stars', rule: 'minimum', expected: '>= 0', found: 'number' },
        { pointer: '/score', rule: 'exclusiveMaximum', expected: '< 1', found: 'integer' },
        { pointer: '/topics', rule: 'maxItems', expected: 'at most 2 items', found: 'array' },
        { pointer: '/topics', rule: 'uniqueItems', expected: 'unique items', found: 'array' },
        { pointer: '/created', rule: 'format', expected: 'format date-time', found: 'string' },
        { pointer: '/owner/login', rule: 'required', expected: 'present', found: 'absent' },
        { pointer: '/extra', rule: 'additionalProperties', expected: 'no other properties', found: 'boolean' },
      ]),
    );
    expect(problems).toHaveLength(11);
  });

  it('names each missing required property in its pointer', () => {
    expect(v.validate({})).toEqual([
      { pointer: '/name', rule: 'required', expected: 'present', found: 'absent' },
      { pointer: '/stars', rule: 'required', expected: 'present', found: 'absent' },
    ]);
    expect(v.validate([])).toEqual([{ pointer: '', rule: 'type', expected: 'object', found: 'array' }]);
  });

  it('never puts a document value in a problem', () => {
    const secret = 'ghp_SECRETsecretSECRETsecret0123456789';
    const s = compileSchema({
      type: 'object',
      properties: {
        a: { type: 'string', maxLength: 5 },
        b: { type: 'string', pattern: '^x' },
        c: { enum: ['x', 'y'] },
        d: { const: 'x' },
        e: { type: 'integer' },
        f: { not: { type: 'string' } },
        g: { anyOf: [{ type: 'integer' }, { maxLength: 2 }] },
        pin: { type: 'integer', maximum: 9, multipleOf: 2 },
      },
      propertyNames: { maxLength: 1 },
    });
    const data = { a: secret, b: secret, c: secret, d: secret, e: secret, f: secret, g: secret, pin: 987654321 };
    const problems = s.validate(data);
    expect(problems.map((p) => p.rule).sort()).toEqual(
      [
        'anyOf',
        'const',
        'enum',
        'maximum',
        'maxLength',
        'multipleOf',
        'not',
        'pattern',
        'propertyNames',
        'type',
      ].sort(),
    );
    expect(JSON.stringify(problems)).not.toContain('SECRET');
    expect(JSON.stringify(problems)).not.toContain('987654321');
  });

  it('applies 2020-12 keywords: prefixItems, unevaluatedProperties, $defs and $ref, dependentRequired', () => {
    const s = compileSchema({
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      type: 'object',
      properties: { at: { $ref: '#/$defs/point' }, card: { type: 'string' } },
      allOf: [{ properties: { kind: { const: 'pin' } } }],
      dependentRequired: { card: ['expiry'] },
      unevaluatedProperties: false,
    });
    expect(s.validate({ at: [1, 2], kind: 'pin' })).toEqual([]);
    expect(s.validate({ at: [1, 'x', 3], kind: 'pin', other: 1, card: 'c' })).toEqual(
      expect.arrayContaining([
        { pointer: '/at/1', rule: 'type', expected: 'number', found: 'string' },
        { pointer: '/at/2', rule: 'items', expected: 'no more items', found: 'integer' },
        { pointer: '/other', rule: 'unevaluatedProperties', expected: 'no unevaluated properties', found: 'integer' },
        { pointer: '/expiry', rule: 'dependentRequired', expected: 'present', found: 'absent' },
        // 2020-12: a property whose subschema failed is not "evaluated", so unevaluatedProperties names it too.
        { pointer: '/at', rule: 'unevaluatedProperties', expected: 'no unevaluated properties', found: 'array' },
      ]),
    );
    expect(s.validate({ at: [1, 'x', 3], kind: 'pin', other: 1, card: 'c' })).toHaveLength(5);
  });

  it('follows a recursive $ref along the data', () => {
    const tree = compileSchema({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    });
    expect(tree.validate({ name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] })).toEqual([
      { pointer: '/children/0/children/0/name', rule: 'type', expected: 'string', found: 'integer' },
    ]);
  });

  it('does not change the schema it was given', () => {
    const schema = { properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } };
    const before = JSON.stringify(schema);
    compileSchema(schema).validate({ a: 1 });
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(['$ref']);
  });
});

describe('compileSchema: untrusted schemas', () => {
  it('refuses a $ref to the network and fetches nothing', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const e = refusal({ properties: { a: { $ref: 'https://evil.example/schema.json' } } }, 'spec.schema');
    expect(e.data).toMatchObject({ field: 'spec.schema', pointer: '/properties/a/$ref' });
    expect(e.message).toContain('"/properties/a/$ref"');
    expect(e.message).toContain('nothing is fetched');
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('refuses a $ref to a file, and one that names nothing inside the schema', () => {
    expect(refusal({ $ref: './other.json' }).data.pointer).toBe('/$ref');
    expect(refusal({ $ref: '#/$defs/missing' }).message).toContain('does not point at a schema');
    expect(refusal({ $ref: '#nowhere' }).data.pointer).toBe('/$ref');
  });

  it('accepts #anchor references', () => {
    const s = compileSchema({ $defs: { n: { $anchor: 'num', type: 'number' } }, properties: { a: { $ref: '#num' } } });
    expect(s.validate({ a: 'x' })).toEqual([{ pointer: '/a', rule: 'type', expected: 'number', found: 'string' }]);
  });

  it('refuses a $ref loop that never moves into the data (it would overflow the stack)', () => {
    expect(refusal({ $ref: '#' }).message).toContain('$ref loop');
    const loop = { $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' };
    expect(refusal(loop).message).toContain('$ref loop');
  });

  it.each([
    ['^(a+)+$', 'repeats a group'],
    ['^(a|ab)*$', 'repeats a group'],
    ['^([a-z]*){2,}$', 'repeats a group'],
    ['^(a)\\1$', 'backreference'],
    ['^a*a*$', 'two unbounded quantifiers'],
    ['^.*x.*$', 'two unbounded quantifiers'],
    ['^(a*a*)$', 'two unbounded quantifiers'],
    ['^(?=.*a.*a)b$', 'two unbounded quantifiers'],
    ['[a-z]+$', 'does not start with ^'],
    ['^a+|b+', 'top-level |'],
    ['^a{1,100000}$', 'more than 1000'],
    [`^${'a'.repeat(300)}$`, 'longer than'],
    ['^(', 'not a valid regular expression'],
  ])('refuses the risky pattern %s', (pattern, why) => {
    const e = refusal({ properties: { a: { pattern } } });
    expect(e.data.pointer).toBe('/properties/a/pattern');
    expect(e.message).toContain(why);
    expect(refusal({ patternProperties: { [pattern]: true } }).data.pointer).toBe(
      `/patternProperties/${pattern.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    );
  });

  it.each([
    '^[a-z0-9-]+/[a-z0-9-]+$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^(https?://)?[a-z.]+$',
    '^[A-Z][a-z]*$',
    '^.*$',
    'abc',
    '^v\\d+\\.\\d+\\.\\d+$',
  ])('accepts the safe pattern %s', (pattern) => {
    expect(patternRisk(pattern)).toBeUndefined();
  });

  it('a refused pattern really backtracks catastrophically (what the guard prevents)', () => {
    // Not a timing assert: counts the steps a naive backtracking matcher of ^(a+)+$ takes, doubling per character.
    let steps = 0;
    const match = (s: string, i: number): boolean => {
      // (a+)+ then $: each split of the run of a's into groups is tried before failing on the final 'b'.
      steps++;
      if (i === s.length) return true;
      for (let j = i + 1; j <= s.length && s[j - 1] === 'a'; j++) if (match(s, j)) return true;
      return false;
    };
    match(`${'a'.repeat(16)}b`, 0);
    expect(steps).toBeGreaterThanOrEqual(2 ** 16);
  });

  it('refuses a schema nested deeper than the cap (a 2,000-deep schema) without overflowing the stack', () => {
    let deep: object = { type: 'string' };
    for (let i = 0; i < 2_000; i++) deep = { items: deep };
    expect(refusal(deep).message).toContain(`deeper than ${MAX_SCHEMA_DEPTH}`);
    const cyclic: Record<string, unknown> = {};
    cyclic.not = cyclic;
    expect(refusal(cyclic).message).toContain('deeper than');
  });

  it('refuses a schema over the size cap and one with too many keywords', () => {
    expect(refusal({ description: 'x'.repeat(MAX_SCHEMA_BYTES) }).message).toContain(`at most ${MAX_SCHEMA_BYTES}`);
    const properties = Object.fromEntries(Array.from({ length: MAX_SCHEMA_KEYWORDS }, (_, i) => [`p${i}`, true]));
    expect(refusal({ properties }).message).toContain(`more than ${MAX_SCHEMA_KEYWORDS} keys`);
  });

  it('refuses an unknown keyword naming its pointer and what is allowed', () => {
    const e = refusal({ properties: { a: { type: 'string', maxlength: 3 } } });
    expect(e.data).toMatchObject({ field: 'schema', pointer: '/properties/a/maxlength' });
    expect(e.message).toContain('unknown keyword "maxlength"');
    expect(e.message).toContain('maxLength');
    expect(refusal({ $dynamicRef: '#x' }).message).toContain('unknown keyword "$dynamicRef"');
  });

  it.each([
    [{ type: 'text' }, '/type', 'must be one of string'],
    [{ minLength: -1 }, '/minLength', 'non-negative integer'],
    [{ maximum: '3' }, '/maximum', 'must be a number'],
    [{ multipleOf: 0 }, '/multipleOf', 'greater than 0'],
    [{ required: ['a', 'a'] }, '/required', 'distinct property names'],
    [{ enum: [] }, '/enum', 'non-empty array'],
    [{ format: 'uri' }, '/format', 'must be one of date'],
    [{ items: [{ type: 'string' }] }, '/items', 'prefixItems'],
    [{ anyOf: [] }, '/anyOf', 'non-empty array of schemas'],
    [{ properties: { a: 3 } }, '/properties/a', 'object or a boolean'],
    [{ properties: { a: { $schema: 'http://json-schema.org/draft-07/schema#' } } }, '/properties/a/$schema', '2020-12'],
    [{ $schema: 'http://json-schema.org/draft-07/schema#' }, '/$schema', 'only'],
    [{ properties: { a: { $id: 'https://x.example/a' } } }, '/properties/a/$id', 'only on the root'],
    [{ const: Number.NaN }, '/const', 'finite'],
    [{ default: new Date(0) }, '/default', 'is not JSON'],
  ])('refuses an invalid keyword value %j', (schema, pointer, why) => {
    const e = refusal(schema);
    expect(e.data.pointer).toBe(pointer);
    expect(e.message).toContain(why);
  });
});

describe('compiledSchemaFor', () => {
  it('compiles a blob SHA once, and again only after it left the bounded cache', () => {
    const sha = 'a'.repeat(40);
    const start = schemaCompiles();
    const first = compiledSchemaFor(sha, { type: 'string' });
    expect(compiledSchemaFor(sha, { type: 'string' })).toBe(first);
    expect(schemaCompiles()).toBe(start + 1);
    for (let i = 0; i < COMPILED_CACHE_SIZE; i++) compiledSchemaFor(`${i}`.padStart(40, 'b'), true);
    expect(schemaCompiles()).toBe(start + 1 + COMPILED_CACHE_SIZE);
    expect(compiledSchemaFor(sha, { type: 'string' })).not.toBe(first);
    expect(schemaCompiles()).toBe(start + 2 + COMPILED_CACHE_SIZE);
  });

  it('keeps a recently used SHA while older ones are evicted', () => {
    const keep = 'c'.repeat(40);
    const kept = compiledSchemaFor(keep, { type: 'number' });
    for (let i = 0; i < COMPILED_CACHE_SIZE * 2; i++) {
      compiledSchemaFor(`${i}`.padStart(40, 'd'), true);
      compiledSchemaFor(keep, { type: 'number' });
    }
    expect(compiledSchemaFor(keep, { type: 'number' })).toBe(kept);
  });

  it('caches nothing for a refused schema', () => {
    const sha = 'e'.repeat(40);
    expect(() => compiledSchemaFor(sha, { pattern: '^(a+)+$' })).toThrow(InvalidConfig);
    expect(compiledSchemaFor(sha, { type: 'string' }).validate(1)).toEqual([
      { pointer: '', rule: 'type', expected: 'string', found: 'integer' },
    ]);
  });
});

describe('compileSchema: false schemas inside summarized keywords', () => {
  it('reports an anyOf once, not the branches that failed inside it', () => {
    const s = compileSchema({ anyOf: [{ type: 'object', additionalProperties: false }, { type: 'string' }] });
    expect(s.validate({ x: 1 })).toEqual([
      { pointer: '', rule: 'anyOf', expected: 'any of 2 schemas', found: 'object' },
    ]);
  });
});

describe('the validator in a browser bundle', () => {
  it('carries no eval or new Function, so it runs under a Content-Security-Policy without unsafe-eval', async () => {
    const { build } = await import('esbuild');
    const bundle = async (contents: string) => {
      const out = await build({
        stdin: { contents, resolveDir: process.cwd(), loader: 'ts' },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      });
      return new TextDecoder().decode(out.outputFiles[0]!.contents);
    };
    const evalLike = /\bnew Function\b|\bFunction\(|\beval\(/;
    // The check sees what it guards against: a code-generating validator is caught.
    expect(await bundle("import Ajv from 'ajv/dist/2020.js'; console.log(new Ajv());")).toMatch(evalLike);
    const ours = await bundle(
      "import { compileSchema } from './src/document/schema/compile.ts'; console.log(compileSchema({ type: 'string' }));",
    );
    expect(ours).toContain('compileSchema');
    expect(ours).not.toMatch(evalLike);
  });
});
