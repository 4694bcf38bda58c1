/**
 * `docdb/node`: the git stores — GitRefStore (a local repository) and SubprocessGitRefStore (any git
 * remote through a cache repository), which run the git command line, and GitHttpRefStore (any git
 * server over smart HTTP, no git binary; also `docdb/git-http`). Kept out of the platform-neutral
 * `docdb` entry point so browser bundles never see node:child_process.
 *
 * @example
 * import { DocumentStore } from 'docdb';
 * import { GitRefStore } from 'docdb/node';
 * const docs = new DocumentStore(new GitRefStore({ dir: './data.git' }));
 */

export {
  DEFAULT_FEED_LIMIT,
  MAX_FEED_LIMIT,
  type SectionFeedOptions,
  type SectionFeedResult,
  sectionFeed,
} from './export/feed/section-feed.js';
export {
  exportParquet,
  type ParquetExportOptions,
  type ParquetExportResult,
} from './export/parquet/export-parquet.js';
export {
  exportSqlite,
  type SqliteExportOptions,
  type SqliteExportResult,
} from './export/sqlite/export-sqlite.js';
export { type LoadCheckOptions, loadCheck } from './projection/reducers/check.js';
export {
  DEFAULT_GIT_REF,
  DEFAULT_GIT_RETRIES,
  defaultCacheDir,
  GitRefStore,
  type GitRefStoreOptions,
  type GitStoreCommonOptions,
  SubprocessGitRefStore,
  type SubprocessGitRefStoreOptions,
} from './stores/git/index.js';
export { GitHttpRefStore, type GitHttpRefStoreOptions } from './stores/git-http/index.js';
export {
  type NodeArchiveReaderOptions,
  nodeArchiveReader,
} from './stores/remote-api/node-archive.js';
