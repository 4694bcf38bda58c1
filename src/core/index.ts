/** Platform-neutral core: RefStore interface, versions, keys, ref names, errors and the git object model. */
export * from './bytes.js';
export { assertPartsOptions, commitInParts } from './commit-parts.js';
export * as errors from './errors.js';
export { DocDbError } from './errors.js';
export { EMPTY_TREE_SHA, type FlatEntry, ObjectDb, type TreeChange } from './git/object-db.js';
export {
  blobSha,
  type CommitFields,
  decodeCommit,
  decodeTree,
  encodeCommit,
  encodeTree,
  hashObject,
  isSha,
  type ObjectType,
  type Signature,
  type TreeEntry,
  type TreeMode,
} from './git/objects.js';
export { sha1Hex } from './git/sha1.js';
export { type DiffTreeEntry, diffTrees, type TreeDiff } from './git/tree-diff.js';
export { assertValidKey, assertValidPrefix, isValidKey, MAX_KEY_BYTES } from './keys.js';
export { readManyFrom } from './read-many.js';
export { assertVersionedReads, MAX_VERSIONED_READS, readVersionsFrom } from './read-versions.js';
export {
  assertNotReservedRef,
  assertValidRefName,
  RESERVED_REF_SPACES,
  reservedSpaceProblem,
  sectionRef,
} from './refname.js';
export type * from './refstore.js';
export {
  MIN_VERSION_PREFIX,
  RESOLVE_VERSION_DEPTH,
  type ResolveVersionOptions,
  resolveVersion,
} from './resolve-version.js';
export { isInSection } from './section.js';
export { inertText } from './terminal-text.js';
export { assertValidVersion, type VersionId } from './version.js';
export { type VisibilitySource, type WatchChange, type WatchOptions, watch } from './watch.js';
