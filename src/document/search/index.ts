/**
 * Full-text search (issue 42): the pure core — declaration, text and tokens, stored format, build,
 * incremental update, ranking. No I/O: DocumentStore supplies bytes read at a version (the
 * {@link NeedFiles} protocol) and commits the files returned. See docs/search.md.
 */
export { buildSearch } from './build.js';
export {
  MAX_SEARCH_FIELDS,
  parseSearchDeclaration,
  SEARCH_DECLARATION_KEY,
  type SearchDeclaration,
  searchDeclarationChanges,
  serializeSearchDeclaration,
  type TypeSearch,
  validateSearchDeclaration,
} from './declaration.js';
export {
  DEFAULT_MAX_SHARD_BYTES,
  DEFAULT_MAX_SHARDS,
  NeedFiles,
  type SearchOptions,
  type SearchRead,
} from './need.js';
export { type PagedHit, rankedPage } from './page.js';
export { SEARCH_ROOT, searchManifestPath } from './paths.js';
export { type ParsedSearch, parseSearchText, type RankedHit, rankFirstPaths, rankSearch } from './rank.js';
export { idsOf, searchFilesOf, tablePathsOf } from './table.js';
export { fieldText, MAX_FIELD_TEXT_CHARS, MAX_TOKEN_CHARS, type SearchDoc, tokenize } from './text.js';
export { type SearchChange, searchFirstPaths, updateSearch } from './update.js';
export { documentMatches } from './verify.js';
