/**
 * Reading a type's schema from the section (`docs.schema`, and a commit in parts learning the schemas of
 * the types it writes): one `get` of its declaration file, untrusted (declaration.ts).
 */
import type { RefStore } from '../../core/refstore.js';
import { assertValidVersion, type VersionId } from '../../core/version.js';
import { assertIdentityFields } from '../identity.js';
import { parseTypeDeclaration, typeDeclarationPath } from './declaration.js';
import type { StoredSchema } from './parts.js';

/**
 * A type's schema at the tip (or at `version`) with its blob SHA, or null when it has none.
 *
 * @example
 * const s = await storedSchema(store, { namespace: 'github', type: 'repo' }); // { blobSha, schema } | null
 */
export async function storedSchema(
  store: RefStore,
  t: { namespace: string; type: string },
  options: { version?: VersionId } = {},
): Promise<StoredSchema> {
  assertIdentityFields(t?.namespace, t?.type, 'x');
  if (options.version !== undefined) assertValidVersion(options.version);
  const key = typeDeclarationPath(t.namespace, t.type);
  const got = await store.get(key, options.version === undefined ? {} : { version: options.version });
  const d = parseTypeDeclaration(key, got?.value);
  return d && got ? { blobSha: got.blobSha, schema: d.schema } : null;
}
