/**
 * The hand-written shape checks of the index (src/document/indexes/check.ts) stay as strict as a schema:
 * unknown keys, wrong types, non-finite or fractional numbers, over-long strings and over-long arrays are
 * refused with a typed error naming the field — for options (InvalidConfig) and for files read back from
 * the section (InvalidResponse), where a lax check would turn damage into a wrong answer.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import { buildIndex } from '../../../src/document/indexes/build.js';
import { parseDeclaration, validateDeclaration } from '../../../src/document/indexes/declaration.js';
import { parseManifest, serializeManifest } from '../../../src/document/indexes/format.js';
import { decodeCursor, encodeCursor, validateQuery } from '../../../src/document/indexes/query.js';
import { doc, enc, manifestOf } from './helpers.js';

function refusal<E extends Error>(kind: new (...a: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(kind);
    return e as E;
  }
  throw new Error('accepted');
}

const one = (entry: object) => ({ version: 1, indexes: [{ namespace: 'g', type: 'repo', fields: ['id'], ...entry }] });

describe('declaration shape', () => {
  it.each([
    [null, '(root)', 'must be an object, got null'],
    [[], '(root)', 'must be an object, got array'],
    [{ version: 1 }, 'indexes', 'must be an array, got undefined'],
    [one({ namespace: 7 }), 'indexes[0].namespace', 'must be a string, got number'],
    [one({ fields: 'id' }), 'indexes[0].fields', 'must be an array, got string'],
    [one({ fields: ['id', null] }), 'indexes[0].fields[1]', 'must be a string, got null'],
    // The length bound comes before the elements: a long list is refused without walking it.
    [one({ fields: [...Array.from({ length: 8 }, (_, i) => `data.f${i}`), 'bad'] }), 'indexes[0].fields', 'at most 8'],
    [one({ fields: [`data.${'a'.repeat(196)}`] }), 'indexes[0].fields[0]', 'at most 200 characters'],
    // Known keys are checked before unknown ones, object by object.
    [{ version: 2, indexes: [], extra: 1 }, 'version', 'must be 1'],
    [
      { version: 1, indexes: [{ namespace: 'g', type: 'r', fields: ['x'] }], extra: 1 },
      'indexes[0].fields[0]',
      'dotted',
    ],
    [JSON.parse('{"version":1,"indexes":[],"__proto__":{}}'), '(root)', 'has: unknown key(s) __proto__'],
    [
      {
        version: 1,
        indexes: Array.from({ length: 1001 }, (_, i) => ({ namespace: 'g', type: `t${i}`, fields: ['id'] })),
      },
      'indexes',
      'at most 1000 entries',
    ],
  ])('refuses %j naming the field', (value, field, text) => {
    const e = refusal(InvalidConfig, () => validateDeclaration(value));
    expect(e.data.field).toBe(field);
    expect(e.message).toContain(`index declaration ${field} `);
    expect(e.message).toContain(text);
  });

  it('returns a copy holding only the declared keys, and reads the same rules back as InvalidResponse', () => {
    const input = one({});
    const d = validateDeclaration(input);
    expect(d).toEqual(input);
    expect(d.indexes[0]).not.toBe(input.indexes[0]);
    const e = refusal(InvalidResponse, () => parseDeclaration(enc.encode(JSON.stringify(one({ unique: true })))));
    expect(e.data).toMatchObject({ key: '_docdb/indexes.json', field: 'indexes[0]' });
    expect(e.message).toContain('has: unknown key(s) unique');
  });
});

const base = { namespace: 'g', type: 'repo' };

describe('query shape', () => {
  it.each([
    [{ namespace: '', type: 't' }, 'namespace', 'must not be empty'],
    [{ ...base, where: [{ op: '=', value: 1 }] }, 'where[0].field', 'must be given'],
    [{ ...base, where: [{ field: 'data.a', op: '=' }] }, 'where[0].value', 'must be given'],
    [{ ...base, where: [{ field: 'data.a', op: '=', value: 1, also: 2 }] }, 'where[0]', 'has unknown key(s) also'],
    [{ ...base, orderBy: { field: 'id', direction: 'up' } }, 'orderBy.direction', 'must be "asc" or "desc"'],
    [{ ...base, orderBy: { field: 'id', by: 1 } }, 'orderBy', 'has unknown key(s) by'],
    [{ ...base, limit: 1.5 }, 'limit', 'whole number from 1 to 10000'],
    [{ ...base, limit: Number.NaN }, 'limit', 'got NaN'],
    [{ ...base, limit: Number.POSITIVE_INFINITY }, 'limit', 'got Infinity'],
    [{ ...base, limit: '5' }, 'limit', 'got string'],
    [{ ...base, limit: 10_001 }, 'limit', 'got 10001'],
    [{ ...base, cursor: 'a'.repeat(4097) }, 'cursor', 'at most 4096 characters'],
    [{ ...base, fields: 'data.a' }, 'fields', 'must be an array, got string'],
    // Keys in declaration order, whatever the order given: where before limit.
    [{ ...base, limit: 0, where: [1] }, 'where[0]', 'must be an object, got number'],
  ])('refuses %j naming the field', (q, field, text) => {
    const e = refusal(InvalidConfig, () => validateQuery(q));
    expect(e.data.field).toBe(field);
    expect(e.message).toContain(`query ${field} `);
    expect(e.message).toContain(text);
  });

  it('a clause value given as undefined reaches the operator rule; omitted optional keys stay omitted', () => {
    const e = refusal(InvalidConfig, () =>
      validateQuery({ ...base, where: [{ field: 'data.a', op: '=', value: undefined }] }),
    );
    expect(e.message).toContain('query where[0].value for "=" is undefined');
    expect(validateQuery({ ...base, limit: undefined, orderBy: { field: 'id', direction: undefined } })).toEqual({
      ...base,
      orderBy: { field: 'id' },
    });
  });
});

describe('cursor shape', () => {
  const q = { ...base, orderBy: { field: 'data.n' } };
  const token = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  const fp = JSON.parse(atob(encodeCursor(q, { sort: 1, id: 'r' }))).q as string;

  it('reads back what it issued', () => {
    expect(decodeCursor(q, encodeCursor(q, { sort: [1, 'x'], id: 'r' }))).toEqual({ sort: [1, 'x'], id: 'r' });
  });

  it.each([
    ['an extra key', { v: 1, q: fp, s: 1, i: 'r', x: 1 }],
    ['another version', { v: 2, q: fp, s: 1, i: 'r' }],
    ['an empty id', { v: 1, q: fp, s: 1, i: '' }],
    ['a sort value of no stored kind', { v: 1, q: fp, s: [[1]], i: 'r' }],
    ['no sort value', { v: 1, q: fp, i: 'r' }],
    ['an array', [1, fp, 1, 'r']],
  ])('refuses a token with %s', (_, body) => {
    const e = refusal(InvalidConfig, () => decodeCursor(q, token(body)));
    expect(e.message).toContain('query cursor is not a cursor docdb issued');
  });
});

/** A manifest as JSON, loosely typed so that a test can damage any part of it. */
interface Loose {
  [key: string]: unknown;
  runs: { [key: string]: unknown; parts: { [key: string]: unknown; lower?: unknown }[] }[];
}

