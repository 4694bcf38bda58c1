/**
 * run/: the runner — run options and report, one projection's pass over its source, the state file kept in
 * the section, shards (and the merge of shard refs), and the one commit the changes stream into. The top
 * of projection/: it uses spec/, sources/ and reducers/, and nothing there imports it.
 */

export {
  expectationsOf,
  isExpectationsFailed,
  type RunRefusal,
  type RunViolation,
  refusalOf,
} from './guarded-write.js';
export { type MergedShard, type MergeOptions, type MergeReport, mergeShards } from './merge-shards.js';
export type { PlannedCommit, RunMode, RunOptions, RunReport } from './options.js';
export { deletePreview, PREVIEW_BASE_TRAILER, type PreviewHost, writePreview } from './preview-write.js';
export type { ProjectionReport } from './projection-types.js';
export {
  dropQuarantine,
  listQuarantine,
  promoteQuarantine,
  type QuarantineEntry,
  type QuarantineHost,
} from './quarantine-ops.js';
export {
  assertQuarantineId,
  QUARANTINE_SUFFIX,
  quarantineBaseOf,
  quarantinePrefixOf,
  quarantineRefOf,
} from './quarantine-refs.js';
export type { QuarantineTarget } from './quarantine-write.js';
export { runProjections } from './run-projections.js';
export { loadSchemas, type TypeSchema } from './schema-files.js';
export { inShard, parseShard, type Shard, shardOf } from './shard.js';
export { SHARD_RECEIPT_KEY, type ShardMark, shardMarkOf, shardRefOf } from './shard-refs.js';
export { type ProjectionSkip, SKIP_KEYS_KEPT } from './skip-reasons.js';
export { stateKey } from './state-file.js';
