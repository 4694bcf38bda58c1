/**
 * One key at many versions (a document's past values, an index file across section versions) on any
 * RefStore: stores with a native path (`readVersions`: the GitHub API store batches GraphQL aliases) use it; the
 * others get one pinned `get` per distinct pair.
 */

import { InvalidConfig } from './errors.js';
import { assertValidKey } from './keys.js';
import type { OperationMeta, ReadVersionsOptions, RefStore, VersionedItem, VersionedRead } from './refstore.js';
import { assertValidVersion } from './version.js';

/** Most pairs one `readVersions` takes: 100 versions of 100 keys; a larger read is split by its caller. */
export const MAX_VERSIONED_READS = 10_000;

/**
 * Check the pairs of a `readVersions` before any I/O: an array of at most {@link MAX_VERSIONED_READS}
 * `{ key, version }` (`InvalidConfig` naming the limit; `InvalidKey`, `InvalidVersion` for a bad pair).
 *
 * @example
 * assertVersionedReads([{ key: 'a.json', version: tip }]);
 */
export function assertVersionedReads(reads: readonly VersionedRead[]): void {
  if (!Array.isArray(reads)) {
    throw new InvalidConfig('reads', 'readVersions takes an array of { key, version } pairs', {
      allowed: '{ key: string; version: string }[]',
    });
  }
  if (reads.length > MAX_VERSIONED_READS) {
    throw new InvalidConfig('reads', `readVersions takes at most ${MAX_VERSIONED_READS} pairs, got ${reads.length}`, {
      limit: 'MAX_VERSIONED_READS',
      allowed: MAX_VERSIONED_READS,
    });
  }
  for (const r of reads) {
    if (typeof r !== 'object' || r === null) {
      throw new InvalidConfig('reads', 'each read must be a { key, version } pair', {
        allowed: '{ key: string; version: string }',
      });
    }
    assertValidKey(r.key);
    assertValidVersion(r.version);
  }
}

/** The identity of a pair (a key never holds a newline, so the join is unambiguous). */
export const pairId = (r: VersionedRead): string => `${r.version}\n${r.key}`;

/**
 * The value of each `{ key, version }` pair, in the order asked (a pair listed twice is read once). Every
 * version must be a commit of the section (`InvalidVersion`). `onMeta` gets what the whole read cost.
 *
 * @example
 * const items = await readVersionsFrom(store, versions.map((version) => ({ key: 'github/repo/octo/hello.json', version })));
 */
export async function readVersionsFrom(
  store: RefStore,
  reads: readonly VersionedRead[],
  options: ReadVersionsOptions = {},
): Promise<VersionedItem[]> {
  assertVersionedReads(reads);
  if (store.readVersions) return store.readVersions(reads, options);
  const meta: OperationMeta = {};
  const got = new Map<string, VersionedItem>();
  for (const r of reads) {
    const id = pairId(r);
    if (got.has(id)) continue;
    const one = await store.get(r.key, { version: r.version });
    if (one?.requests !== undefined) meta.requests = (meta.requests ?? 0) + one.requests;
    if (one?.rateLimit) meta.rateLimit = one.rateLimit;
    got.set(id, { key: r.key, version: r.version, value: one?.value ?? null, blobSha: one?.blobSha ?? null });
  }
  options.onMeta?.(meta);
  return reads.map((r) => ({ ...(got.get(pairId(r)) as VersionedItem) }));
}
