/** Migrations of one document type in one commit (docs/migrations.md). */
export {
  applyOperations,
  castValue,
  cut,
  type MigratedDocument,
  type MigrationProblem,
  operationText,
} from './apply.js';
export { indexChanges, migratedFields } from './index-fields.js';
export {
  type MigrateHost,
  type MigrateOptions,
  type MigrationCounts,
  MigrationRaced,
  type MigrationResult,
  type MigrationSample,
  migrateType,
  SAMPLES,
} from './migrate.js';
export {
  assertOperations,
  CAST_TYPES,
  type CastType,
  type DataField,
  type MigrationOperation,
  OPERATION_NAMES,
  OPERATION_SYNTAX,
  type OperationName,
  parseOperation,
} from './operations.js';
export { cappedSample, capValues, SAMPLE_LINE_MAX, SAMPLE_VALUE_MAX, sampleLines } from './samples.js';
export { MIGRATION_TRAILER, migrationMessage, migrationOf } from './trailer.js';
