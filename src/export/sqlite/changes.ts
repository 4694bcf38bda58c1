/**
 * Applying what changed between two versions of the section to the tables: the documents added or modified and
 * the ones removed. A changed document's new envelope is rebuilt, where it can be, from the text its row holds and
 * the patch the compare handed over with it (`changes({ withPatches })`: bytes the compare carries anyway), else
 * read in bulk by ../read-changes.ts — on the GitHub API one GraphQL query per 100 documents, whatever commits
 * they belong to.
 */
import { utf8 } from '../../core/bytes.js';
import { blobSha } from '../../core/git/objects.js';
import { applyPatch } from '../../core/patch-apply.js';
import { pairId } from '../../core/read-versions.js';
import type { RefStore } from '../../core/refstore.js';
import type { ChangedDocument, DocumentChangesResult } from '../../document/document-types.js';
import { decodeEnvelope, type Envelope, envelopeText } from '../../document/envelope.js';
import { envelopeOf, readEnvelopes, readsOf } from '../read-changes.js';
import { type RowSink, tableFor, writeRow } from './rows.js';
import type { TypeTables } from './tables.js';

/**
 * The new envelopes of a set of changes, by {@link pairId}: rebuilt from the patches where they can be
 * ({@link rebuildFromPatches}, called when the tables hold the version before `c.to`), the rest read.
 *
 * @example
 * const envelopes = await changedEnvelopes(docs.store, sink.tables, await docs.changes({ from, withPatches: true }));
 */
export async function changedEnvelopes(
  store: RefStore,
  tables: TypeTables,
  c: DocumentChangesResult,
): Promise<Map<string, Envelope>> {
  const out = rebuildFromPatches(tables, c);
  const rest = readsOf(c).filter((r) => !out.has(pairId(r)));
  for (const [id, env] of await readEnvelopes(store, rest)) out.set(id, env);
  return out;
}

/**
 * The envelopes at `c.to` that the compare's patches rebuild, by {@link pairId}: an added document's from the
 * empty text, a modified one's from its row in `tables` (which must hold the version at `c.from`) written as
 * docdb stores it (canonical JSON). A patch is untrusted: a rebuilt text is used only when its git blob SHA is
 * the document's new blob SHA. A document without a patch, without a row, whose stored text was not canonical,
 * or whose patch does not apply or gives other bytes is left out (the caller reads it), as are the keys `skip`
 * names (already read).
 *
 * @example
 * const rebuilt = rebuildFromPatches(sink.tables, changes); // then read readsOf(changes) minus these
 */
export function rebuildFromPatches(
  tables: TypeTables,
  c: DocumentChangesResult,
  skip: (key: string) => boolean = () => false,
): Map<string, Envelope> {
  const out = new Map<string, Envelope>();
  const keep = (d: ChangedDocument, before: () => string | undefined) => {
    if (d.patch === undefined || skip(d.key)) return;
    const text = before();
    const env = text === undefined ? undefined : rebuilt(d, text, c.to);
    if (env) out.set(pairId({ key: d.key, version: c.to }), env);
  };
  for (const d of c.added) keep(d, () => '');
  for (const d of c.modified) keep(d, () => storedText(tables, d));
  return out;
}

/**
 * Whether the row of modified document `d` gives, written as docdb writes documents, the text at `c.from` — the text
 * its patch applies to (false for a document another tool wrote in another JSON layout, or without a row).
 *
 * @example
 * if (!rowIsPrevious(tables, d)) readWithTheOthers.add(d.key);
 */
export function rowIsPrevious(tables: TypeTables, d: ChangedDocument): boolean {
  const text = storedText(tables, d);
  return text !== undefined && d.previousBlobSha !== undefined && blobSha(utf8(text)) === d.previousBlobSha;
}

/** The text of `d` as its row holds it, written as docdb stores documents; undefined without a row. */
function storedText(tables: TypeTables, d: ChangedDocument): string | undefined {
  const t = tables.get(d.namespace, d.doc_type);
  const data = t ? tables.dataOf(t, d.id) : undefined;
  if (data === undefined) return undefined;
  try {
    return envelopeText({ namespace: d.namespace, type: d.doc_type, id: d.id, data: JSON.parse(data) });
  } catch {
    return undefined; // not JSON any more, or not encodable: read the document instead
  }
}

/** `before` with `d.patch` applied, decoded — only when the bytes hash to `d.blobSha`. */
function rebuilt(d: ChangedDocument, before: string, version: string): Envelope | undefined {
  const text = applyPatch(before, d.patch as string);
  if (text === undefined) return undefined;
  const bytes = utf8(text);
  return d.blobSha !== undefined && blobSha(bytes) === d.blobSha ? decodeEnvelope(bytes, version) : undefined;
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
