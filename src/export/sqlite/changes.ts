/**
 * Applying what changed between two versions of the section to the tables: the documents added or modified
 * (their new envelopes read in bulk with `readVersionsFrom` — on the GitHub API one GraphQL query per 100
 * documents, whatever commits they belong to) and the ones removed.
 */
import { pairId, readVersionsFrom } from '../../core/read-versions.js';
import type { RefStore, VersionedRead } from '../../core/refstore.js';
import { checkIdentity } from '../../document/bulk.js';
import type { ChangedDocument, DocumentChangesResult } from '../../document/document-types.js';
import { decodeEnvelope, type Envelope } from '../../document/envelope.js';
import { type RowSink, tableFor, writeRow } from './rows.js';

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
 * Write one set of changes into the tables (a new type's columns come from its changed documents); returns the
 * rows written and removed.
 *
 * @example
 * await applyChanges(sink, changes, await readEnvelopes(docs.store, readsOf(changes)));
 */
export async function applyChanges(
  sink: RowSink,
  c: DocumentChangesResult,
  envelopes: ReadonlyMap<string, Envelope>,
): Promise<{ written: number; removed: number }> {
  const present = [...c.added, ...c.modified].map((d) => ({ d, env: envelopeOf(envelopes, d, c.to) }));
  for (const { d, env } of present) {
    const sameType = () => present.filter((p) => p.d.namespace === d.namespace && p.d.doc_type === d.doc_type);
    const t = await tableFor(sink, d.namespace, d.doc_type, () => sameType().map((p) => p.env.data));
    writeRow(sink, t, d.id, env, c.to);
  }
  let removed = 0;
  for (const d of c.removed) {
    const t = sink.tables.get(d.namespace, d.doc_type);
    if (!t) continue; // a type the file never held (it had no document when its table would have been made)
    writeRow(sink, t, d.id, null, c.to);
    removed++;
  }
  return { written: present.length, removed };
}

function envelopeOf(envelopes: ReadonlyMap<string, Envelope>, d: ChangedDocument, version: string): Envelope {
  const env = envelopes.get(pairId({ key: d.key, version }));
  if (!env) throw new Error(`${d.key} was listed as changed at ${version} but could not be read there`);
  checkIdentity(env, d, d.key);
  return env;
}
