/**
 * The pages of `docs.search` (MemoryRefStore): ties are ordered by (type, id) across page edges even when the
 * index's ordinals order them otherwise, no hit comes twice and none is lost, the last page has no cursor,
 * `limit` takes 1..100, a cursor is pinned to its version, and only the namespace and type asked for are searched;
 * a page reads the document-table parts of its hits and of the hits tied with its ends, not the others.
 */
import { describe, expect, it } from 'vitest';
import type { RefStore } from '../../../src/core/refstore.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertSearchExact } from './search-oracle.js';

const doc = (type: string, id: string, title: string, namespace = 'github') => ({
  namespace,
  type,
  id,
  data: { title },
});
const fields = ['data.title'];
const keyOf = (r: { hits: { type: string; id: string }[] }) => r.hits.map((h) => `${h.type}:${h.id}`);

/** Every page of `limit` hits: their ids in order, and each page's nextCursor. */
async function pages(docs: DocumentStore, text: string, q: { namespace: string; type?: string }, limit: number) {
  const hits: string[] = [];
  const cursors: (string | null)[] = [];
  let cursor: string | undefined;
  do {
    const page = await docs.search(text, { ...q, limit, ...(cursor ? { cursor } : {}) });
    hits.push(...keyOf(page));
    cursors.push(page.nextCursor);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && cursors.length < 20);
  return { hits, cursors };
}

/** A store that records every key it reads (the memory store has no bulk read: a search reads each file by `get`). */
function recording(store: MemoryRefStore): { store: RefStore; keys: string[] } {
  const keys: string[] = [];
  const get: RefStore['get'] = (key, options) => {
    keys.push(key);
    return store.get(key, options);
  };
  return { store: new Proxy(store, { get: (s, p) => (p === 'get' ? get : Reflect.get(s, p, s)) }), keys };
}

