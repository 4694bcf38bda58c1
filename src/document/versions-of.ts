/**
 * One document at many versions (a chart of a field over time, a version picker's previews): through
 * `readVersionsFrom` (core/read-versions.ts), so the GitHub API store reads a document's last 100 versions in
 * one GraphQL query with a token, and any other store reads one pinned `get` each.
 */
import { InvalidConfig } from '../core/errors.js';
import { readVersionsFrom } from '../core/read-versions.js';
import type { OperationMeta, RefStore } from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import { checkIdentity, costOf } from './bulk.js';
import { decodeEnvelope, type Envelope } from './envelope.js';
import { deriveKey, type Identity } from './identity.js';

/** Result of `DocumentStore.versionsOf`: one entry per version asked, in order, and what the read cost. */
export interface DocumentVersionsResult<T = unknown> extends OperationMeta {
  /** The envelope at `versions[i]`, or null where the document is absent at that version. */
  documents: (Envelope<T> | null)[];
}

/**
 * The envelope of `identity` at each of `versions` (commits of the section; `InvalidVersion` otherwise).
 *
 * @example
 * const { entries } = await docs.history(identity, { limit: 100 });
 * const { documents } = await documentVersions(store, identity, entries.map((e) => e.version));
 */
export async function documentVersions<T = unknown>(
  store: RefStore,
  identity: Identity,
  versions: readonly VersionId[],
): Promise<DocumentVersionsResult<T>> {
  if (!Array.isArray(versions)) {
    throw new InvalidConfig('versions', 'versionsOf takes an array of versions (commit SHAs)', {
      allowed: 'string[]',
    });
  }
  const key = deriveKey(identity);
  let meta: OperationMeta = {};
  const items = await readVersionsFrom(
    store,
    versions.map((version) => ({ key, version })),
    {
      onMeta: (m) => {
        meta = m;
      },
    },
  );
  const documents = items.map((item) => {
    if (item.value === null) return null;
    const env = decodeEnvelope<T>(item.value, item.version);
    checkIdentity(env, identity, key);
    return env;
  });
  return { ...costOf(meta), documents };
}
