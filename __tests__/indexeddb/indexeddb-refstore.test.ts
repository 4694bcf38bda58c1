/** IndexedDbRefStore beyond the contract: real git objects, persistence, lazy reads, transactions. */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ObjectDb } from '../../src/core/git/object-db.js';
import { decodeCommit, decodeTree, hashObject } from '../../src/core/git/objects.js';
import { IndexedDbRefStore, openDocDbDatabase, STORES } from '../../src/stores/indexeddb/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { dumpDatabase } from './helpers.js';

const clock = () => {
  let t = 1_700_000_000_000;
  return () => (t += 1000);
};

describe('IndexedDbRefStore', () => {
  it('builds exactly the commits MemoryRefStore builds (same SHAs: the real git object model)', async () => {
    const idb = new IndexedDbRefStore({ indexedDB: new IDBFactory(), now: clock() });
    const mem = new MemoryRefStore({ db: new ObjectDb(), now: clock() });
    for (const s of [idb, mem]) {
      await s.commit([
        { op: 'put', key: 'a/b/c.json', value: '{"x":1}' },
        { op: 'put', key: 'a/d.txt', value: new Uint8Array([0, 255, 1]) },
        { op: 'put', key: 'z', value: 'zz' },
      ]);
      await s.put('a/b/e.json', 'e');
      await s.delete('a/d.txt');
    }
    expect(await idb.head()).toBe(await mem.head());
    expect((await idb.list()).entries).toEqual((await mem.list()).entries);
    expect(await idb.history('a/d.txt')).toEqual(await mem.history('a/d.txt'));
  });

  it('stores every object by SHA in its own object store, and each body hashes to its key', async () => {
    const indexedDB = new IDBFactory();
    const s = new IndexedDbRefStore({ indexedDB, name: 'objs' });
    await s.put('dir/one.txt', 'one');
    await s.put('dir/two.txt', 'two');
    await s.close();
    const rows = await dumpDatabase(indexedDB, 'objs');
    const kinds = { [STORES.commits]: 'commit', [STORES.trees]: 'tree', [STORES.blobs]: 'blob' } as const;
    let counted = 0;
    for (const [store, key, value] of rows) {
      const type = kinds[store as keyof typeof kinds];
      if (!type) continue;
      expect(hashObject(type, value as Uint8Array)).toBe(key);
      counted++;
    }
    // 2 commits, 2 root trees + 2 `dir` trees, 2 blobs.
    expect(counted).toBe(8);
    const ref = rows.find(([store]) => store === STORES.refs);
    expect(ref?.[1]).toBe('refs/docdb/documents');
    const tip = rows.find(([store, key]) => store === STORES.commits && key === ref?.[2]);
    const commit = decodeCommit(tip?.[2] as Uint8Array);
    const root = rows.find(([store, key]) => store === STORES.trees && key === commit.tree);
    expect(decodeTree(root?.[2] as Uint8Array).map((e) => e.name)).toEqual(['dir']);
  });

  it('survives a "reload": a new store on the same database reads what the old one wrote', async () => {
    const indexedDB = new IDBFactory();
    const first = new IndexedDbRefStore({ indexedDB, name: 'reload' });
    const w = await first.put('notes/a.txt', 'hello');
    await first.close();
    const second = new IndexedDbRefStore({ indexedDB, name: 'reload' });
    const got = await second.get('notes/a.txt');
    expect(new TextDecoder().decode(got?.value)).toBe('hello');
    expect(got?.version).toBe(w.version);
    await second.close();
  });

  it('reads and writes lazily: only the tree levels on the key path are read', async () => {
    const indexedDB = new IDBFactory();
    const s = new IndexedDbRefStore({ indexedDB, name: 'lazy' });
    await s.commit([
      { op: 'put', key: 'big/x/1.txt', value: '1' },
      { op: 'put', key: 'big/x/2.txt', value: '2' },
      { op: 'put', key: 'small/a.txt', value: 'a' },
    ]);
    // Delete the `big` and `big/x` trees from the database: anything loading the whole tree now fails.
    const db = await s.database();
    const rows = await dumpDatabase(indexedDB, 'lazy');
    const trees = rows.filter(([store]) => store === STORES.trees);
    const bigTrees = trees.filter(([, , body]) => {
      const names = decodeTree(body as Uint8Array).map((e) => e.name);
      return names.includes('x') || names.includes('1.txt');
    });
    expect(bigTrees).toHaveLength(2);
    const tx = db.transaction(STORES.trees, 'readwrite');
    for (const [, key] of bigTrees) tx.objectStore(STORES.trees).delete(key as string);
    await new Promise((resolve) => {
      tx.oncomplete = resolve;
    });
    expect(new TextDecoder().decode((await s.get('small/a.txt'))?.value)).toBe('a');
    const w = await s.put('small/b.txt', 'b');
    expect(w.changed).toBe(true);
    expect((await s.list({ prefix: 'small/' })).entries.map((e) => e.key)).toEqual(['small/a.txt', 'small/b.txt']);
    // The missing levels really were on `big/…`'s path: reading there reaches IndexedDB and fails loudly.
    await expect(s.get('big/x/1.txt')).rejects.toThrow(/missing tree/);
    await s.close();
  });

  it('a write that loses the ref compare-and-swap writes nothing, re-plans on the new tip, and lands', async () => {
    const indexedDB = new IDBFactory();
    const a = new IndexedDbRefStore({ indexedDB, name: 'cas' });
    const b = new IndexedDbRefStore({ indexedDB, name: 'cas' });
    await a.put('k/base', '0');
    // Both read the same tip; they race to move the ref.
    const [ra, rb] = await Promise.all([a.put('k/a', 'a'), b.put('k/b', 'b')]);
    const versions = [ra.version, rb.version];
    const [first, second] = ra.previousVersion === rb.version ? [rb, ra] : [ra, rb];
    expect(second.previousVersion).toBe(first.version);
    expect(new Set(versions).size).toBe(2);
    expect((await a.list()).entries.map((e) => e.key)).toEqual(['k/a', 'k/b', 'k/base']);
    await a.close();
    await b.close();
  });

  it('gives up with ConcurrentUpdate when every compare-and-swap is lost (retryConcurrentWrites: 0)', async () => {
    const indexedDB = new IDBFactory();
    const a = new IndexedDbRefStore({ indexedDB, name: 'cas0', retryConcurrentWrites: 0 });
    const b = new IndexedDbRefStore({ indexedDB, name: 'cas0', retryConcurrentWrites: 0 });
    await a.put('k', '0');
    const results = await Promise.allSettled([a.put('x', '1'), b.put('y', '2')]);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'ConcurrentUpdate' });
    // The loser wrote nothing: exactly one of x / y exists.
    const keys = (await a.list()).entries.map((e) => e.key);
    expect(keys.filter((k) => k === 'x' || k === 'y')).toHaveLength(1);
    await a.close();
    await b.close();
  });

  it('retries with the shared backoff policy; its options are validated as in every store', async () => {
    for (const [field, value] of [
      ['retryConcurrentWrites', -1],
      ['writeRetryBudgetMs', 1.5],
      ['writeBackoffBaseMs', 'fast'],
    ] as const) {
      expect(() => new IndexedDbRefStore({ indexedDB: new IDBFactory(), [field]: value })).toThrow(
        expect.objectContaining({ code: 'InvalidConfig', data: expect.objectContaining({ field }) }),
      );
    }
    // Eight tabs racing on one section all land (full-jitter backoff spreads the losers out).
    const indexedDB = new IDBFactory();
    const tabs = Array.from(
      { length: 8 },
      () => new IndexedDbRefStore({ indexedDB, name: 'race', writeBackoffBaseMs: 1 }),
    );
    const results = await Promise.all(tabs.map((t, i) => t.put(`tab/${i}`, String(i))));
    expect(results.every((r) => r.changed)).toBe(true);
    expect((await tabs[0]!.history('tab/0')).entries).toHaveLength(1);
    expect((await tabs[0]!.list()).entries).toHaveLength(8);
    for (const t of tabs) await t.close();
  });

  it('opens the database lazily and names the option when there is no IndexedDB', async () => {
    const s = new IndexedDbRefStore({ name: 'nowhere' });
    const had = (globalThis as { indexedDB?: unknown }).indexedDB;
    expect(had).toBeUndefined();
    await expect(s.get('a')).rejects.toMatchObject({ code: 'InvalidConfig', data: { field: 'indexedDB' } });
    const db = await openDocDbDatabase({ indexedDB: new IDBFactory(), name: 'x' });
    db.close();
  });
});
