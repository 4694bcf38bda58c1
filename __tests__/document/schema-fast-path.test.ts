import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/document/schema/check-schema.js';
import { compileSchema } from '../../src/document/schema/compile.js';
import { fastPath } from '../../src/document/schema/fast-path.js';

/** The library's verdict: the fast path must agree with it on every document, valid or not. */
const libraryValid = (schema: unknown, data: unknown) =>
  new Validator(structuredClone(schema) as object, '2020-12', false).validate(data).valid;

const KEYS = ['a', 'b', 'ab', 'c'];
const key = fc.constantFrom(...KEYS);
const small = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -1.5));
const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  small,
  fc.constantFrom('', 'a', 'ab', 'x/y', '2024-01-02', '2024-01-02T03:04:05Z', 'é😀', 'no'),
);
const data = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;

const type = fc.oneof(
  fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array'),
  fc.uniqueArray(fc.constantFrom('string', 'integer', 'null', 'array', 'object'), { minLength: 1, maxLength: 3 }),
);
const schema = fc.letrec<{ s: unknown }>((tie) => ({
  s: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    fc
      .tuple(
        fc.record({
          type,
          enum: fc.array(leaf, { minLength: 1, maxLength: 3 }),
          const: fc.oneof(leaf, fc.constant([1, 'a']), fc.constant({ a: 1 })),
          minimum: small,
          maximum: small,
          exclusiveMinimum: small,
          exclusiveMaximum: small,
          minLength: fc.nat(3),
          maxLength: fc.nat(3),
          pattern: fc.constantFrom('^a', 'b$', '^[a-z]+/[a-z]+$', 'é'),
          format: fc.constantFrom('date', 'date-time', 'email', 'uuid'),
          items: tie('s'),
          prefixItems: fc.array(tie('s'), { minLength: 1, maxLength: 2 }),
          minItems: fc.nat(3),
          maxItems: fc.nat(3),
          uniqueItems: fc.boolean(),
          properties: fc.dictionary(key, tie('s'), { maxKeys: 3 }),
          patternProperties: fc.dictionary(fc.constantFrom('^a', 'b$'), tie('s'), { maxKeys: 2 }),
          additionalProperties: tie('s'),
          required: fc.uniqueArray(key, { maxLength: 3 }),
          minProperties: fc.nat(3),
          maxProperties: fc.nat(3),
        }),
        fc.nat(3),
      )
      // One to three keywords per schema: with all of them at once almost no document is valid, and a
      // wrong "valid" would never be seen.
      .chain(([all, n]) =>
        fc
          .subarray(Object.keys(all), { minLength: 1, maxLength: Math.max(1, n) })
          .map((ks) => Object.fromEntries(ks.map((k) => [k, all[k as keyof typeof all]]))),
      ),
  ),
})).s;

describe('schema fast path', () => {
  it('agrees with @cfworker/json-schema on every generated schema and document', () => {
    fc.assert(
      fc.property(schema, fc.array(data, { minLength: 1, maxLength: 8 }), (s, docs) => {
        const valid = fastPath(s, checkSchema(s, 'schema'))!;
        expect(valid).toBeDefined();
        for (const d of docs) expect(valid(d)).toBe(libraryValid(s, d));
      }),
      { numRuns: 1500 },
    );
  });

  it('agrees on objects where properties, patternProperties and additionalProperties meet', () => {
    const sub = fc.oneof(fc.boolean(), fc.constant({ type: 'integer' }), fc.constant({ type: 'string' }));
    const objectSchema = fc.record(
      {
        properties: fc.dictionary(key, sub, { maxKeys: 2 }),
        patternProperties: fc.dictionary(fc.constantFrom('^a', 'b$'), sub, { minKeys: 1, maxKeys: 2 }),
        additionalProperties: sub,
      },
      { requiredKeys: ['patternProperties', 'additionalProperties'] },
    );
    const objects = fc.dictionary(key, fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('s')), { maxKeys: 3 });
    fc.assert(
      fc.property(objectSchema, fc.array(objects, { minLength: 1, maxLength: 8 }), (s, docs) => {
        const valid = fastPath(s, checkSchema(s, 'schema'))!;
        for (const d of docs) expect(valid(d)).toBe(libraryValid(s, d));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees through a $ref, a recursive $ref and $defs', () => {
    const s = {
      $defs: { name: { type: 'string', minLength: 1 } },
      type: 'object',
      properties: { n: { $ref: '#/$defs/name' }, kids: { type: 'array', items: { $ref: '#' } } },
    };
    const valid = fastPath(s, checkSchema(s, 'schema'))!;
    fc.assert(
      fc.property(data, (d) => {
        expect(valid(d)).toBe(libraryValid(s, d));
      }),
      { numRuns: 2000 },
    );
    expect(valid({ n: 'x', kids: [{ n: 'y', kids: [{ n: '' }] }] })).toBe(false);
    expect(valid({ n: 'x', kids: [{ n: 'y', kids: [{ n: 'z' }] }] })).toBe(true);
  });

  it('leaves schemas with other keywords to the library', () => {
    for (const s of [
      { anyOf: [{ type: 'string' }] },
      { properties: { a: { not: true } } },
      { unevaluatedProperties: false },
    ]) {
      expect(fastPath(s, checkSchema(s, 'schema'))).toBeUndefined();
    }
    // …and their documents still get every problem.
    expect(compileSchema({ properties: { a: { not: true } } }).validate({ a: 1 })).toEqual([
      { pointer: '/a', rule: 'not', expected: 'not matching its schema', found: 'integer' },
    ]);
  });

  it('an invalid document still gets its problems from the library', () => {
    const c = compileSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } } });
    expect(c.validate({ n: 1 })).toEqual([]);
    expect(c.validate({ n: -1 })).toEqual([{ pointer: '/n', rule: 'minimum', expected: '>= 0', found: 'integer' }]);
  });
});
