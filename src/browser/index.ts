/**
 * `docdb/browser`: the browser entry point (page, Web Worker, extension service worker). No Node
 * built-ins; also shipped as one self-contained ESM bundle (`lib/browser/docdb.bundle.js`). See docs/browser.md.
 *
 * @example
 * import { loadDocDbClient } from 'docdb/browser';
 * const client = await loadDocDbClient({ owner: 'octo', repo: 'data', hostCapabilities: { store: true } });
 */
export * as errors from '../core/errors.js';
export { DocDbError } from '../core/errors.js';
export { isPullRequestNumber } from '../core/preview-ref.js';
export { readVersionsFrom } from '../core/read-versions.js';
export { RESERVED_REF_SPACES, reservedSpaceProblem } from '../core/refname.js';
export type * from '../core/refstore.js';
export { type VisibilitySource, type WatchChange, type WatchOptions, watch } from '../core/watch.js';
export {
  fieldValue,
  indexColumns,
  MAX_SAMPLE_COLUMNS,
  SAMPLE_SIZE,
  sampleColumns,
} from '../document/columns.js';
export { DocumentStore } from '../document/document-store.js';
export { filterRecords, type MemoryRecord } from '../document/filter-records.js';
export { deriveKey, parseKey } from '../document/identity.js';
export type * from '../document/index.js';
export { formatWhere, parseOrderBy, parseWhere, WHERE_FORMS } from '../document/query-text.js';
export { SERIES_AGGREGATES } from '../document/series-aggregates.js';
export { csvField } from '../export/formats.js';
export {
  IndexedDbCacheBackend,
  type IndexedDbCacheOptions,
  type IndexedDbCacheStats,
} from '../stores/indexeddb/cache-backend.js';
export { openDocDbDatabase } from '../stores/indexeddb/database.js';
export { IndexedDbRefStore, type IndexedDbRefStoreOptions } from '../stores/indexeddb/indexeddb-refstore.js';
export { MemoryRefStore } from '../stores/memory/memory-refstore.js';
export { RemoteApiRefStore } from '../stores/remote-api/remote-api-refstore.js';
export type { TreeFile, TreeListing } from '../stores/remote-api/tree-listing.js';
export { fetchTransport } from '../transport/fetch.js';
export { parseRateLimit } from '../transport/headers.js';
export { type HostHttpFunction, type HostHttpResponse, hostTransport } from '../transport/host.js';
export {
  type DocDbBackend,
  type DocDbClient,
  type DocDbClientStats,
  type HostCapabilities,
  type HostStoreOptions,
  type LoadDocDbClientOptions,
  loadDocDbClient,
} from './client.js';
export { explainError } from './explain-error.js';
export { projectRepository, typeSeries } from './functions.js';
export { loadSearchText } from './lazy/search-text.js';
export type { RepoProjectionData, RepoProjectionResult } from './repo-projection.js';
