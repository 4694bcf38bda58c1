/** Caches for the remote-api store. See docs/remote-api.md § Caches. */
export {
  type CacheBackend,
  DEFAULT_CACHE_MAX_BYTES,
  MemoryCacheBackend,
  type MemoryCacheStats,
} from './backend.js';
export { type CachedCommit, type CachedTreeEntry, GitCache, type RefTip, tokenIdentity } from './git-cache.js';
