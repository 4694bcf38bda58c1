/**
 * IndexedDbCacheBackend: the RemoteApiRefStore cache (the `CacheBackend` seam) persisted in IndexedDB,
 * in its own object stores inside the same database as the IndexedDB host store (spec cache rule 6).
 * A byte-bounded LRU that holds across reloads: each entry's size and recency tick are stored next to
 * it, the running byte total in `cache-meta`, and eviction walks the `tick` index oldest first — all
 * inside the writing transaction, so two tabs sharing the cache keep the total exact.
 *
 * What goes in is what GitCache puts: commit metadata, tree levels and blob bytes keyed by SHA, and
 * ref tips keyed by (api, repo, ref, token identity) — a one-way hash, never the token.
 */

import type { CacheBackend } from '../../cache/backend.js';
import { DEFAULT_CACHE_MAX_BYTES } from '../../cache/backend.js';
import { InvalidConfig } from '../../core/errors.js';
import { type DatabaseSource, lazyDatabase, readMany, STORES, transactionDone } from './database.js';

export interface IndexedDbCacheOptions extends DatabaseSource {
  /** Bound of the cache in bytes (default 64 MiB), as estimated by the cache's callers. */
  maxBytes?: number;
}

export interface IndexedDbCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
}

interface LruRecord {
  key: string;
  tick: number;
  size: number;
}

interface Meta {
  bytes: number;
  tick: number;
}

const META_KEY = 'lru';

/**
 * A persistent LRU cache backend for RemoteApiRefStore.
 *
 * @example
 * const backend = new IndexedDbCacheBackend({ name: 'my-app', maxBytes: 32 * 1024 * 1024 });
 * const store = new RemoteApiRefStore({ transport: fetchTransport(), owner: 'o', repo: 'r', cache: { backend } });
 * // after a reload, a get of an unchanged section costs one request (a 304 on the ref)
 */
export class IndexedDbCacheBackend implements CacheBackend {
  readonly maxBytes: number;
  /** The database, opened on first use. */
  readonly database: () => Promise<IDBDatabase>;
  /** Keys read since the last write: their recency is persisted in one batch (reads stay read-only). */
  private readonly touched = new Set<string>();
  private flushing: Promise<void> | undefined;

  constructor(options: IndexedDbCacheOptions = {}) {
    const max = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    if (!Number.isSafeInteger(max) || max < 0) {
      throw new InvalidConfig(
        'maxBytes',
        `maxBytes must be a non-negative integer number of bytes, got ${String(max)}`,
        {
          allowed: 'an integer ≥ 0',
        },
      );
    }
    this.maxBytes = max;
    this.database = lazyDatabase(options);
  }

  async get(key: string): Promise<unknown> {
    const db = await this.database();
    const hit = (await readMany<{ value: unknown }>(db, STORES.cache, [key])).get(key);
    if (hit === undefined) return undefined;
    this.touched.add(key);
    this.scheduleFlush();
    return hit.value;
  }

  async set(key: string, value: unknown, sizeBytes: number): Promise<void> {
    const size = Math.max(1, Math.ceil(sizeBytes));
    const db = await this.database();
    await this.write(db, (tx, meta) => {
      const lru = tx.objectStore(STORES.cacheLru);
      const prev = lru.get(key);
      prev.onsuccess = () => {
        const old = prev.result as LruRecord | undefined;
        if (old) meta.bytes -= old.size;
        if (size > this.maxBytes) {
          // Larger than the whole cache: not stored (it would evict everything, then itself).
          tx.objectStore(STORES.cache).delete(key);
          lru.delete(key);
          this.finish(tx, meta);
          return;
        }
        tx.objectStore(STORES.cache).put({ value, size }, key);
        lru.put({ key, tick: ++meta.tick, size } satisfies LruRecord);
        meta.bytes += size;
        this.evict(tx, meta);
      };
    });
  }

