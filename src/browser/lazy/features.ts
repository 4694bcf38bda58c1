/**
 * The browser bundle's DocumentStore features (scripts/build-browser.mjs puts this module in place of
 * src/document/features.ts): each piece is its own chunk, fetched by `import()` the first time a call needs
 * it — the page's module map keeps it from then on. Same modules, same code as the eager loaders: only
 * WHEN they load differs.
 */
import type { DocumentFeatures } from '../../document/features.js';

/**
 * The lazy loaders.
 *
 * @example
 * const { queryDocuments } = await features.query(); // the query chunk is requested now, once
 */
export const features: DocumentFeatures = {
  write: () => import('../../document/write-kit.js'),
  query: () => import('../../document/query.js'),
  search: () => import('../../document/search-read.js'),
  migrate: () => import('../../document/migrate/index.js'),
  versions: () => import('../../document/versions-of.js'),
};