describe('search pages', () => {
  it('a page reads the table parts of its hits and their ties only, and orders the ties by id', async () => {
    // Five identical titles tie at the top (a rare title term outweighs a common body term); ordinals follow
    // ids at the build, so with 600 other documents the tie spans table parts 0 ('a'…'m') and 2 ('z').
    const base = new MemoryRefStore();
    const same = ['o/m', 'o/b', 'o/z', 'o/a', 'o/k'].map((id) => doc('repo', id, 'tie'));
    const other = Array.from({ length: 600 }, (_, i) => ({ ...doc('repo', `o/o${i}`, 'x'), data: { title: 'x tie' } }));
    await new DocumentStore(base).putMany([...same, ...other], {
      search: [{ namespace: 'github', type: 'repo', fields }],
    });
    // o/c, created later, takes the last ordinal: by ordinal the tie is a b k m z c, by id a b c k m z.
    await new DocumentStore(base).put(doc('repo', 'o/c', 'tie'));
    const q = { namespace: 'github', type: 'repo' };
    const first = await new DocumentStore(base).search('tie', { ...q, limit: 1 });
    expect(keyOf(first)).toEqual(['repo:o/a']);
    const { store, keys } = recording(base);
    const second = await new DocumentStore(store).search('tie', { ...q, limit: 2, cursor: first.nextCursor! });
    expect(keyOf(second)).toEqual(['repo:o/b', 'repo:o/c']);
    const parts = new Set(keys.filter((k) => k.includes('/table/')));
    // The tie's parts (0, 2, and the part of o/c's ordinal), never all of the type's 3 or more.
    expect(parts.size).toBeLessThanOrEqual(3);
    expect([...parts].some((k) => k.endsWith('/table/1.json'))).toBe(false);
  });

  it('orders a tie by id across page edges when ordinals order it otherwise; no hit twice, none lost', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany(
      ['o/r1', 'o/r2', 'o/r3', 'o/r4', 'o/r5'].map((id) => doc('repo', id, 'same')),
      { search: [{ namespace: 'github', type: 'repo', fields }] },
    );
    // Created later, o/a gets the last ordinal: by ordinal the tie reads r1..r5 a, by id a r1..r5.
    await docs.put(doc('repo', 'o/a', 'same'));
    const q = { namespace: 'github', type: 'repo' };
    const all = await pages(docs, 'same', q, 2);
    expect(all.hits).toEqual(['o/a', 'o/r1', 'o/r2', 'o/r3', 'o/r4', 'o/r5'].map((id) => `repo:${id}`));
    for (const limit of [1, 2, 4, 5]) await assertSearchExact(docs, 'same', q, limit);
  });

  it('the last page has no cursor, also when the hits fill it exactly', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany(
      Array.from({ length: 6 }, (_, i) => doc('repo', `o/r${i}`, 'word')),
      { search: [{ namespace: 'github', type: 'repo', fields }] },
    );
    const q = { namespace: 'github', type: 'repo' };
    const byTwo = await pages(docs, 'word', q, 2);
    expect(byTwo.hits).toHaveLength(6);
    expect(byTwo.cursors.map((c) => c !== null)).toEqual([true, true, false]);
    expect((await docs.search('word', { ...q, limit: 6 })).nextCursor).toBeNull();
    expect((await docs.search('word', { ...q, limit: 5 })).nextCursor).not.toBeNull();
  });

  it('takes a limit of 100 (the most) and gives up to 100 hits', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany(
      Array.from({ length: 101 }, (_, i) => doc('repo', `o/r${String(i).padStart(3, '0')}`, 'word')),
      { search: [{ namespace: 'github', type: 'repo', fields }] },
    );
    const r = await docs.search('word', { namespace: 'github', type: 'repo', limit: 100 });
    expect(r.hits).toHaveLength(100);
    expect(r.total).toBe(101);
    await expect(docs.search('word', { namespace: 'github', type: 'repo', limit: 101 })).rejects.toMatchObject({
      data: { field: 'limit' },
    });
  });

  it('a cursor of one version is refused with another `version`, naming the cursor', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany(
      Array.from({ length: 3 }, (_, i) => doc('repo', `o/r${i}`, 'word')),
      { search: [{ namespace: 'github', type: 'repo', fields }] },
    );
    const q = { namespace: 'github', type: 'repo', limit: 1 };
    const first = await docs.search('word', q);
    const older = first.version!;
    await docs.put(doc('repo', 'o/r9', 'word'));
    const later = await docs.search('word', q);
    expect(later.version).not.toBe(older);
    await expect(docs.search('word', { ...q, version: older, cursor: later.nextCursor! })).rejects.toMatchObject({
      data: { field: 'cursor' },
    });
    // The same cursor with its own version pages on.
    const second = await docs.search('word', { ...q, version: later.version!, cursor: later.nextCursor! });
    expect(second.version).toBe(later.version);
  });

  it('ties across types are ordered by type, then id', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    // One document each, the same title: the same BM25 in both types.
    await docs.putMany([doc('issue', 'o/z', 'tie'), doc('repo', 'o/a', 'tie')], {
      search: [
        { namespace: 'github', type: 'issue', fields },
        { namespace: 'github', type: 'repo', fields },
      ],
    });
    const r = await docs.search('tie', { namespace: 'github' });
    expect(r.hits[0]!.score).toBe(r.hits[1]!.score);
    expect(keyOf(r)).toEqual(['issue:o/z', 'repo:o/a']);
    await assertSearchExact(docs, 'tie', { namespace: 'github' }, 1);
  });

  it('searches only the namespace asked for, and only the type when one is given', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany(
      [doc('repo', 'o/a', 'word'), doc('issue', 'o/b', 'word'), doc('repo', 'o/c', 'word', 'gitlab')],
      {
        search: [
          { namespace: 'github', type: 'repo', fields },
          { namespace: 'github', type: 'issue', fields },
          { namespace: 'gitlab', type: 'repo', fields },
        ],
      },
    );
    const typed = await docs.search('word', { namespace: 'github', type: 'repo' });
    expect(typed.hits.map((h) => `${h.namespace}/${h.type}/${h.id}`)).toEqual(['github/repo/o/a']);
    expect(typed.total).toBe(1);
    const untyped = await docs.search('word', { namespace: 'github' });
    expect(untyped.hits.map((h) => `${h.namespace}/${h.type}/${h.id}`).sort()).toEqual([
      'github/issue/o/b',
      'github/repo/o/a',
    ]);
    const other = await docs.search('word', { namespace: 'gitlab' });
    expect(other.hits.map((h) => `${h.namespace}/${h.type}/${h.id}`)).toEqual(['gitlab/repo/o/c']);
  });
});