  async delete(key: string): Promise<void> {
    const db = await this.database();
    await this.write(db, (tx, meta) => {
      const lru = tx.objectStore(STORES.cacheLru);
      const prev = lru.get(key);
      prev.onsuccess = () => {
        const old = prev.result as LruRecord | undefined;
        if (old) {
          meta.bytes -= old.size;
          lru.delete(key);
          tx.objectStore(STORES.cache).delete(key);
        }
        this.finish(tx, meta);
      };
    });
  }

  /** Every entry (diagnostics and the token-hygiene test). */
  async entries(): Promise<Iterable<[string, unknown]>> {
    const db = await this.database();
    const tx = db.transaction(STORES.cache, 'readonly');
    const os = tx.objectStore(STORES.cache);
    const keys = os.getAllKeys();
    const values = os.getAll();
    await transactionDone(tx);
    return (keys.result as string[]).map((k, i) => [k, (values.result[i] as { value: unknown }).value]);
  }

  async stats(): Promise<IndexedDbCacheStats> {
    await this.flush();
    const db = await this.database();
    const tx = db.transaction([STORES.cacheLru, STORES.cacheMeta], 'readonly');
    const count = tx.objectStore(STORES.cacheLru).count();
    const meta = tx.objectStore(STORES.cacheMeta).get(META_KEY);
    await transactionDone(tx);
    return { entries: count.result, bytes: (meta.result as Meta | undefined)?.bytes ?? 0, maxBytes: this.maxBytes };
  }

  /** Remove every cache entry (the host store's objects and refs are not touched). */
  async clear(): Promise<void> {
    const db = await this.database();
    const tx = db.transaction([STORES.cache, STORES.cacheLru, STORES.cacheMeta], 'readwrite');
    tx.objectStore(STORES.cache).clear();
    tx.objectStore(STORES.cacheLru).clear();
    tx.objectStore(STORES.cacheMeta).clear();
    this.touched.clear();
    await transactionDone(tx);
  }

  /** Persist the recency of entries read since the last write (runs by itself shortly after reads). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.touched.size === 0) return;
    const keys = [...this.touched];
    this.touched.clear();
    const db = await this.database();
    this.flushing = this.write(db, (tx, meta) => {
      const lru = tx.objectStore(STORES.cacheLru);
      let pending = keys.length;
      for (const key of keys) {
        const r = lru.get(key);
        r.onsuccess = () => {
          const rec = r.result as LruRecord | undefined;
          if (rec) lru.put({ ...rec, tick: ++meta.tick });
          if (--pending === 0) this.finish(tx, meta);
        };
      }
    }).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private scheduleFlush(): void {
    if (this.touched.size !== 1) return;
    setTimeout(() => {
      this.flush().catch(() => {
        /* recency is best effort; the next write persists it */
      });
    }, 0);
  }

  /** One readwrite transaction over the cache stores, with the totals loaded first. */
  private write(db: IDBDatabase, body: (tx: IDBTransaction, meta: Meta) => void): Promise<void> {
    const tx = db.transaction([STORES.cache, STORES.cacheLru, STORES.cacheMeta], 'readwrite');
    const r = tx.objectStore(STORES.cacheMeta).get(META_KEY);
    r.onsuccess = () => body(tx, (r.result as Meta | undefined) ?? { bytes: 0, tick: 0 });
    return transactionDone(tx);
  }

  private finish(tx: IDBTransaction, meta: Meta): void {
    tx.objectStore(STORES.cacheMeta).put({ bytes: Math.max(0, meta.bytes), tick: meta.tick } satisfies Meta, META_KEY);
  }

  /** Drop least recently used entries until the total fits, then save the totals. */
  private evict(tx: IDBTransaction, meta: Meta): void {
    if (meta.bytes <= this.maxBytes) {
      this.finish(tx, meta);
      return;
    }
    const cursorReq = tx.objectStore(STORES.cacheLru).index('tick').openCursor();
    cursorReq.onsuccess = () => {
      const cursor = cursorReq.result;
      if (!cursor || meta.bytes <= this.maxBytes) {
        this.finish(tx, meta);
        return;
      }
      const rec = cursor.value as LruRecord;
      meta.bytes -= rec.size;
      tx.objectStore(STORES.cache).delete(rec.key);
      cursor.delete();
      cursor.continue();
    };
  }
}
