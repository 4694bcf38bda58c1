/**
 * What changed between versions of a section, as documents: `DocumentStore.changes` (two versions) and
 * `DocumentStore.watch` (every move of the tip). Keys that are not documents (`_docdb/…`) are left out.
 */

import { InvalidConfig } from '../core/errors.js';
import type { ChangedKey, ChangesResult, OperationMeta, RefStore } from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import { type WatchOptions, watch } from '../core/watch.js';
import type { ChangedDocument, DocumentChangesOptions, DocumentChangesResult } from './document-types.js';
import { assertValidIdentity, parseKey } from './identity.js';
import { rebuiltVersions } from './patch-documents.js';

/** The options `DocumentStore.watch` takes: the core watch's, with a namespace/type instead of a prefix. */
export type DocumentWatchOptions = Omit<WatchOptions, 'prefix'> & { namespace?: string; type?: string };

/** What `DocumentStore.watch` hands its callback on each move. */
export type DocumentWatchChange = Omit<DocumentChangesResult, 'from'> & { from: VersionId | null };

/**
 * The documents added, modified and removed between `from` and `to` (the tip by default).
 *
 * @example
 * const { added, modified, removed } = await documentChanges(store, { from: lastSeen, namespace: 'github' });
 */
export async function documentChanges(
  store: RefStore,
  options: DocumentChangesOptions,
): Promise<DocumentChangesResult> {
  const { namespace, type } = options ?? ({} as DocumentChangesOptions);
  const prefix = typePrefix('changes', namespace, type);
  const r: ChangesResult = await store.changes({
    from: options.from,
    ...(options.to !== undefined ? { to: options.to } : {}),
    prefix,
    ...(options.withPatches === true || options.withDocuments === true ? { withPatches: true } : {}),
  });
  const modified = documentsOf(r.modified, type);
  if (options.withDocuments === true) await withRebuiltVersions(modified, r.from, r.to);
  const meta: OperationMeta = {};
  if (r.rateLimit) meta.rateLimit = r.rateLimit;
  if (r.requests !== undefined) meta.requests = r.requests;
  return {
    ...meta,
    from: r.from,
    to: r.to,
    added: documentsOf(r.added, type),
    // `modified` and its deprecated alias `changed`: one list (ChangesResult.modified).
    ...modifiedAndChanged(modified),
    removed: documentsOf(r.removed, type),
  };
}

/**
 * Follow the section and call `onChange` once per move that touched a document. Resolves when the signal aborts.
 *
 * @example
 * await watchDocuments(store, { namespace: 'github', signal }, (c) => render(c.modified));
 */
export function watchDocuments(
  store: RefStore,
  options: DocumentWatchOptions,
  onChange: (change: DocumentWatchChange) => void | Promise<void>,
): Promise<void> {
  const { namespace, type, ...rest } = options ?? {};
  const prefix = typePrefix('watch', namespace, type);
  return watch(store, { ...rest, prefix }, (c) => {
    const added = documentsOf(c.added, type);
    const changed = documentsOf(c.changed, type);
    const removed = documentsOf(c.removed, type);
    // A move that touched only non-document keys (e.g. `_docdb/` state) is not reported.
    if (added.length + changed.length + removed.length === 0) return;
    return onChange({ from: c.from, to: c.to, added, ...modifiedAndChanged(changed), removed });
  });
}

/** The key prefix of a namespace (and type), checked as identity parts; `''` for the whole section. */
function typePrefix(operation: string, namespace: string | undefined, type: string | undefined): string {
  if (type !== undefined && namespace === undefined) {
    throw new InvalidConfig('type', `${operation}: type needs namespace too`, { allowed: '{ namespace, type }' });
  }
  if (namespace !== undefined) assertValidIdentity({ namespace, doc_type: type ?? 'x', id: 'x' });
  return namespace === undefined ? '' : type === undefined ? `${namespace}/` : `${namespace}/${type}/`;
}

/** Keep the keys that are documents, with their identity (other keys, `_docdb/…`, are skipped). */
function documentsOf(keys: readonly ChangedKey[], type?: string): ChangedDocument[] {
  const out: ChangedDocument[] = [];
  for (const k of keys) {
    const identity = parseKey(k.key);
    if (identity && (type === undefined || identity.doc_type === type)) out.push({ ...identity, ...k });
  }
  return out;
}

/** Each modified document whose patch proves both its versions gets them as `before` and `after` (no request). */
async function withRebuiltVersions(modified: ChangedDocument[], from: VersionId, to: VersionId): Promise<void> {
  const rebuilt = await Promise.all(modified.map((d) => rebuiltVersions(d, from, to)));
  rebuilt.forEach((pair, i) => {
    if (pair) Object.assign(modified[i] as ChangedDocument, pair);
  });
}

/** The list under both names, `modified` and its deprecated alias `changed` (ChangesResult.modified). */
function modifiedAndChanged(list: ChangedDocument[]): { modified: ChangedDocument[]; changed: ChangedDocument[] } {
  return { modified: list, changed: list };
}
