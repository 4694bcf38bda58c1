/**
 * Turn a list of key changes into the minimal set of tree changes, given the current blob SHA of
 * each key. Shared by every store so "no-op writes make no commit" means the same everywhere.
 */
import { toBytes } from './bytes.js';
import { DocumentTooLarge, InvalidConfig, InvalidKey, PreconditionFailed } from './errors.js';
import { blobSha } from './git/objects.js';
import { assertValidKey } from './keys.js';
import type { Change, CommitOptions, KeyWriteOptions } from './refstore.js';

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
 * Largest value any store accepts, in bytes of the encoded value: GitHub refuses blobs over 100 MiB
 * (https://docs.github.com/en/repositories/working-with-files/managing-large-files/about-large-files-on-github),
 * so every backend applies the same limit and a value that works locally works remotely.
 */
export const MAX_VALUE_BYTES = 100 * 1024 * 1024;

/**
 * Validate every change (before any I/O) and reject a key named twice, or a value over
 * {@link MAX_VALUE_BYTES} (`DocumentTooLarge`, before its blob is hashed or uploaded).
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
      if (value.length > MAX_VALUE_BYTES) throw new DocumentTooLarge(c.key, value.length, MAX_VALUE_BYTES);
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
  preconditions?: Preconditions,
): WritePlan {
  // Checked on the state this attempt plans against — every store calls planWrite again after a
  // rebase onto a moved tip, so an expectation is always judged against the tip the commit lands on.
  if (preconditions) assertPreconditions(preconditions, currentSha);
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

/**
 * Throw `InvalidKey` (rule `conflict`) when a batch would make a key both a file and a directory:
 * putting `a/b` while `a` is (or stays) a file, or putting `a` while `a/…` keys exist. Without this
 * check a tree write would silently replace the directory `a` (and every key below it) with a file.
 * `isFile`/`isDir` describe the tree the batch is applied to. Runs before any write.
 *
 * @example
 * assertNoPathConflicts(normalizeChanges([{ op: 'put', key: 'a', value: 'x' }]), { isFile: () => false, isDir: (p) => p === 'a' });
 * // throws InvalidKey { rule: 'conflict' }
 */
export function assertNoPathConflicts(
  changes: ReturnType<typeof normalizeChanges>,
  base: { isFile(path: string): boolean; isDir(path: string): boolean },
): void {
  const puts = new Set<string>();
  const deletes = new Set<string>();
  for (const c of changes) (c.op === 'put' ? puts : deletes).add(c.key);
  // Keys of one directory have the same ancestors: checked once per run of them (a batch cut in key
  // order is such runs), without a substring per key.
  let checkedDir = '';
  for (const key of puts) {
    if (base.isDir(key)) {
      throw new InvalidKey(
        key,
        'conflict',
        `cannot put ${JSON.stringify(key)}: other keys exist below "${key}/" (a key cannot also be a directory of other keys)`,
      );
    }
    const dirEnd = key.lastIndexOf('/');
    if (dirEnd > 0 && dirEnd === checkedDir.length && key.startsWith(checkedDir)) continue;
    if (dirEnd > 0) checkedDir = key.slice(0, dirEnd);
    let slash = key.indexOf('/');
    while (slash > 0) {
      const ancestor = key.slice(0, slash);
      if (puts.has(ancestor) || (base.isFile(ancestor) && !deletes.has(ancestor))) {
        throw new InvalidKey(
          key,
          'conflict',
          `cannot put ${JSON.stringify(key)}: key ${JSON.stringify(ancestor)} is a value, not a directory (a key cannot also be a directory of other keys)`,
        );
      }
      slash = key.indexOf('/', slash + 1);
    }
  }
}

/** Normalised compare-and-set expectations of one write and the tip they are checked against. */
export interface Preconditions {
  /** Key → expected blob SHA, or null for "must be absent". */
  ifMatch: ReadonlyMap<string, string | null>;
  /** The tip the plan is made on (reported in `PreconditionFailed`). */
  version: string | null;
}

const SHA_RE = /^[0-9a-f]{40}$/;

/**
 * The `commit` options of a `put`/`delete` with `ifMatch`: `{ ...options, ifMatch: { [key]: value } }`.
 *
 * @example
 * keyWriteToCommit('a.json', { ifMatch: null }); // { ifMatch: { 'a.json': null } }
 */
export function keyWriteToCommit(key: string, options: KeyWriteOptions | undefined): CommitOptions | undefined {
  if (!options || !('ifMatch' in options) || options.ifMatch === undefined) {
    if (!options) return undefined;
    const { ifMatch: _omit, ...rest } = options;
    return rest;
  }
  const { ifMatch, ...rest } = options;
  return { ...rest, ifMatch: { [key]: ifMatch } };
}

/**
 * A write's `message` option, checked before any I/O: when given, a non-empty string.
 *
 * @example
 * assertCommitMessage('nightly projection'); // passes; assertCommitMessage('') throws InvalidConfig
 */
export function assertCommitMessage(message: unknown): void {
  if (message !== undefined && (typeof message !== 'string' || message.trim() === '')) {
    throw new InvalidConfig('message', 'commit message must be a non-empty string', { allowed: 'non-empty string' });
  }
}

/**
 * What every store's `commit` checks before any I/O, in one place: the changes (validated, encoded and
 * hashed), the `ifMatch` expectations and the `message`.
 *
 * @example
 * const { changes, ifMatch } = prepareCommit([{ op: 'put', key: 'a.json', value: '{}' }], { ifMatch: { 'a.json': null } });
 */
export function prepareCommit(
  changes: readonly Change[],
  options: CommitOptions = {},
): { changes: ReturnType<typeof normalizeChanges>; ifMatch: Map<string, string | null> | undefined } {
  const normalized = normalizeChanges(changes);
  const ifMatch = normalizeIfMatch(normalized, options.ifMatch);
  assertCommitMessage(options.message);
  return { changes: normalized, ifMatch };
}

/**
 * Validate `options.ifMatch` of a commit before any I/O: every key must be a key of `changes`, every
 * value a 40-hex blob SHA or null. Returns the expectations as a map (undefined when none).
 *
 * @example
 * normalizeIfMatch(normalizeChanges([{ op: 'delete', key: 'a' }]), { a: null }); // Map { 'a' => null }
 */
export function normalizeIfMatch(
  changes: ReturnType<typeof normalizeChanges>,
  ifMatch: unknown,
): Map<string, string | null> | undefined {
  if (ifMatch === undefined) return undefined;
  if (typeof ifMatch !== 'object' || ifMatch === null || Array.isArray(ifMatch)) {
    throw new InvalidConfig('ifMatch', 'ifMatch must be an object mapping keys to a blob SHA or null', {
      allowed: '{ [key]: blobSha | null }',
    });
  }
  const keys = new Set(changes.map((c) => c.key));
  const out = new Map<string, string | null>();
  for (const [key, value] of Object.entries(ifMatch)) {
    if (!keys.has(key)) {
      throw new InvalidConfig(
        'ifMatch',
        `ifMatch names ${JSON.stringify(key)}, which this write does not change; name only keys that are put or deleted`,
        { key, allowed: 'keys of the changes' },
      );
    }
    if (value !== null && (typeof value !== 'string' || !SHA_RE.test(value))) {
      throw new InvalidConfig(
        'ifMatch',
        `ifMatch for ${JSON.stringify(key)} must be a 40-character lowercase hex blob SHA (the blobSha from get) or null for "absent", got ${JSON.stringify(value)}`,
        { key, allowed: 'blob SHA or null' },
      );
    }
    out.set(key, value);
  }
  return out.size === 0 ? undefined : out;
}

/**
 * Throw `PreconditionFailed` for the first key whose current blob SHA differs from its expectation.
 *
 * @example
 * assertPreconditions({ ifMatch: new Map([['a', null]]), version: null }, () => undefined); // passes: "a" is absent
 */
export function assertPreconditions(p: Preconditions, currentSha: (key: string) => string | undefined): void {
  for (const [key, expected] of p.ifMatch) {
    const actual = currentSha(key) ?? null;
    if (actual !== expected) throw new PreconditionFailed(key, expected, actual, p.version);
  }
}
