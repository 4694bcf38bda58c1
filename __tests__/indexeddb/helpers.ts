/** Helpers for IndexedDB tests on fake-indexeddb: dump every object store of a database. */
import { openDocDbDatabase } from '../../src/stores/indexeddb/index.js';

/** Every record of every object store: `[store, key, value]`. */
export async function dumpDatabase(indexedDB: IDBFactory, name: string): Promise<[string, unknown, unknown][]> {
  const db = await openDocDbDatabase({ indexedDB, name });
  const out: [string, unknown, unknown][] = [];
  try {
    for (const store of [...db.objectStoreNames]) {
      const tx = db.transaction(store, 'readonly');
      const keys = tx.objectStore(store).getAllKeys();
      const values = tx.objectStore(store).getAll();
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error);
      });
      keys.result.forEach((k, i) => {
        out.push([store, k, values.result[i]]);
      });
    }
  } finally {
    db.close();
  }
  return out;
}

/** Text of every string and byte array inside a value (bytes read as Latin-1, so any byte sequence shows). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return new TextDecoder('latin1').decode(value);
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (value && typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}=${textOf(v)}`)
      .join('\n');
  return String(value);
}
