/**
 * The documents already in a section checked against a schema about to be declared (issue 38): refused,
 * listing up to 50 violations, unless `force`. Read the way any bulk reader reads a type — one listing of
 * the type's keys, then `readManyFrom` (core/read-many.ts: on the GitHub API the section's archive or
 * batches of blobs, elsewhere key by key), streamed, so memory holds the keys and one document at a time.
 * Runs only when a write declares a schema that differs from the one at the tip.
 */
import { readManyFrom } from '../../core/read-many.js';
import type { RefStore } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import { decodeEnvelope } from '../envelope.js';
import { parseKey } from '../identity.js';
import type { CompiledSchema } from './compile.js';
import type { Violations } from './enforce.js';

/**
 * Check every document of `namespace/type` at `version` (except `skip`: the write's own keys, checked — or
 * deleted — by the write itself) against `schema`, into `violations`.
 *
 * @example
 * const v = new Violations();
 * await checkExisting(store, tip, { namespace: 'github', type: 'repo' }, compiled, new Set(), v);
 * v.throwForDeclaration('schema', 'github/repo');
 */
export async function checkExisting(
  store: RefStore,
  version: VersionId | null,
  t: { namespace: string; type: string },
  schema: CompiledSchema,
  skip: ReadonlySet<string>,
  violations: Violations,
): Promise<void> {
  if (version === null) return;
  const listed = await store.list({ prefix: `${t.namespace}/${t.type}/`, version });
  const keys = listed.entries
    .map((e) => e.key)
    .filter((k) => !skip.has(k) && parseKey(k)?.doc_type === t.type && parseKey(k)?.namespace === t.namespace);
  if (keys.length === 0) return;
  for await (const item of readManyFrom(store, keys, { version })) {
    if (item.value === null) continue;
    violations.check(item.key, schema, decodeEnvelope(item.value, version).data);
  }
}
