import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import {
  parseSearchDeclaration,
  SEARCH_DECLARATION_KEY,
  searchDeclarationChanges,
  serializeSearchDeclaration,
  validateSearchDeclaration,
} from '../../../src/document/search/index.js';

const one = (fields: unknown, type = 'repo') => ({ version: 1, search: [{ namespace: 'github', type, fields }] });
const enc = (s: string) => new TextEncoder().encode(s);

function problem(value: unknown, field?: string): InvalidConfig {
  try {
    validateSearchDeclaration(value, field);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidConfig);
    return e as InvalidConfig;
  }
  throw new Error('accepted');
}

describe('search declaration', () => {
  it('accepts id and dotted data paths', () => {
    expect(validateSearchDeclaration(one(['id', 'data.title', 'data.a.b'])).search[0]!.fields).toEqual([
      'id',
      'data.title',
      'data.a.b',
    ]);
  });

  it('names the field and what is allowed', () => {
    const e = problem(one(['data.title', 'title']));
    expect(e.data.field).toBe('search[0].fields[1]');
    expect(e.message).toMatch(/"id" or a dotted path into data/);
    expect(problem(one([])).data.field).toBe('search[0].fields');
    expect(problem(one(['data.a', 'data.a'])).message).toMatch(/twice/);
    expect(problem(one(Array.from({ length: 9 }, (_, i) => `data.f${i}`))).message).toMatch(/at most 8/);
    expect(problem(one(['data..x'])).message).toMatch(/empty segment/);
    expect(problem({ version: 2, search: [] }).data.field).toBe('version');
    expect(problem({ version: 1, search: [], extra: 1 }).message).toMatch(/unknown key\(s\) extra/);
    expect(problem(one(['data.a'], '../x')).data.field).toBe('search[0]');
  });

  it('prefixes the field when given one', () => {
    expect(problem(one(['title']), 'projections[2].search').data.field).toBe(
      'projections[2].search.search[0].fields[0]',
    );
  });

  it('refuses a type declared twice', () => {
    const d = { version: 1, search: [one(['data.a']).search[0], one(['data.b']).search[0]] };
    expect(problem(d).message).toMatch(/github\/repo again/);
  });

  it('serializes canonically (sorted, so re-declaring writes the same bytes)', () => {
    const a = validateSearchDeclaration({
      version: 1,
      search: [one(['data.x'], 'z').search[0], one(['data.y'], 'a').search[0]],
    });
    const text = new TextDecoder().decode(serializeSearchDeclaration(a));
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
    expect(parseSearchDeclaration(serializeSearchDeclaration(a)).search.map((t) => t.type)).toEqual(['a', 'z']);
  });

  it('parses absent as empty and damaged as InvalidResponse naming the key', () => {
    expect(parseSearchDeclaration(undefined)).toEqual({ version: 1, search: [] });
    for (const bad of ['{', '[]', '{"version":1,"search":[{"namespace":"g","type":"t","fields":["x"]}]}']) {
      try {
        parseSearchDeclaration(enc(bad));
        throw new Error('accepted');
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidResponse);
        expect((e as InvalidResponse).data.key).toBe(SEARCH_DECLARATION_KEY);
      }
    }
  });

  it('lists what to build and drop', () => {
    const before = validateSearchDeclaration({
      version: 1,
      search: [one(['data.a'], 'keep').search[0], one(['data.a'], 'gone').search[0], one(['data.a'], 'chg').search[0]],
    });
    const after = validateSearchDeclaration({
      version: 1,
      search: [one(['data.a'], 'keep').search[0], one(['data.b'], 'chg').search[0], one(['data.a'], 'new').search[0]],
    });
    const { build, drop } = searchDeclarationChanges(before, after);
    expect(build.map((t) => t.type)).toEqual(['chg', 'new']);
    expect(drop.map((t) => t.type)).toEqual(['gone']);
  });
});
