/**
 * A pull request's review preview (issue 39): the would-be commit of a dry run — the same operations with
 * the same `index:` and `schema:` declarations, as a quarantine is written (quarantine-write.ts) — on
 * `refs/<root>/<section>.previews/pr-<N>`, branched from the tip the review was computed on, so the viewer
 * can show the section diff and a later step can read it. Replaced on every run with a compare-and-set: the
 * old preview ref is deleted only while it points where it was read (the store's `deleteRefs`), then
 * created again on the tip (`storeOn(ref, tip)`); a writer that got there in between makes the create fail
 * instead of being overwritten.
 */
import { PREVIEWS_SUFFIX, previewRefOf } from '../../core/preview-ref.js';
import type { RefStore } from '../../core/refstore.js';
import { type DocumentOp, DocumentStore } from '../../document/document-store.js';
import type { TypeIndex } from '../../document/indexes/declaration.js';
import { withTrailers } from './run-report.js';
import type { TypeSchema } from './schema-files.js';

/** Where previews go: a store on any ref of the section's repository, and the compare-and-delete of refs. */
export interface PreviewHost {
  /**
   * A store on `ref`, starting at `startAt` while that ref does not exist (RemoteApiRefStoreOptions.startAt);
   * `pinned`: the author and date of the commits it creates (RemoteApiRefStoreOptions.author, commitDate).
   */
  storeOn(ref: string, startAt?: string, pinned?: PinnedCommit): RefStore;
  /** Delete each ref only while it points at `oid` (RemoteApiRefStore.deleteRefs). */
  deleteRefs(refs: readonly { ref: string; oid: string }[]): Promise<void>;
  /**
   * The refs under a prefix with their commits (RemoteApiRefStore.listRefs): how the old preview is found
   * when the host has it — a listing leaves no cached tip of the preview ref behind, so the new preview's
   * store (sharing the run's object cache) has nothing to catch up from. Without it: `storeOn(ref).head()`.
   */
  listRefs?(prefix: string): Promise<{ ref: string; oid: string }[]>;
}

export interface PreviewWrite {
  host: PreviewHost;
  sectionRef: string;
  pullRequest: number;
  ops: readonly DocumentOp[];
  /** The tip the review was computed on (null: no section yet). */
  base: string | null;
  message: string;
  /** Git trailers of the run (`Docdb-Run`, `Docdb-Nonce`), before the preview's own. */
  trailers?: readonly string[];
  indexes: readonly TypeIndex[];
  schemas: readonly TypeSchema[];
}

/** The author and date of a commit, fixed so the same change on the same parent makes the same commit. */
export interface PinnedCommit {
  author: { name: string; email: string };
  date: Date;
}

/**
 * Every preview commit's author and date: fixed, so a re-run that computes the same change on the same tip
 * writes the very same commit (same SHA) — the preview version, and so the review comment that names it,
 * stay as they were, and the comment is not edited.
 */
export const PREVIEW_COMMIT: PinnedCommit = {
  author: { name: 'docdb review', email: 'docdb-review@users.noreply.github.com' },
  date: new Date('2000-01-01T00:00:00Z'),
};

/** The trailer naming the section tip a preview was computed on. */
export const PREVIEW_BASE_TRAILER = 'Docdb-Preview-Base';

/**
 * Replace the pull request's preview with the would-be commit; its ref and version, and the preview it
 * replaced. With no operation there is nothing to preview: the old preview is deleted and `version` is null.
 *
 * @example
 * const p = await writePreview({ host, sectionRef: 'refs/docdb/documents', pullRequest: 42, ops, base: tip, message, indexes: [], schemas: [] });
 * p.ref; // 'refs/docdb/documents.previews/pr-42'
 */
export async function writePreview(
  w: PreviewWrite,
): Promise<{ ref: string; version: string | null; replaced: string | null }> {
  const { replaced, ref } = await deletePreview(w.host, w.sectionRef, w.pullRequest);
  if (w.ops.length === 0) return { ref, version: null, replaced };
  const result = await new DocumentStore(w.host.storeOn(ref, w.base ?? undefined, PREVIEW_COMMIT)).commit(w.ops, {
    message: withTrailers(w.message, [...(w.trailers ?? []), `${PREVIEW_BASE_TRAILER}: ${w.base ?? 'none'}`]),
    ...(w.indexes.length > 0 ? { indexes: [...w.indexes] } : {}),
    ...(w.schemas.length > 0 ? { schemas: [...w.schemas] } : {}),
  });
  if (!result.changed || !result.version) {
    // Every operation was a no-op on the tip: the preview would be the tip itself, so none is kept.
    return { ref, version: null, replaced };
  }
  return { ref, version: result.version, replaced };
}

/**
 * Delete the pull request's preview while it points where it was read (`mode: review-cleanup`, and the first
 * step of a replace); `replaced` is the commit it held (null: there was none, nothing sent but the read).
 *
 * @example
 * const { replaced } = await deletePreview(host, 'refs/docdb/documents', 42);
 */
export async function deletePreview(
  host: PreviewHost,
  sectionRef: string,
  pullRequest: number,
): Promise<{ ref: string; replaced: string | null }> {
  const ref = previewRefOf(sectionRef, pullRequest);
  const replaced = host.listRefs
    ? ((await host.listRefs(`${sectionRef}${PREVIEWS_SUFFIX}/`)).find((r) => r.ref === ref)?.oid ?? null)
    : await host.storeOn(ref).head();
  if (replaced) await host.deleteRefs([{ ref, oid: replaced }]);
  return { ref, replaced };
}
