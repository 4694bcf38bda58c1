import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import {
  DECLARATION_KEY,
  parseDeclaration,
  serializeDeclaration,
  validateDeclaration,
} from '../../../src/document/indexes/declaration.js';
import { enc } from './helpers.js';

const one = (fields: unknown, extra: object = {}) => ({
  version: 1,
  indexes: [{ namespace: 'github', type: 'repo', fields, ...extra }],
});

function problem(value: unknown): InvalidConfig {
  try {
    validateDeclaration(value);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidConfig);
    return e as InvalidConfig;
  }
  throw new Error('accepted');
}

describe('index declaration', () => {
  it('accepts id and dotted data paths', () => {
    const d = validateDeclaration(one(['id', 'data.stars', 'data.owner.login']));
    expect(d.indexes[0]!.fields).toEqual(['id', 'data.stars', 'data.owner.login']);
  });

  it.each([
    [one([]), 'indexes[0].fields', 'at least one field'],
    [one(['data.a', 'data.a']), 'indexes[0].fields', 'lists a field twice'],
    [one(['stars']), 'indexes[0].fields[0]', 'must be "id" or a dotted path into data'],
    [one(['data.']), 'indexes[0].fields[0]', 'empty segment'],
    [one(['data.a..b']), 'indexes[0].fields[0]', 'empty segment'],
    [one(Array.from({ length: 9 }, (_, i) => `data.f${i}`)), 'indexes[0].fields', 'at most 8 fields'],
    [one(['data.a'], { unique: true }), 'indexes[0]', 'unknown key(s) unique'],
    [{ version: 2, indexes: [] }, 'version', 'must be 1'],
    [{ version: 1, indexes: [], extra: 1 }, '(root)', 'unknown key(s) extra'],
    [one([`data.${'ü'.repeat(50)}`]), 'indexes[0].fields[0]', 'too long once encoded'],
    [one(['data.a\u0000']), 'indexes[0].fields[0]', 'control characters'],
  ])('names the field and what is allowed: %j', (value, field, text) => {
    const e = problem(value);
    expect(e.data.field).toBe(field);
    expect(e.message).toContain(text);
    expect(e.message).toContain(field);
  });

  it('checks namespace and type with the identity rules, and each (namespace, type) once', () => {
    const reserved = problem({ version: 1, indexes: [{ namespace: '_docdb', type: 'x', fields: ['id'] }] });
    expect(reserved.message).toMatch(/indexes\[0\].*reserved/);
    const twice = problem({
      version: 1,
      indexes: [
        { namespace: 'g', type: 'repo', fields: ['id'] },
        { namespace: 'g', type: 'repo', fields: ['data.a'] },
      ],
    });
    expect(twice.data.field).toBe('indexes[1]');
    expect(twice.message).toContain('g/repo again');
  });

  it('reads the stored file as untrusted: missing is no indexes, damage is InvalidResponse naming the key', () => {
    expect(parseDeclaration(undefined)).toEqual({ version: 1, indexes: [] });
    expect(() => parseDeclaration(enc.encode('{'))).toThrow(InvalidResponse);
    expect(() => parseDeclaration(new Uint8Array([0xff]))).toThrow(/is not JSON/);
    try {
      parseDeclaration(enc.encode(JSON.stringify(one(['nope']))));
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidResponse);
      expect((e as InvalidResponse).data).toMatchObject({ key: DECLARATION_KEY, field: 'indexes[0].fields[0]' });
    }
  });

  it('serializes one spelling per declaration, sorted by namespace/type, and reads it back', () => {
    const a = { namespace: 'g', type: 'repo', fields: ['data.a'] };
    const b = { namespace: 'g', type: 'issue', fields: ['id'] };
    const bytes = serializeDeclaration({ version: 1, indexes: [a, b] });
    expect(bytes).toEqual(serializeDeclaration({ version: 1, indexes: [b, a] }));
    expect(parseDeclaration(bytes).indexes.map((t) => t.type)).toEqual(['issue', 'repo']);
  });
});
