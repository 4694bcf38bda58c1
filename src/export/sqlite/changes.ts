/**
 * Applying what changed between two versions of the section to the tables: the documents added or modified
 * (their new envelopes read in bulk by ../read-changes.ts) and the ones removed.
 */
import type { DocumentChangesResult } from '../../document/document-types.js';
import type { Envelope } from '../../document/envelope.js';
import { envelopeOf } from '../read-changes.js';
import { type RowSink, tableFor, writeRow } from './rows.js';

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
