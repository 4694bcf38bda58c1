/** GitHttpRefStore: the section on any git server over smart HTTP, no git binary. See docs/git-stores.md. */
export { GitHttpRefStore } from './git-http-refstore.js';
export type { GitHttpRefStoreOptions } from './options.js';
export { defaultUsername } from './remote.js';
