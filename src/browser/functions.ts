/**
 * `docdb/browser`'s async functions with code a get/put page does not need — `typeSeries` and
 * `projectRepository` — imported eagerly here (Node, `lib/`, the one-file viewer). The browser bundle swaps
 * this module for src/browser/lazy/functions.ts (scripts/build-browser.mjs), whose functions of the same
 * names load their code on the first call, as a chunk of its own.
 */
export { typeSeries } from '../document/type-series.js';
export { projectRepository } from './repo-projection.js';
