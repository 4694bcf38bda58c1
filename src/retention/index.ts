/** Retention and compaction of a section's history (docs/retention.md). */

export { compactedFrom, compactionRoot } from '../core/compaction-trailers.js';
export { type CompactOptions, type CompactResult, compactSection } from './compact.js';
export { GITHUB_CONTENT_LIMITS, type PacingLimits, pacer } from './pacer.js';
export { checkPolicy, type RetentionPolicy, selectKept } from './policy.js';
