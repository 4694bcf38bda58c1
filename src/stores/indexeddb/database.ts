/**
 * The docdb IndexedDB database: one database per local "repository", shared by the IndexedDB host
 * store (git objects by SHA in one object store per kind, refs) and the RemoteApiRefStore cache
 * (a separate object store, spec cache rule 6). The raw IndexedDB API, read lazily from
 * `globalThis.indexedDB` or injected (fake-indexeddb in Node tests).
 *
 * IndexedDB commits a transaction as soon as the code awaits anything that is not one of its own
 * requests, so the helpers here never await inside a transaction: a transaction's work is queued in
 * request callbacks and the returned promise settles on `complete` / `abort`.
 */
import { InvalidConfig } from '../../core/errors.js';

/** Object stores of schema version 1. */
export const STORES = {
  refs: 'refs',
  commits: 'commits',
  trees: 'trees',
  blobs: 'blobs',
  /** Cache values by key (`{ value, size }`). */
  cache: 'cache',
  /** Cache recency by key (`{ key, tick, size }`, index `tick`): eviction reads it oldest first. */
  cacheLru: 'cache-lru',
  /** Cache totals (`lru` → `{ bytes, tick }`). */
  cacheMeta: 'cache-meta',
} as const;

export type ObjectKind = 'commits' | 'trees' | 'blobs';

export const SCHEMA_VERSION = 1;
export const DEFAULT_DATABASE_NAME = 'docdb';

export interface OpenDatabaseOptions {
  /** Database name (default `docdb`): one name = one local repository. */
  name?: string;
  /** The IndexedDB factory (default: `globalThis.indexedDB`, read when the database is opened). */
  indexedDB?: IDBFactory;
}

/** Settle with a request's result. Only for requests whose transaction nothing else awaits on. */
export function requestResult<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Settle when a transaction commits; reject with its error when it aborts. */
export function transactionDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    tx.onerror = () => {
      /* reported through onabort */
    };
  });
}

/** The IndexedDB factory to use: the injected one, else the platform's (read lazily). */
export function resolveFactory(injected: IDBFactory | undefined, field = 'indexedDB'): IDBFactory {
  const factory = injected ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory || typeof factory.open !== 'function') {
    throw new InvalidConfig(
      field,
      `${field}: no IndexedDB in this environment; pass an IDBFactory (e.g. fake-indexeddb)`,
      {
        allowed: 'an IDBFactory (globalThis.indexedDB in browsers and workers)',
      },
    );
  }
  return factory;
}

/**
 * Open (creating or upgrading) a docdb database. Another tab upgrading the schema makes this
 * connection close itself instead of blocking the upgrade.
 *
 * @example
 * const db = await openDocDbDatabase({ name: 'my-app' });
 */
export async function openDocDbDatabase(options: OpenDatabaseOptions = {}): Promise<IDBDatabase> {
  const name = options.name ?? DEFAULT_DATABASE_NAME;
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidConfig('name', 'name must be a non-empty string (the IndexedDB database name)', {
      allowed: 'e.g. "docdb"',
    });
  }
  const factory = resolveFactory(options.indexedDB);
  const req = factory.open(name, SCHEMA_VERSION);
  req.onupgradeneeded = () => {
    const db = req.result;
    for (const store of [STORES.refs, STORES.commits, STORES.trees, STORES.blobs, STORES.cache, STORES.cacheMeta]) {
      if (!db.objectStoreNames.contains(store)) db.createObjectStore(store);
    }
    if (!db.objectStoreNames.contains(STORES.cacheLru)) {
      db.createObjectStore(STORES.cacheLru, { keyPath: 'key' }).createIndex('tick', 'tick');
    }
  };
  const db = await requestResult(req);
  db.onversionchange = () => db.close();
  return db;
}

/** Options of anything that lives in a docdb database: an open one to share, or what to open. */
export interface DatabaseSource extends OpenDatabaseOptions {
  /** An open docdb database to share (the host store and the cache in one database). */
  database?: IDBDatabase | Promise<IDBDatabase>;
}

/**
 * The database of `source`, opened on first call (so constructing a store touches no platform
 * global) and shared by later calls.
 */
export function lazyDatabase(source: DatabaseSource): () => Promise<IDBDatabase> {
  let opened: Promise<IDBDatabase> | undefined;
  return () => {
    opened ??= source.database
      ? Promise.resolve(source.database)
      : openDocDbDatabase({ name: source.name, indexedDB: source.indexedDB });
    return opened;
  };
}

/** Read several keys of one object store in one read-only transaction. Missing keys are absent from the map. */
export function readMany<T>(db: IDBDatabase, store: string, keys: readonly string[]): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  if (keys.length === 0) return Promise.resolve(out);
  const tx = db.transaction(store, 'readonly');
  const os = tx.objectStore(store);
  for (const key of new Set(keys)) {
    const r = os.get(key);
    r.onsuccess = () => {
      if (r.result !== undefined) out.set(key, r.result as T);
    };
  }
  return transactionDone(tx).then(() => out);
}

/** Bytes safe to store: a view over part of a larger buffer is copied (structured clone keeps the whole buffer). */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}
