/**
 * The index and search declarations are read back through one reader (check.ts `checkedJson` with
 * `shapeChecked`): the exact messages, keys and fields each file's damage gives — the wording both parsers had
 * before they shared it.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import { parseDeclaration } from '../../../src/document/indexes/declaration.js';
import { parseSearchDeclaration } from '../../../src/document/search/index.js';

const enc = (s: string) => new TextEncoder().encode(s);

function refusal(parse: (b: Uint8Array) => unknown, bytes: Uint8Array): { message: string; data: object } {
  try {
    parse(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidResponse);
    const { key, field } = (e as InvalidResponse).data;
    return { message: (e as Error).message, data: field === undefined ? { key } : { key, field } };
  }
  throw new Error('accepted');
}

const readers = [
  { name: 'index', parse: parseDeclaration, key: '_docdb/indexes.json', list: 'indexes', what: 'index declaration' },
  {
    name: 'search',
    parse: parseSearchDeclaration,
    key: '_docdb/search.json',
    list: 'search',
    what: 'search declaration',
  },
];

describe.each(readers)('the $name declaration read back', ({ parse, key, list, what }) => {
  it('not UTF-8, or not JSON: "<key> is not JSON (why); fix or delete it"', () => {
    expect(refusal(parse, new Uint8Array([0xff]))).toEqual({
      message: `${key} is not JSON (not UTF-8); fix or delete it`,
      data: { key },
    });
    expect(refusal(parse, enc('{')).message).toMatch(new RegExp(`^${key} is not JSON \\(.+\\); fix or delete it$`));
  });

  it('a shape problem names the field, "(root)" for the file itself, and unknown keys', () => {
    expect(refusal(parse, enc('[]'))).toEqual({
      message: `${key}: ${what} (root) is invalid: must be an object, got array`,
      data: { key, field: '(root)' },
    });
    expect(refusal(parse, enc(JSON.stringify({ version: 2, [list]: [] })))).toEqual({
      message: `${key}: ${what} version is invalid: must be 1`,
      data: { key, field: 'version' },
    });
    expect(refusal(parse, enc(JSON.stringify({ version: 1, [list]: [], extra: 1 })))).toEqual({
      message: `${key}: ${what} (root) has: unknown key(s) extra`,
      data: { key, field: '(root)' },
    });
  });

  it('an entry that breaks the identity rules names the entry', () => {
    const bad = { version: 1, [list]: [{ namespace: '..', type: 'repo', fields: ['id'] }] };
    const r = refusal(parse, enc(JSON.stringify(bad)));
    expect(r.data).toEqual({ key, field: `${list}[0]` });
    expect(r.message).toMatch(new RegExp(`^${key}: ${what} ${list}\\[0\\]: namespace ".." is invalid`));
  });
});
