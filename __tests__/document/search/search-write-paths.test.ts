/**
 * Which path a DocumentStore write takes for a searchable type, at its edges: a write of exactly
 * `largeTypeWrite` documents of the type is incremental (one more is a build from the documents); a
 * dropped declaration whose manifest is damaged still deletes every file under the type's folder; a
 * rebuild names a type by namespace AND type.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { SEARCH_ROOT, searchManifestPath } from '../../../src/document/search/index.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { assertNoStrayFiles, assertSearchExact } from './search-oracle.js';

const REPO = { namespace: 'github', type: 'repo', fields: ['data.title'] };
const WHERE = { namespace: 'github', type: 'repo' };
const doc = (id: string, title: string) => ({ namespace: 'github', type: 'repo', id, data: { title } });

async function keys(store: MemoryRefStore, prefix: string): Promise<string[]> {
  return (await store.list({ prefix })).entries.map((e) => e.key);
}

/** Paths whose bytes changed between two listings of the type's search files. */
async function changedFiles(store: MemoryRefStore, write: () => Promise<unknown>): Promise<string[]> {
  const before = new Map<string, string>();
  for (const k of await keys(store, SEARCH_ROOT)) before.set(k, (await store.get(k))!.blobSha);
  await write();
  const out: string[] = [];
  for (const k of await keys(store, SEARCH_ROOT)) if (before.get(k) !== (await store.get(k))!.blobSha) out.push(k);
  return out;
}

describe('a write of a searchable type', () => {
  it('of exactly largeTypeWrite documents goes to the delta; one more rebuilds the type', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store, { search: { largeTypeWrite: 3 } });
    await docs.putMany(
      Array.from({ length: 6 }, (_, i) => doc(`o/r${i}`, `alpha beta${i}`)),
      { search: [REPO] },
    );
    const three = await changedFiles(store, () =>
      docs.putMany([0, 1, 2].map((i) => doc(`o/r${i}`, `gamma delta${i}`))),
    );
    // Incremental: the delta and the manifest; no term shard rewritten.
    expect(three.filter((p) => p.includes('/terms/'))).toEqual([]);
    expect(three).toContain(`${SEARCH_ROOT}github/repo/delta.txt`);
    const four = await changedFiles(store, () =>
      docs.putMany([0, 1, 2, 3].map((i) => doc(`o/r${i}`, `omega sigma${i}`))),
    );
    // A build: the delta emptied into fresh term shards.
    expect(four.filter((p) => p.includes('/terms/')).length).toBeGreaterThan(0);
    await assertSearchExact(docs, 'omega', WHERE);
    await assertSearchExact(docs, 'gamma', WHERE);
  });

  it('dropping a declaration whose manifest is damaged deletes every file under the type', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'alpha'), doc('o/b', 'beta')], { search: [REPO] });
    expect((await keys(store, SEARCH_ROOT)).length).toBeGreaterThan(3);
    await store.put(searchManifestPath('github', 'repo'), new TextEncoder().encode('{"damaged":'));
    await docs.declareSearch([{ ...REPO, fields: [] }]);
    expect(await keys(store, SEARCH_ROOT)).toEqual([]);
  });

  it('a rebuild of a type declared in another namespace only is InvalidConfig, and nothing is written', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    await docs.putMany([doc('o/a', 'alpha')], { search: [REPO] });
    const before = await docs.head();
    await expect(docs.rebuildSearch([{ namespace: 'gitlab', type: 'repo' }])).rejects.toThrow(InvalidConfig);
    expect(await docs.head()).toBe(before);
    await assertNoStrayFiles(store, [REPO]);
  });
});
