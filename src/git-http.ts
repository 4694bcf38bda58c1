/**
 * `docdb/git-http`: GitHttpRefStore, the section on any git server over smart HTTP (Gitea/Forgejo,
 * GitLab, Bitbucket, GitHub's git endpoint, `git http-backend`) with no git binary. Platform-neutral:
 * Node, browsers (its own bundle, so `docdb/browser` does not grow) and workers. Also in `docdb/node`.
 * The cache backends and the error classes come along, so a page needs only this bundle (errors thrown
 * by this bundle are instances of ITS `errors` classes).
 *
 * @example
 * import { DocumentStore } from 'docdb';
 * import { GitHttpRefStore } from 'docdb/git-http';
 * const docs = new DocumentStore(new GitHttpRefStore({ remote: 'https://gitea.example.com/org/data.git', token }));
 */
export { type CacheBackend, MemoryCacheBackend } from './cache/backend.js';
export * as errors from './core/errors.js';
export type * from './core/refstore.js';
export { defaultUsername, GitHttpRefStore, type GitHttpRefStoreOptions } from './stores/git-http/index.js';
export { IndexedDbCacheBackend, type IndexedDbCacheOptions } from './stores/indexeddb/cache-backend.js';
