/**
 * Section indexes (issue 28): the pure core — declaration, stored format, build, incremental update,
 * query planning and evaluation. No I/O: DocumentStore and the readers supply bytes read at a version
 * and commit the files returned. See docs/indexes.md.
 */
export {
  buildIndex,
  buildTypeIndex,
  buildTypeIndexFromValues,
  DEFAULT_MAX_PART_BYTES,
  type IndexOptions,
  type StoredDocument,
  type TypedDocument,
} from './build.js';
export {
  DECLARATION_KEY,
  type IndexDeclaration,
  MAX_INDEXED_FIELDS,
  parseDeclaration,
  serializeDeclaration,
  type TypeIndex,
  validateDeclaration,
} from './declaration.js';
export { evaluate, type QueryResult, type ResultRow } from './evaluate.js';
export { FORMAT_VERSION, type Manifest, type PartRef, parseManifest, parsePart, type Run } from './format.js';
export { declarationChanges, dropIndex } from './lifecycle.js';
export { INDEX_ROOT, manifestPath, partPath } from './paths.js';
export { planQuery, type QueryPlan } from './plan.js';
export { decodeCursor, type IndexQuery, OPERATORS, type Operator, validateQuery, type WhereClause } from './query.js';
export type { Row } from './rows.js';
export { type DocumentState, type IndexChange, type IndexUpdate, partsToRead, updateIndex } from './update.js';
export { type IndexedDocument, MAX_ARRAY_ELEMENTS, MAX_STORED_STRING_BYTES, type Stored } from './values.js';
