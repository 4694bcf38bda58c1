/** The in-memory RefStore (volatile; for demos, tests and the browser's freestanding mode). */

export { EMPTY_TREE_SHA, ObjectDb } from '../../core/git/object-db.js';
export { DEFAULT_AUTHOR, MemoryRefStore, type MemoryRefStoreOptions } from './memory-refstore.js';