describe('manifest shape', () => {
  const docs = Array.from({ length: 60 }, (_, i) => doc('g', 'repo', `r${i}`, { n: i }));
  const m = manifestOf(
    buildIndex({ version: 1, indexes: [{ namespace: 'g', type: 'repo', fields: ['data.n'] }] }, docs, {
      maxPartBytes: 1024,
    }),
    'g',
    'repo',
  );
  const damaged = (f: (x: Loose) => void) => {
    const c = structuredClone(m) as unknown as Loose;
    f(c);
    return enc.encode(JSON.stringify(c));
  };
  const last = m.runs[0]!.parts.length - 1;
  const run = (x: Loose) => x.runs[0]!;
  const part = (x: Loose, i: number) => run(x).parts[i]!;
  const sep = (x: Loose) => part(x, last).lower as unknown[];

  it('has separators to damage', () => {
    expect(last).toBeGreaterThan(0);
    expect(parseManifest(serializeManifest(m), 'g', 'repo')).toEqual(m);
  });

  it.each([
    ['an unknown key', (x: Loose) => (x.extra = 1), 'the manifest has unknown key(s) extra'],
    ['an unknown key in a run', (x: Loose) => (run(x).x = 1), 'runs[0] has unknown key(s) x'],
    ['an unknown key in a part', (x: Loose) => (part(x, 0).x = 1), 'runs[0].parts[0] has unknown key(s) x'],
    ['a fractional count', (x: Loose) => (x.count = 1.5), 'count must be a whole number at least 0, got 1.5'],
    ['a negative count', (x: Loose) => (x.count = -1), 'count must be a whole number at least 0, got -1'],
    ['an unsafe count', (x: Loose) => (x.count = 2 ** 53), 'count must be a whole number'],
    ['a count as text', (x: Loose) => (x.count = '3'), 'count must be a whole number at least 0, got string'],
    ['no next', (x: Loose) => delete run(x).next, 'runs[0].next must be a whole number at least 0, got undefined'],
    [
      'a 10-digit part name',
      (x: Loose) => (part(x, 0).name = '1234567890'),
      'runs[0].parts[0].name must be a part number',
    ],
    ['no lower bound', (x: Loose) => delete part(x, 0).lower, 'runs[0].parts[0].lower must be an array, got undefined'],
    ['a 3-item separator', (x: Loose) => sep(x).push('z'), `runs[0].parts[${last}].lower must be null or a [key, id]`],
    ['a 1-item separator', (x: Loose) => sep(x).pop(), `runs[0].parts[${last}].lower must be null or a [key, id]`],
    [
      'a separator with an empty id',
      (x: Loose) => (sep(x)[1] = ''),
      `runs[0].parts[${last}].lower[1] must not be empty`,
    ],
    [
      'a separator key of no stored kind',
      (x: Loose) => (sep(x)[0] = { a: 1 }),
      `runs[0].parts[${last}].lower[0] must be a stored index value`,
    ],
    ['no fields', (x: Loose) => (x.fields = []), 'fields must list at least one field'],
    ['a run without parts', (x: Loose) => (run(x).parts = []), 'runs[0].parts must list at least one part'],
  ])('refuses a manifest with %s, naming the key and the field', (_, f, text) => {
    const e = refusal(InvalidResponse, () => parseManifest(damaged(f), 'g', 'repo'));
    expect(e.data.key).toBe('_docdb/index/g/repo/manifest.json');
    expect(e.message).toContain(`does not have the manifest's shape (${text}`);
  });
});
