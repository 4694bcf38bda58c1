/**
 * The browser bundle's RemoteApiRefStore features (scripts/build-browser.mjs puts this module in place of
 * src/stores/remote-api/features.ts): each piece is its own chunk, fetched by `import()` the first time a
 * call needs it, so a page that only gets and puts downloads none of them. Same modules, same code as the
 * eager loaders: only WHEN they load differs.
 */
import type { RemoteApiFeatures } from '../../stores/remote-api/features.js';

/**
 * The lazy loaders.
 *
 * @example
 * const { keyHistory } = await remoteApiFeatures.history(); // the history chunk is requested now, once
 */
export const remoteApiFeatures: RemoteApiFeatures = {
  history: () => import('../../stores/remote-api/history.js'),
  versions: () => import('../../stores/remote-api/versions.js'),
  bulk: () => import('../../stores/remote-api/bulk-reads.js'),
  archives: () => import('../../stores/remote-api/section-archives.js'),
  versioned: () => import('../../stores/remote-api/versioned-reads.js'),
  derived: () => import('../../stores/remote-api/derived-reads.js'),
  graphql: () => import('../../stores/remote-api/graphql.js'),
  parts: () => import('../../stores/remote-api/parts-loop.js'),
  replace: () => import('../../stores/remote-api/update-refs.js'),
  deleteRefs: () => import('../../stores/remote-api/delete-refs.js'),
  listRefs: () => import('../../stores/remote-api/matching-refs.js'),
};
