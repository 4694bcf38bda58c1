/**
 * Bulk reads on any RefStore: stores with a native bulk path (`readMany`: the GitHub API store reads an
 * archive or batches of blobs) use it; the others get one `get` per key, all at one version (the tip read
 * once first), so a write in between never mixes versions.
 */

import { InvalidConfig } from './errors.js';
import { assertValidKey } from './keys.js';
import type { OperationMeta, ReadManyItem, ReadManyOptions, RefStore } from './refstore.js';
import { assertValidVersion } from './version.js';

/**
 * The values of `keys` at one version (the tip unless `version` is given), each key once, as they arrive.
 * Invalid keys are refused before any read (`InvalidKey`); a key listed twice is read once. `onMeta` gets what
 * the read cost once it is complete (key by key: the sum of what each `get` reported).
 *
 * @example
 * for await (const { key, value } of readManyFrom(store, ['a.json', 'b.json'])) console.log(key, value?.length);
 */
export async function* readManyFrom(
  store: RefStore,
  keys: readonly string[],
  options: ReadManyOptions = {},
): AsyncGenerator<ReadManyItem> {
  if (!Array.isArray(keys)) throw new InvalidConfig('keys', 'readMany takes an array of keys', { allowed: 'string[]' });
  for (const k of keys) assertValidKey(k);
  if (options.version !== undefined) assertValidVersion(options.version);
  if (options.childFiles !== undefined) assertChildFiles(options.childFiles);
  const unique = [...new Set(keys)];
  if (store.readMany) {
    yield* store.readMany(unique, options);
    return;
  }
  const version = options.version ?? (await store.head());
  const meta: OperationMeta = {};
  for (const key of unique) {
    const got = version === null ? null : await store.get(key, { version });
    if (got?.requests !== undefined) meta.requests = (meta.requests ?? 0) + got.requests;
    if (got?.rateLimit) meta.rateLimit = got.rateLimit;
    yield { key, value: got?.value ?? null, blobSha: got?.blobSha ?? null, version };
  }
  options.onMeta?.(meta);
}

/** The `childFiles` hint names a directory and 1 to 8 file names: each `<under>/<dir>/<name>` must be a valid key. */
function assertChildFiles(hint: { under: string; names: readonly string[] }): void {
  const ok =
    typeof hint === 'object' &&
    hint !== null &&
    typeof hint.under === 'string' &&
    Array.isArray(hint.names) &&
    hint.names.length >= 1 &&
    hint.names.length <= 8 &&
    hint.names.every((n) => typeof n === 'string' && !n.includes('/'));
  if (!ok) {
    throw new InvalidConfig('childFiles', 'childFiles names a directory and 1 to 8 file names', {
      allowed: "{ under: 'a/b', names: ['file.json'] } (names without '/')",
    });
  }
  for (const name of hint.names) assertValidKey(`${hint.under}/x/${name}`);
}
