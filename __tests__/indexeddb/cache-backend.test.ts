/**
 * IndexedDbCacheBackend: byte-bounded LRU that holds across reloads, shared database with the host
 * store, and as RemoteApiRefStore's cache: a warm get after a reload costs one request (a 304), ref tips
 * are keyed by token identity, and the token never enters IndexedDB.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { IndexedDbCacheBackend, IndexedDbRefStore } from '../../src/stores/indexeddb/index.js';
import { emulator, freshRepo, ops, store, TOKEN } from '../remote-api/helpers.js';
import { dumpDatabase, textOf } from './helpers.js';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('IndexedDbCacheBackend: LRU', () => {
  it('evicts least recently used entries past maxBytes, counting recency of reads', async () => {
    const indexedDB = new IDBFactory();
    const c = new IndexedDbCacheBackend({ indexedDB, name: 'lru', maxBytes: 300 });
    await c.set('a', bytes(100), 100);
    await c.set('b', bytes(100), 100);
    await c.set('c', bytes(100), 100);
    expect(await c.get('a')).toEqual(bytes(100)); // a is now more recent than b
    await c.flush();
    await c.set('d', bytes(100), 100);
    expect(await c.get('b')).toBeUndefined();
    for (const k of ['a', 'c', 'd']) expect(await c.get(k)).toBeDefined();
    expect(await c.stats()).toEqual({ entries: 3, bytes: 300, maxBytes: 300 });
  });

  it('keeps order and byte total across a reload (a new backend on the same database)', async () => {
    const indexedDB = new IDBFactory();
    const first = new IndexedDbCacheBackend({ indexedDB, name: 'reload', maxBytes: 250 });
    await first.set('old', bytes(100), 100);
    await first.set('new', bytes(100), 100);
    await first.get('old');
    await first.flush();
    const second = new IndexedDbCacheBackend({ indexedDB, name: 'reload', maxBytes: 250 });
    expect(await second.stats()).toEqual({ entries: 2, bytes: 200, maxBytes: 250 });
    await second.set('third', bytes(100), 100); // 300 > 250: the least recent ("new") goes
    expect(await second.get('new')).toBeUndefined();
    expect(await second.get('old')).toEqual(bytes(100));
    expect(await second.get('third')).toEqual(bytes(100));
    expect((await second.stats()).bytes).toBe(200);
  });

  it('replacing an entry adjusts the total; an entry larger than the cache is not stored', async () => {
    const c = new IndexedDbCacheBackend({ indexedDB: new IDBFactory(), maxBytes: 1000 });
    await c.set('k', bytes(10), 10);
    await c.set('k', bytes(500), 500);
    expect(await c.stats()).toEqual({ entries: 1, bytes: 500, maxBytes: 1000 });
    await c.set('huge', bytes(2000), 2000);
    expect(await c.get('huge')).toBeUndefined();
    await c.set('k', bytes(5000), 5000); // replacing with an oversize value drops the old one too
    expect(await c.get('k')).toBeUndefined();
    expect(await c.stats()).toEqual({ entries: 0, bytes: 0, maxBytes: 1000 });
    await c.set('x', { plain: ['object'] }, 50);
    await c.delete('x');
    expect(await c.stats()).toEqual({ entries: 0, bytes: 0, maxBytes: 1000 });
  });

  it('two tabs filling one cache keep the byte total exact', async () => {
    const indexedDB = new IDBFactory();
    const a = new IndexedDbCacheBackend({ indexedDB, name: 'tabs', maxBytes: 1000 });
    const b = new IndexedDbCacheBackend({ indexedDB, name: 'tabs', maxBytes: 1000 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).set(`k${i}`, bytes(60), 60)));
    const s = await a.stats();
    expect(s.bytes).toBeLessThanOrEqual(1000);
    expect(s.bytes).toBe(s.entries * 60);
    expect(s.entries).toBe(16);
  });

  it('rejects a bad maxBytes naming the field', () => {
    expect(() => new IndexedDbCacheBackend({ maxBytes: -1 })).toThrow(/maxBytes/);
  });
});

describe('IndexedDbCacheBackend as the RemoteApiRefStore cache (emulator)', () => {
  let em: EmulatorHandle;
  beforeAll(async () => {
    em = await emulator();
  });
  afterAll(async () => {
    await em?.stop();
  });

  it('after a reload, a warm get of an unchanged section costs one request (a 304)', async () => {
    const indexedDB = new IDBFactory();
    const repo = freshRepo(em);
    const opts = () => ({ cache: { backend: new IndexedDbCacheBackend({ indexedDB, name: 'app' }) } });
    const writer = store(em, repo, opts());
    await writer.put('docs/a.json', '{"a":1}');
    // "Reload": new backend and store objects over the same database, nothing in memory.
    const reader = store(em, repo, opts());
    const cold = await reader.get('docs/a.json');
    expect(new TextDecoder().decode(cold?.value)).toBe('{"a":1}');
    const reloaded = store(em, repo, opts());
    const from = em.requests.length;
    const warm = await reloaded.get('docs/a.json');
    expect(warm?.requests).toBe(1);
    expect(ops(em, from)).toEqual(['GET git/get-ref 304']);
    expect(warm?.version).toBe(cold?.version);
    expect(warm?.rateLimit?.remaining).toBeGreaterThan(0);
  });

  it('keys ref tips by token identity (another token never reuses the ETag) and never stores a token', async () => {
    const indexedDB = new IDBFactory();
    const other = 'ghp_SecondTokenValue9876543210zyxwvuZYXWVU';
    em.state.addToken(other, { login: 'octo', repos: '*' });
    const repo = freshRepo(em);
    const backend = () => new IndexedDbCacheBackend({ indexedDB, name: 'tokens' });
    await store(em, repo, { cache: { backend: backend() } }).put('k', 'v');
    await store(em, repo, { cache: { backend: backend() } }).get('k');
    const from = em.requests.length;
    const second = store(em, repo, { token: other, cache: { backend: backend() } });
    await second.get('k');
    // No If-None-Match from the first token's ETag: a full 200 for the second identity, objects from cache.
    expect(ops(em, from)).toEqual(['GET git/get-ref 200']);
    // Also the host store in the same database: its objects and refs sit next to the cache.
    const host = new IndexedDbRefStore({ indexedDB, name: 'tokens' });
    await host.put('local', 'x');
    await host.close();
    const rows = await dumpDatabase(indexedDB, 'tokens');
    const stores = new Set(rows.map(([s]) => s));
    expect(stores).toEqual(new Set(['cache', 'cache-lru', 'cache-meta', 'refs', 'commits', 'trees', 'blobs']));
    const refTips = rows.filter(([s, k]) => s === 'cache' && String(k).includes('|ref|'));
    expect(refTips).toHaveLength(2);
    for (const [, key, value] of rows) {
      for (const token of [TOKEN, other]) {
        expect(`${textOf(key)}\n${textOf(value)}`).not.toContain(token);
        // Not even a recognisable part of it.
        expect(`${textOf(key)}\n${textOf(value)}`).not.toContain(token.slice(4, 20));
      }
    }
  });
});
