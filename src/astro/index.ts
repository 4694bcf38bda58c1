/**
 * `docdb/astro`: an Astro content-layer loader over a docdb section (docs/loaders.md). Astro is not a dependency
 * of docdb: this entry point imports nothing of it, at runtime or in its types.
 *
 * @example
 * import { docdbLoader } from 'docdb/astro';
 * const loader = docdbLoader({ repo: 'octo/data', namespace: 'github', type: 'repo' });
 */
export type {
  DocdbAstroLoader,
  DocdbLoaderContext,
  LoaderEntry,
  LoaderEntryStore,
  LoaderLogger,
  LoaderMetaStore,
} from './context.js';
export { ASTRO_IMAGE_MARKER } from './entry.js';
export { docdbLoader, LOADER_NAME } from './loader.js';
export type { DocdbLoaderOptions } from './options.js';
