/**
 * The Action's `mode: changes`: which documents were added, changed or removed in the section since
 * a version a previous step or run stored (`since`), up to the tip (or `version`). Lets a later job act
 * only on what changed, e.g. `since: ${{ steps.prev.outputs.version }}`. Reads only the parts of the
 * tree that differ (see docs/documents.md "Reading what changed").
 */
import type { RefStore } from '../core/refstore.js';
import { type ChangedDocument, DocumentStore } from '../document/document-store.js';
import type { ActionInputs } from './inputs.js';

/** One changed document as the outputs list it. */
function entry(d: ChangedDocument) {
  return {
    namespace: d.namespace,
    doc_type: d.doc_type,
    id: d.id,
    key: d.key,
    ...(d.blobSha ? { blobSha: d.blobSha } : {}),
    ...(d.previousBlobSha ? { previousBlobSha: d.previousBlobSha } : {}),
  };
}

/**
 * Outputs and summary for `mode: changes`.
 *
 * @example
 * const { outputs } = await changesMode(inputs, store, 'refs/docdb/documents');
 * JSON.parse(outputs.added); // [{ namespace, doc_type, id, key, blobSha }]
 */
export async function changesMode(
  inputs: ActionInputs,
  store: RefStore,
  ref: string,
): Promise<{ outputs: Record<string, string>; summary: string }> {
  const docs = new DocumentStore(store);
  const r = await docs.changes({
    from: inputs.since,
    ...(inputs.version ? { to: inputs.version } : {}),
    ...(inputs.namespace ? { namespace: inputs.namespace } : {}),
    ...(inputs.type ? { type: inputs.type } : {}),
  });
  const added = r.added.map(entry);
  const modified = r.changed.map(entry);
  const removed = r.removed.map(entry);
  const any = added.length + modified.length + removed.length > 0;
  const outputs: Record<string, string> = {
    version: r.to,
    'previous-version': r.from,
    changed: String(any),
    added: JSON.stringify(added),
    modified: JSON.stringify(modified),
    removed: JSON.stringify(removed),
    keys: JSON.stringify([...added, ...modified, ...removed].map((d) => d.key)),
    written: String(added.length + modified.length),
    deleted: String(removed.length),
    unchanged: '0',
    document: '',
  };
  const line = (d: { namespace: string; doc_type: string; id: string }) =>
    `\`${`${d.namespace}/${d.doc_type}/${d.id}`.replace(/`/g, "'")}\``;
  const summary =
    `### docdb changes in \`${ref}\` of ${inputs.repository}\n\n` +
    `From \`${r.from}\` to \`${r.to}\`: ${added.length} added, ${modified.length} changed, ${removed.length} removed.\n` +
    [...added.map((d) => `- added ${line(d)}`), ...modified.map((d) => `- changed ${line(d)}`)]
      .concat(removed.map((d) => `- removed ${line(d)}`))
      .slice(0, 100)
      .join('\n') +
    (added.length + modified.length + removed.length > 100 ? '\n- …\n' : '\n');
  return { outputs, summary };
}
