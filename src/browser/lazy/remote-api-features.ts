/**
 * The browser bundle's RemoteApiRefStore features (scripts/build-browser.mjs puts this module in place of
 * src/stores/remote-api/features.ts): fetched by `import()` the first time a call needs them, so a page
 * that only gets and puts downloads none of them. Pieces used together load together (a chunk each costs a
 * request and its own gzip): the history readers, the bulk readers, the other-ref operations; commits in
 * parts load alone. Same modules, same code as the
 * eager loaders: only WHEN they load differs.
 */
import type { RemoteApiFeatures } from '../../stores/remote-api/features.js';

const history = () => import('./remote-api-history.js');
const bulk = () => import('./remote-api-bulk.js');
const refs = () => import('./remote-api-refs.js');

/**
 * The lazy loaders.
 *
 * @example
 * const { keyHistory } = await remoteApiFeatures.history(); // the history chunk is requested now, once
 */
export const remoteApiFeatures: RemoteApiFeatures = {
  history: async () => (await history()).history,
  versions: async () => (await history()).versions,
  bulk: async () => (await bulk()).bulk,
  archives: async () => (await bulk()).archives,
  versioned: async () => (await bulk()).versioned,
  parts: () => import('../../stores/remote-api/parts-loop.js'),
  replace: async () => (await refs()).replace,
  deleteRefs: async () => (await refs()).deleteRefs,
  listRefs: async () => (await refs()).listRefs,
};
