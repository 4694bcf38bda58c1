/** Retention and compaction of a section's history (docs/retention.md). */

export { compactedFrom, compactionDate, compactionRoot } from '../core/compaction-trailers.js';
export { type CompactOptions, type CompactResult, compactSection } from './compact.js';
export { GITHUB_CONTENT_LIMITS, type PacingLimits, pacer } from './pacer.js';
export type { CompactPlan } from './plan.js';
export { checkPolicy, type RetentionPolicy, selectKept } from './policy.js';
