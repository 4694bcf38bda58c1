/**
 * Every hit's document is read and checked before it is returned (issue 42: "documents are checked to contain the
 * words they were found for"): damage the index cannot see by itself — a swapped table, a document gone or
 * replaced by a raw RefStore write — is InvalidResponse naming the search folder, never a wrong hit.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { SEARCH_ROOT } from '../../../src/document/search/index.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';

const REPO = { namespace: 'github', type: 'repo', fields: ['data.title'] };
const q = { namespace: 'github', type: 'repo' };
const doc = (id: string, title: string) => ({ namespace: 'github', type: 'repo', id, data: { title } });
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const KEY_A = 'github/repo/o/a.json';

async function seeded() {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store);
  await docs.putMany([doc('o/a', 'alpha beta'), doc('o/b', 'alpha gamma')], { search: [REPO] });
  expect((await docs.search('alpha beta', q)).hits.map((h) => h.id)).toEqual(['o/a']);
  return { store, docs };
}

async function rejection(p: Promise<unknown>): Promise<InvalidResponse> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(InvalidResponse);
  return e as InvalidResponse;
}

describe('hits are checked against their documents', () => {
  it('a table that maps a two-word hit to a document holding only one of the words', async () => {
    const { store, docs } = await seeded();
    const part = `${SEARCH_ROOT}github/repo/table/0.json`;
    const ids = JSON.parse(dec((await store.get(part))!.value)) as string[];
    expect(ids).toEqual(['o/a', 'o/b']);
    await store.put(part, enc(JSON.stringify(['o/b', 'o/a'])));
    // The index finds o/a's ordinal for "alpha beta"; the table names o/b, which holds "alpha" but not "beta".
    const e = await rejection(docs.search('alpha beta', q));
    expect(e.data).toMatchObject({ key: `${SEARCH_ROOT}github/repo/`, id: 'o/b' });
  });

  it('a hit whose document is gone from the section', async () => {
    const { store, docs } = await seeded();
    await store.delete(KEY_A);
    const e = await rejection(docs.search('beta', q));
    expect(e.message).toMatch(/names "o\/a", which the section does not hold/);
    expect(e.data).toMatchObject({ key: `${SEARCH_ROOT}github/repo/`, id: 'o/a' });
  });

  it('a document at the hit’s key that holds another identity, though it holds the words', async () => {
    for (const other of [{ id: 'o/b' }, { namespace: 'gitlab' }, { type: 'issue' }]) {
      const { store, docs } = await seeded();
      const env = JSON.parse(dec((await store.get(KEY_A))!.value));
      await store.put(KEY_A, enc(JSON.stringify({ ...env, ...other })));
      // get/getMany refuse such a blob; search must not return it as github/repo/o/a either.
      const e = await rejection(docs.search('beta', q));
      expect(e.data, JSON.stringify(other)).toMatchObject({ key: `${SEARCH_ROOT}github/repo/`, id: 'o/a' });
      expect(e.message).toMatch(/whose key holds another document/);
    }
  });
});
