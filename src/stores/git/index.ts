/** The local git stores (Node only; exported from `docdb/node`). See docs/git-stores.md. */
export { GitRefStore, type GitRefStoreOptions } from './git-refstore.js';
export { DEFAULT_GIT_REF, DEFAULT_GIT_RETRIES, type GitStoreCommonOptions } from './options.js';
export {
  defaultCacheDir,
  SubprocessGitRefStore,
  type SubprocessGitRefStoreOptions,
} from './subprocess-refstore.js';
