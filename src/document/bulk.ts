/**
 * Reading many documents at once on any RefStore, through `readManyFrom` (core/read-many.ts): the GitHub API
 * store reads the section's archive or batches of blobs instead of one request per document; other stores
 * read key by key at one version.
 */

import { InvalidConfig, InvalidDocument, InvalidIdentity } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { decodeEnvelope, type Envelope, envelopeMatches } from './envelope.js';
import { deriveKey, type Identity } from './identity.js';

/** Options of `DocumentStore.stream`. */
export interface BulkReadOptions {
  /** Documents per page read (default 1,000). */
  pageSize?: number;
}

/**
 * The envelopes of `identities` at one version, in order, null for a missing one.
 *
 * @example
 * const envs = await getManyDocuments(store, [{ namespace: 'n', doc_type: 't', id: 'a' }], {});
 */
export async function getManyDocuments<T>(
  store: RefStore,
  identities: readonly Identity[],
  options: { version?: VersionId },
): Promise<(Envelope<T> | null)[]> {
  if (!Array.isArray(identities)) {
    throw new InvalidConfig('identities', 'getMany takes an array of identities', { allowed: 'Identity[]' });
  }
  if (options.version !== undefined) assertValidVersion(options.version);
  const keys = identities.map((identity, i) => keyAt(identity, i));
  const byKey = new Map<string, Envelope<T>>();
  for await (const item of readManyFrom(store, keys, options)) {
    if (item.value === null || item.version === null) continue;
    byKey.set(item.key, decodeEnvelope<T>(item.value, item.version));
  }
  return identities.map((identity, i) => {
    const env = byKey.get(keys[i] as string);
    if (env) checkIdentity(env, identity, keys[i] as string);
    return env ?? null;
  });
}

/**
 * Attach each entry's envelope (`document`), read at `version` in bulk.
 *
 * @example
 * await withEnvelopes(store, page.documents, page.version);
 */
export async function withEnvelopes(
  store: RefStore,
  entries: (Identity & { key: string; document?: Envelope })[],
  version: VersionId,
): Promise<void> {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  for await (const item of readManyFrom(
    store,
    entries.map((e) => e.key),
    { version },
  )) {
    const entry = byKey.get(item.key);
    if (!entry || item.value === null) continue;
    const env = decodeEnvelope(item.value, version);
    checkIdentity(env, entry, item.key);
    entry.document = env;
  }
}

/** The key of `identities[i]`, with the index in the error of an invalid one. */
function keyAt(identity: Identity, i: number): string {
  try {
    return deriveKey(identity);
  } catch (e) {
    if (e instanceof InvalidIdentity) {
      const field = `identities[${i}].${String(e.data.field)}`;
      throw new InvalidIdentity(field, `identities[${i}]: ${e.message}`, { ...e.data, field, index: i });
    }
    throw e;
  }
}

function checkIdentity(env: Envelope, identity: Identity, key: string): void {
  if (!envelopeMatches(env, identity)) {
    throw new InvalidDocument(
      'blob',
      `the blob at ${key} holds a different identity (${env.namespace}/${env.type}/${env.id})`,
      { key },
    );
  }
}
