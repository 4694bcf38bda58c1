/**
 * The loader seam of DocumentStore's optional features: the write path's declarations work (write-kit.ts),
 * queries, full-text search (search-read.ts), migrations and the versions reader. DocumentStore always reaches them through these async
 * loaders, never by a static import, so a build can choose how they load without changing what they do:
 * here (Node, `lib/`, the Action) they are imported eagerly and the loaders resolve at once; the browser
 * bundle swaps this module for src/browser/lazy/features.ts, whose loaders `import()` each piece as its own
 * chunk on first use (scripts/build-browser.mjs), so a page that only gets and puts never downloads them.
 */
import * as migrate from './migrate/index.js';
import * as query from './query.js';
import * as search from './search-read.js';
import * as versions from './versions-of.js';
import * as write from './write-kit.js';

/** One async loader per optional piece; each resolves to that piece's module. */
export interface DocumentFeatures {
  write(): Promise<typeof write>;
  query(): Promise<typeof query>;
  search(): Promise<typeof search>;
  migrate(): Promise<typeof migrate>;
  versions(): Promise<typeof versions>;
}

/**
 * The eager loaders (every piece already imported).
 *
 * @example
 * const { queryDocuments } = await features.query();
 */
export const features: DocumentFeatures = {
  write: async () => write,
  query: async () => query,
  search: async () => search,
  migrate: async () => migrate,
  versions: async () => versions,
};
