/**
 * `docdb/node`: the Node-only stores, which run the git command line — GitRefStore (a local
 * repository) and SubprocessGitRefStore (any git remote through a cache repository). Kept out of the
 * platform-neutral `docdb` entry point so browser bundles never see node:child_process.
 *
 * @example
 * import { DocumentStore } from 'docdb';
 * import { GitRefStore } from 'docdb/node';
 * const docs = new DocumentStore(new GitRefStore({ dir: './data.git' }));
 */
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
export {
  type NodeArchiveReaderOptions,
  nodeArchiveReader,
} from './stores/remote-api/node-archive.js';
