/** Browser persistence: the IndexedDB host store and the IndexedDB cache backend. See docs/browser.md. */
export {
  IndexedDbCacheBackend,
  type IndexedDbCacheOptions,
  type IndexedDbCacheStats,
} from './cache-backend.js';
export {
  type DatabaseSource,
  DEFAULT_DATABASE_NAME,
  type OpenDatabaseOptions,
  openDocDbDatabase,
  STORES,
} from './database.js';
export { IndexedDbRefStore, type IndexedDbRefStoreOptions } from './indexeddb-refstore.js';
