/**
 * Reading what changed between two versions of the section, for the exports that bring an output up to date
 * (SQLite, Parquet): the documents added or modified, their new envelopes read in bulk with `readVersionsFrom` —
 * on the GitHub API one GraphQL query per 100 documents, whatever commits they belong to.
 */
import { pairId, readVersionsFrom } from '../core/read-versions.js';
import type { RefStore, VersionedRead } from '../core/refstore.js';
import { checkIdentity } from '../document/bulk.js';
import type { ChangedDocument, DocumentChangesResult } from '../document/document-types.js';
import { decodeEnvelope, type Envelope } from '../document/envelope.js';

/** The documents to read for a set of changes: each added or modified one at the version it changed in. */
export function readsOf(c: DocumentChangesResult): VersionedRead[] {
  return [...c.added, ...c.modified].map((d) => ({ key: d.key, version: c.to }));
}

/**
 * The envelopes of `reads`, by {@link pairId}, checked to hold the identity their key names.
 *
 * @example
 * const envelopes = await readEnvelopes(docs.store, readsOf(changes));
 */
export async function readEnvelopes(store: RefStore, reads: readonly VersionedRead[]): Promise<Map<string, Envelope>> {
  const out = new Map<string, Envelope>();
  if (reads.length === 0) return out;
  for (const item of await readVersionsFrom(store, reads)) {
    if (item.value === null) continue;
    out.set(pairId(item), decodeEnvelope(item.value, item.version));
  }
  return out;
}

/**
 * The envelope `d` has at `version` among `envelopes`, checked to be the document the change names.
 *
 * @example
 * const env = envelopeOf(envelopes, changes.added[0], changes.to);
 */
export function envelopeOf(envelopes: ReadonlyMap<string, Envelope>, d: ChangedDocument, version: string): Envelope {
  const env = envelopes.get(pairId({ key: d.key, version }));
  if (!env) throw new Error(`${d.key} was listed as changed at ${version} but could not be read there`);
  checkIdentity(env, d, d.key);
  return env;
}
