/** The document layer: identities, canonical keys, envelopes, canonical JSON and the DocumentStore. */
export type { BulkReadOptions } from './bulk.js';
export { canonicalJson } from './canonical-json.js';
export {
  type DocumentGetOptions,
  type DocumentListEntry,
  type DocumentListOptions,
  type DocumentListResult,
  type DocumentOp,
  type DocumentQuery,
  type DocumentQueryResult,
  type DocumentSearchQuery,
  type DocumentSearchResult,
  DocumentStore,
  PUT_MANY_PART,
  type PutDocumentResult,
  type QueryRow,
  type ReadDocumentResult,
  type SearchHit,
} from './document-store.js';
export {
  assertValidDocumentInput,
  type DocumentInput,
  decodeEnvelope,
  type Envelope,
  encodeEnvelope,
  envelopeMatches,
  identityOf,
} from './envelope.js';
export {
  type CheckContext,
  type CheckDocument,
  type CheckRunner,
  type Expectations,
  type ExpectViolation,
  parseExpectations,
  type SectionTestResult,
  type TypeExpectations,
  testSection,
} from './expect/index.js';
export type { FacetCount, FacetsQuery, FacetsResult, FieldFacets } from './facets-read.js';
export {
  assertValidIdentity,
  DOCUMENT_SUFFIX,
  deriveKey,
  type Identity,
  type IdentityField,
  isValidIdentity,
  MAX_SEGMENT_BYTES,
  parseKey,
  RESERVED_PREFIX,
} from './identity.js';
export type { DocumentIndexOptions } from './index-write.js';
export {
  DECLARATION_KEY,
  type IndexDeclaration,
  type IndexQuery,
  OPERATORS,
  type Operator,
  type TypeIndex,
  type WhereClause,
} from './indexes/index.js';
export {
  CAST_TYPES,
  type CastType,
  type MigrateOptions,
  type MigrationCounts,
  type MigrationOperation,
  MigrationRaced,
  type MigrationResult,
  type MigrationSample,
  migrationOf,
  parseOperation,
} from './migrate/index.js';
export {
  changedVersions,
  type RebuiltVersions,
  rebuiltVersions,
  type VersionPair,
  type VersionReader,
} from './patch-documents.js';
export { type TypeDeclaration, type TypeSchema, typeDeclarationPath } from './schema/declaration.js';
export { MAX_LISTED_VIOLATIONS, type SchemaViolation } from './schema/enforce.js';
export type { SearchDeclaration, TypeSearch } from './search/index.js';
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './search-read.js';
export type { SearchTypeName } from './search-rebuild.js';
export type { DocumentSearchOptions } from './search-write.js';
export {
  SERIES_AGGREGATES,
  type SeriesAggregate,
  type SeriesGap,
  type TypeSeriesPoint,
  type TypeSeriesQuery,
  type TypeSeriesResult,
  typeSeries,
} from './type-series.js';
export { type DocumentVersionsResult, documentVersions } from './versions-of.js';
