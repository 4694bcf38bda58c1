/**
 * Turn a list of key changes into the minimal set of tree changes, given the current blob SHA of
 * each key. Shared by every store so "no-op writes make no commit" means the same everywhere.
 */
import { toBytes } from './bytes.js';
import { InvalidKey } from './errors.js';
import { blobSha } from './git/objects.js';
import { assertValidKey } from './keys.js';
import type { Change } from './refstore.js';

export interface PlannedTreeChange {
  path: string;
  mode: '100644';
  /** New blob id, or null to delete. */
  sha: string | null;
  /** Content for puts (stores may send it inline instead of the SHA). */
  content?: Uint8Array;
}

export interface WritePlan {
  treeChanges: PlannedTreeChange[];
  written: string[];
  deleted: string[];
  unchanged: number;
}

/**
 * Validate every change (before any I/O) and reject a key named twice.
 * Returns the changes with values as bytes.
 */
export function normalizeChanges(
  changes: readonly Change[],
): ({ op: 'put'; key: string; value: Uint8Array; sha: string } | { op: 'delete'; key: string })[] {
  if (!Array.isArray(changes)) throw new TypeError('changes must be an array');
  const seen = new Set<string>();
  return changes.map((c) => {
    assertValidKey(c?.key);
    if (seen.has(c.key)) {
      throw new InvalidKey(c.key, 'duplicate', `key ${JSON.stringify(c.key)} appears more than once in one commit`);
    }
    seen.add(c.key);
    if (c.op === 'put') {
      if (typeof c.value !== 'string' && !(c.value instanceof Uint8Array)) {
        throw new TypeError(`value for ${JSON.stringify(c.key)} must be a string or Uint8Array`);
      }
      const value = toBytes(c.value);
      return { op: 'put', key: c.key, value, sha: blobSha(value) };
    }
    if (c.op === 'delete') return { op: 'delete', key: c.key };
    throw new TypeError(`change op must be "put" or "delete", got ${JSON.stringify((c as { op: unknown }).op)}`);
  });
}

/**
 * Plan a write against the current state. `currentSha(key)` returns the blob SHA at the tip, or
 * undefined when the key is absent.
 *
 * @example
 * const plan = planWrite(normalizeChanges([{ op: 'put', key: 'a', value: 'x' }]), () => undefined);
 * plan.written // ['a']
 */
export function planWrite(
  changes: ReturnType<typeof normalizeChanges>,
  currentSha: (key: string) => string | undefined,
): WritePlan {
  const plan: WritePlan = { treeChanges: [], written: [], deleted: [], unchanged: 0 };
  for (const c of changes) {
    const current = currentSha(c.key);
    if (c.op === 'put') {
      if (current === c.sha) {
        plan.unchanged++;
        continue;
      }
      plan.treeChanges.push({ path: c.key, mode: '100644', sha: c.sha, content: c.value });
      plan.written.push(c.key);
    } else {
      if (current === undefined) {
        plan.unchanged++;
        continue;
      }
      plan.treeChanges.push({ path: c.key, mode: '100644', sha: null });
      plan.deleted.push(c.key);
    }
  }
  return plan;
}

/** Default commit message for a plan. */
export function defaultCommitMessage(plan: WritePlan): string {
  const n = plan.written.length + plan.deleted.length;
  if (n === 1) return plan.written.length === 1 ? `docdb: put ${plan.written[0]}` : `docdb: delete ${plan.deleted[0]}`;
  return `docdb: write ${plan.written.length}, delete ${plan.deleted.length} keys`;
}
