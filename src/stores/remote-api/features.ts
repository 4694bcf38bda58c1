/**
 * The loader seam of RemoteApiRefStore's readers and writers that a get, a put, a list or a delete does
 * not use: history, versions and changes, bulk and versioned reads (GraphQL batches, archives), commits in
 * parts, and the other-ref operations. (The derive reads and GraphQL's path levels and objects stay: every
 * DocumentStore write reads its section's declarations through them.) The store reaches them only through these async
 * loaders, never by a static import, so a build chooses how they load without changing what they do: here
 * (Node, `lib/`, the Action) they are imported eagerly and the loaders resolve at once; the browser bundle
 * swaps this module for src/browser/lazy/remote-api-features.ts (scripts/build-browser.mjs), whose
 * loaders `import()` each piece as a chunk of its own on first use — as src/document/features.ts does
 * for DocumentStore.
 */
import * as bulk from './bulk-reads.js';
import * as deleteRefs from './delete-refs.js';
import * as history from './history.js';
import * as listRefs from './matching-refs.js';
import * as parts from './parts-loop.js';
import * as archives from './section-archives.js';
import * as replace from './update-refs.js';
import * as versioned from './versioned-reads.js';
import * as versions from './versions.js';

/** One async loader per piece; each resolves to that piece's module. */
export interface RemoteApiFeatures {
  /** Key and section history (`history`, `commits`). */
  history(): Promise<typeof history>;
  /** A version's place in the section, and `changes` between two. */
  versions(): Promise<typeof versions>;
  /** `readMany` (GraphQL batches, blobs, an archive). */
  bulk(): Promise<typeof bulk>;
  /** The section's archive, read ahead of a bulk read. */
  archives(): Promise<typeof archives>;
  /** `readVersions`. */
  versioned(): Promise<typeof versioned>;
  /** `commitParts`. */
  parts(): Promise<typeof parts>;
  /** `replaceHistory`. */
  replace(): Promise<typeof replace>;
  /** `deleteRefs`. */
  deleteRefs(): Promise<typeof deleteRefs>;
  /** `listRefs`. */
  listRefs(): Promise<typeof listRefs>;
}

/**
 * The eager loaders (every piece already imported).
 *
 * @example
 * const { keyHistory } = await remoteApiFeatures.history();
 */
export const remoteApiFeatures: RemoteApiFeatures = {
  history: async () => history,
  versions: async () => versions,
  bulk: async () => bulk,
  archives: async () => archives,
  versioned: async () => versioned,
  parts: async () => parts,
  replace: async () => replace,
  deleteRefs: async () => deleteRefs,
  listRefs: async () => listRefs,
};
