/**
 * DocumentStore's search on one store (MemoryRefStore): declaring builds in one commit, every write keeps it,
 * dropping deletes every file, the options are checked before any I/O, and a document that does not hold the
 * words it was found for is `InvalidResponse`.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../../src/core/commit-parts.js';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import { opsToChanges } from '../../../src/document/batch.js';
import { declarationsDerive } from '../../../src/document/declarations.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import type { DocumentOp } from '../../../src/document/document-types.js';
import { SEARCH_DECLARATION_PATH, searchManifestAt } from '../../../src/document/first-reads.js';
import { indexedOpsOf, PartsCollector } from '../../../src/document/indexed-ops.js';
import { SEARCH_DECLARATION_KEY, SEARCH_ROOT, searchManifestPath } from '../../../src/document/search/index.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertNoStrayFiles, assertSearchExact } from './search-oracle.js';

const REPO = { namespace: 'github', type: 'repo', fields: ['data.title', 'data.body'] };
const doc = (id: string, title: string, body = '') => ({
  namespace: 'github',
  type: 'repo',
  id,
  data: { title, body },
});
const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);

async function keys(store: MemoryRefStore, prefix: string): Promise<string[]> {
  return (await store.list({ prefix })).entries.map((e) => e.key);
}

describe('DocumentStore search', () => {
  it("spells the search keys of the write's first read round as the search core does", () => {
    expect(SEARCH_DECLARATION_PATH).toBe(SEARCH_DECLARATION_KEY);
    expect(searchManifestAt('github', 'repo')).toBe(searchManifestPath('github', 'repo'));
  });

  it('declaring builds from the documents in one commit; declaring again writes nothing', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'Git database', 'kept in a ref'), doc('o/b', 'Café search', 'fast')]);
    const before = await docs.head();
    const r = await docs.declareSearch([REPO]);
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBe(before);
    expect((await store.history(SEARCH_DECLARATION_KEY)).entries).toHaveLength(1);
    expect(await docs.searchDeclaration()).toEqual({ version: 1, search: [REPO] });
    expect(ids(await docs.search('database', { namespace: 'github', type: 'repo' }))).toEqual(['o/a']);
    expect(ids(await docs.search('cafe', { namespace: 'github' }))).toEqual(['o/b']);
    const again = await docs.declareSearch([REPO]);
    expect(again.changed).toBe(false);
  });

  it('dropping search that was never declared writes nothing', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.put(doc('o/a', 'x'));
    const r = await docs.declareSearch([{ ...REPO, fields: [] }]);
    expect(r.changed).toBe(false);
  });

  it('put, delete and commit keep it exact; dropping deletes every file', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.declareSearch([REPO]);
    await docs.put(doc('o/a', 'alpha beta'));
    await docs.put(doc('o/b', 'beta gamma'));
    expect(ids(await docs.search('beta', { namespace: 'github', type: 'repo' })).sort()).toEqual(['o/a', 'o/b']);
    await docs.put(doc('o/a', 'delta'));
    expect(ids(await docs.search('beta', { namespace: 'github', type: 'repo' }))).toEqual(['o/b']);
    await docs.delete({ namespace: 'github', doc_type: 'repo', id: 'o/b' });
    expect((await docs.search('beta', { namespace: 'github', type: 'repo' })).total).toBe(0);
    await docs.commit([{ op: 'put', document: doc('o/c', 'gamma ray') }], { message: 'c' });
    expect(ids(await docs.search('gam', { namespace: 'github', type: 'repo' }))).toEqual(['o/c']);
    expect((await keys(store, '_docdb/search/')).length).toBeGreaterThan(0);
    await docs.declareSearch([{ ...REPO, fields: [] }]);
    expect(await keys(store, '_docdb/search')).toEqual([]);
    expect(await docs.searchDeclaration()).toEqual({ version: 1, search: [] });
  });

  it('declares in the same commit as a write (commit, putMany, commitParts)', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    const r = await docs.putMany([doc('o/a', 'one'), doc('o/b', 'two')], { search: [REPO] });
    expect(r.written).toContain(SEARCH_DECLARATION_KEY);
    expect(ids(await docs.search('two', { namespace: 'github', type: 'repo' }))).toEqual(['o/b']);
    await docs.commitParts([[{ op: 'put', document: doc('o/c', 'three') }]], {
      search: [{ namespace: 'github', type: 'issue', fields: ['data.title'] }],
    });
    const issue = { namespace: 'github', type: 'issue', id: 'o/r#1', data: { title: 'three bugs' } };
    await docs.put(issue);
    const all = await docs.search('three', { namespace: 'github' });
    expect(all.hits.map((h) => `${h.type}:${h.id}`).sort()).toEqual(['issue:o/r#1', 'repo:o/c']);
  });

  it('pages with a cursor pinned to the version of the first page', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany(
      Array.from({ length: 5 }, (_, i) => doc(`o/r${i}`, 'same words')),
      { search: [REPO] },
    );
    const first = await docs.search('same', { namespace: 'github', type: 'repo', limit: 2 });
    expect(first.total).toBe(5);
    expect(first.nextCursor).toBe(`${first.version}.2`);
    await docs.put(doc('o/r9', 'same'));
    const second = await docs.search('same', {
      namespace: 'github',
      type: 'repo',
      limit: 2,
      cursor: first.nextCursor!,
    });
    expect(second.version).toBe(first.version);
    const third = await docs.search('same', {
      namespace: 'github',
      type: 'repo',
      limit: 2,
      cursor: second.nextCursor!,
    });
    expect(third.nextCursor).toBeNull();
    expect([...ids(first), ...ids(second), ...ids(third)].sort()).toEqual(['o/r0', 'o/r1', 'o/r2', 'o/r3', 'o/r4']);
  });

  it('refuses bad options before any I/O, and a type without search names how to declare it', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.put(doc('o/a', 'x'));
    const q = { namespace: 'github', type: 'repo' };
    await expect(docs.search('', q)).rejects.toThrow(InvalidConfig);
    await expect(docs.search('x', { ...q, limit: 0 })).rejects.toMatchObject({ data: { field: 'limit' } });
    await expect(docs.search('x', { ...q, limit: 101 })).rejects.toMatchObject({ data: { field: 'limit' } });
    await expect(docs.search('x', { ...q, cursor: 'nope' })).rejects.toMatchObject({ data: { field: 'cursor' } });
    await expect(docs.search('x', q)).rejects.toThrow(/github\/repo has no search declared.*declareSearch/);
    await expect(docs.declareSearch([{ namespace: 'github', type: 'repo', fields: ['title'] }])).rejects.toThrow(
      InvalidConfig,
    );
    await expect(docs.declareSearch('x' as never)).rejects.toMatchObject({ data: { field: 'search' } });
  });

  it('a document that no longer holds the words it was found for is InvalidResponse (raw write past the index)', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'alpha'), doc('o/b', 'beta')], { search: [REPO] });
    // A raw RefStore write bypasses documents' declarations: the index still says o/a holds "alpha".
    const key = 'github/repo/o/a.json';
    const env = JSON.parse(new TextDecoder().decode((await store.get(key))!.value));
    env.data.title = 'omega';
    await store.put(key, new TextEncoder().encode(JSON.stringify(env)));
    await expect(docs.search('alpha', { namespace: 'github', type: 'repo' })).rejects.toThrow(InvalidResponse);
  });

  it('a large write that shrinks the index deletes the files the new build does not rewrite', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store, { search: { maxShardBytes: 512, largeTypeWrite: 4 } });
    const filler = (i: number) => Array.from({ length: 40 }, (_, j) => `w${i}x${j}`).join(' ');
    await docs.putMany(
      Array.from({ length: 8 }, (_, i) => doc(`o/r${i}`, i === 7 ? 'alpha' : `alpha ${filler(i)}`)),
      { search: [REPO] },
    );
    const before = (await keys(store, `${SEARCH_ROOT}github/repo/terms/`)).length;
    expect(before).toBeGreaterThan(1);
    await docs.commit(
      Array.from({ length: 7 }, (_, i) => ({
        op: 'delete' as const,
        identity: { namespace: 'github', doc_type: 'repo', id: `o/r${i}` },
      })),
    );
    expect((await keys(store, `${SEARCH_ROOT}github/repo/terms/`)).length).toBeLessThan(before);
    await assertNoStrayFiles(store, [REPO]);
    await assertSearchExact(docs, 'alpha', { namespace: 'github', type: 'repo' });
  });

  it('a table part whose ids were swapped is InvalidResponse, never the wrong document', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'alpha'), doc('o/b', 'beta')], { search: [REPO] });
    const part = `${SEARCH_ROOT}github/repo/table/0.json`;
    const ids = JSON.parse(new TextDecoder().decode((await store.get(part))!.value)) as string[];
    expect([...ids].sort()).toEqual(['o/a', 'o/b']);
    await store.put(part, new TextEncoder().encode(JSON.stringify([...ids].reverse())));
    await expect(docs.search('alpha', { namespace: 'github', type: 'repo' })).rejects.toThrow(InvalidResponse);
  });

  it('a shard that does not parse is InvalidResponse to every search until search is declared again', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'alpha'), doc('o/b', 'beta')], { search: [REPO] });
    const [shard] = await keys(store, `${SEARCH_ROOT}github/repo/terms/`);
    await store.put(shard!, new TextEncoder().encode('not a shard\n'));
    await expect(docs.search('alpha', { namespace: 'github', type: 'repo' })).rejects.toThrow(InvalidResponse);
    // A small write goes to the delta of recent writes and never reads the shard: search still refuses.
    await docs.put(doc('o/c', 'gamma'));
    await expect(docs.search('alpha', { namespace: 'github', type: 'repo' })).rejects.toThrow(InvalidResponse);
    // Dropping the declaration and declaring it again rebuilds every file from the documents.
    await docs.declareSearch([{ ...REPO, fields: [] }]);
    await docs.declareSearch([REPO]);
    await assertSearchExact(docs, 'alpha', { namespace: 'github', type: 'repo' });
    await assertSearchExact(docs, 'gamma', { namespace: 'github', type: 'repo' });
    await assertNoStrayFiles(store, [REPO]);
  });

  it('an index of the previous stored format: a search says so, the next write rebuilds it', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'alpha'), doc('o/b', 'beta')], { search: [REPO] });
    const key = searchManifestPath('github', 'repo');
    // A format-1 manifest: version 1, no base norms (its shards coded every number in whole symbols).
    const { norms, ...m } = JSON.parse(new TextDecoder().decode((await store.get(key))!.value));
    expect(norms).toHaveLength(2);
    await store.put(key, new TextEncoder().encode(`${JSON.stringify({ ...m, version: 1 })}\n`));
    const q = { namespace: 'github', type: 'repo' };
    await expect(docs.search('alpha', q)).rejects.toThrow(InvalidResponse);
    await expect(docs.search('alpha', q)).rejects.toThrow(/predates stored format 2.*next write of the type/);
    await docs.put(doc('o/c', 'gamma'));
    expect(JSON.parse(new TextDecoder().decode((await store.get(key))!.value)).version).toBe(2);
    await assertSearchExact(docs, 'alpha', q);
    await assertSearchExact(docs, 'gamma', q);
    await assertNoStrayFiles(store, [REPO]);
  });

  it("a commit in parts past its buffer keeps a searchable type's data (and drops the others'); search is exact", async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.declareSearch([REPO]);
    const issue = (id: string) => ({ namespace: 'github', type: 'issue', id, data: { title: 'alpha' } });
    const part = (from: number) =>
      opsToChanges([
        { op: 'put', document: doc(`o/r${from}`, `alpha ${from}`) },
        { op: 'put', document: issue(`o/r#${from}`) },
      ]);
    // A 10-byte buffer: the declarations are learnt after the first part.
    const seen = new PartsCollector(
      async () => docs.indexes(),
      undefined,
      10,
      undefined,
      async () => (await docs.searchDeclaration()).search,
    );
    await commitInParts(store, seen.collect([part(0), part(1), part(2)]), {
      derive: declarationsDerive({ store, ops: () => seen.ops }),
    });
    const kept = (type: string) => seen.ops.filter((o) => o.type === type).map((o) => o.after && 'data' in o.after);
    expect(kept('repo')).toEqual([true, true, true]);
    expect(kept('issue')).toEqual([false, false, false]);
    await assertSearchExact(docs, 'alpha', { namespace: 'github', type: 'repo' });
    expect((await docs.search('alpha', { namespace: 'github' })).total).toBe(3);
  });

  it('a put into a type with an index and a search reads the previous document once and parts + shards in one round', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany(
      Array.from({ length: 20 }, (_, i) => doc(`o/r${i}`, `alpha ${i}`)),
      { search: [REPO], indexes: [{ namespace: 'github', type: 'repo', fields: ['data.title'] }] },
    );
    const ops: DocumentOp[] = [{ op: 'put', document: doc('o/r3', 'omega') }];
    const changes = opsToChanges(ops);
    const rounds: string[][] = [];
    const derive = declarationsDerive({ store, ops: () => indexedOpsOf(ops, changes) });
    await store.commit(changes, {
      derive: (base) =>
        derive({
          ...base,
          written: (k) => base.written(k),
          read: (keys) => {
            rounds.push([...keys]);
            return base.read(keys);
          },
        }),
    });
    // The first round; the previous document (for both); the index parts and the search files together.
    expect(rounds).toHaveLength(3);
    expect(rounds[1]).toEqual(['github/repo/o/r3.json']);
    expect(rounds[2]!.some((k) => k.startsWith('_docdb/index/'))).toBe(true);
    expect(rounds[2]!.some((k) => k.startsWith(SEARCH_ROOT))).toBe(true);
    await assertSearchExact(docs, 'omega', { namespace: 'github', type: 'repo' });
    expect((await docs.search('alpha', { namespace: 'github', type: 'repo' })).total).toBe(19);
  });
});
