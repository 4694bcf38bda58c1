/**
 * Build one write on an ObjectDb: check conflicts, plan (core/plan.ts), then store the new blobs,
 * trees and commit. Shared by the stores that build git objects locally (memory, IndexedDB), so a
 * write means the same everywhere; moving the ref is left to the caller (its compare-and-swap).
 */
import {
  assertNoPathConflicts,
  defaultCommitMessage,
  type normalizeChanges,
  planWrite,
  type WritePlan,
} from '../plan.js';
import type { WriteResult } from '../refstore.js';
import type { ObjectDb } from './object-db.js';
import type { Signature } from './objects.js';

/** What is at each path of the base tree (only paths of the changed keys and their ancestors are asked). */
export interface BaseView {
  isFile(path: string): boolean;
  isDir(path: string): boolean;
  /** Blob SHA of a key, or undefined when absent. */
  blobSha(key: string): string | undefined;
}

export interface BuildCommitInput {
  changes: ReturnType<typeof normalizeChanges>;
  tip: string | null;
  baseTree: string | null;
  base: BaseView;
  author: { name: string; email: string };
  /** Milliseconds since the epoch. */
  now: number;
  message?: string;
  /** Compare-and-set expectations (from `normalizeIfMatch`), checked against `base`. */
  ifMatch?: ReadonlyMap<string, string | null>;
}

/** The plan, the new commit (null when nothing changes) and the result fields every write reports. */
export interface BuiltCommit {
  plan: WritePlan;
  commit: string | null;
  result: WriteResult;
}

/**
 * @example
 * const built = buildCommit(db, { changes: normalizeChanges([{ op: 'put', key: 'a', value: 'x' }]), tip: null,
 *   baseTree: null, base: { isFile: () => false, isDir: () => false, blobSha: () => undefined },
 *   author: { name: 'me', email: 'me@example.com' }, now: Date.now() });
 * built.commit; // the new commit's SHA, stored in db
 */
export function buildCommit(db: ObjectDb, input: BuildCommitInput): BuiltCommit {
  const { changes, tip, baseTree, base } = input;
  assertNoPathConflicts(changes, base);
  const plan = planWrite(
    changes,
    (key) => base.blobSha(key),
    input.ifMatch ? { ifMatch: input.ifMatch, version: tip } : undefined,
  );
  const fields = {
    previousVersion: tip,
    written: plan.written,
    deleted: plan.deleted,
    unchanged: plan.unchanged,
    requests: 0,
  };
  if (plan.treeChanges.length === 0) return { plan, commit: null, result: { ...fields, version: tip, changed: false } };
  for (const c of plan.treeChanges) if (c.content) db.putBlob(c.content);
  const tree = db.applyTreeChanges(baseTree, plan.treeChanges);
  const sig: Signature = { ...input.author, timestamp: Math.floor(input.now / 1000), timezone: '+0000' };
  const commit = db.putCommit({
    tree,
    parents: tip ? [tip] : [],
    author: sig,
    committer: sig,
    message: input.message ?? defaultCommitMessage(plan),
  });
  return { plan, commit, result: { ...fields, version: commit, changed: true } };
}
