/**
 * The argument checks RemoteApiRefStore makes before an operation queues (a bad argument throws at the
 * call, before any request), kept apart from the readers and writers that do the work: those load on first
 * use in a browser bundle (readers.ts), these checks never wait for them.
 */
import { assertPartsOptions } from '../../core/commit-parts.js';
import { InvalidConfig } from '../../core/errors.js';
import { assertCommitMessage } from '../../core/plan.js';
import { assertValidRefName } from '../../core/refname.js';
import type { CommitPartsOptions, HistoryOptions } from '../../core/refstore.js';
import { assertValidVersion } from '../../core/version.js';

/**
 * The most entries a history may return (`Infinity` when not limited); `InvalidConfig` for a limit that
 * is not a non-negative integer.
 *
 * @example
 * const limit = historyLimit({ limit: 10 }); // 10
 */
export function historyLimit(options: HistoryOptions): number {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (limit !== Number.POSITIVE_INFINITY && (!Number.isInteger(limit) || limit < 0)) {
    throw new InvalidConfig('limit', `history limit must be a non-negative integer, got ${String(limit)}`, {
      allowed: 'integer >= 0',
    });
  }
  return limit;
}

/**
 * The options of a commit in parts, checked before it queues (a message function is called, and so
 * checked, once every part is in).
 *
 * @example
 * assertPartsWrite({ message: 'backfill' });
 */
export function assertPartsWrite(options: CommitPartsOptions): void {
  assertPartsOptions(options);
  if (typeof options.message !== 'function') assertCommitMessage(options.message);
}

/** A ref to delete and the commit it must still point at. */
export interface RefDeletion {
  ref: string;
  oid: string;
}

/**
 * Check the deletions before any request: full ref names, commit SHAs, each ref once.
 *
 * @example
 * checkDeletions([{ ref: 'refs/docdb/inv.shards/1', oid: tip }]);
 */
export function checkDeletions(refs: readonly RefDeletion[]): void {
  const seen = new Set<string>();
  for (const r of refs) {
    assertValidRefName(r?.ref, 'refs[].ref');
    assertValidVersion(r.oid);
    if (seen.has(r.ref)) throw new InvalidConfig('refs', `deleteRefs: ${r.ref} is named twice`, { ref: r.ref });
    seen.add(r.ref);
  }
}
