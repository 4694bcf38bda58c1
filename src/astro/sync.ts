/**
 * Bringing a collection's entries to the section's tip, by what the kept state allows: nothing (the tip is the
 * kept commit), the documents changed since the kept commit (`changes()`, then one bulk read of those), or
 * every document of the type (one bulk read), removing the entries no longer there.
 */
import { InvalidVersion } from '../core/errors.js';
import type { VersionId } from '../core/version.js';
import type { DocumentStore } from '../document/document-store.js';
import type { DocdbLoaderContext } from './context.js';
import { entryOf } from './entry.js';

/** The documents the collection holds. */
export interface TypeFilter {
  namespace: string;
  type: string;
}

/** What one sync did: `unchanged`, `updated` (only what changed), `loaded` (every document). */
export interface SyncOutcome {
  mode: 'unchanged' | 'updated' | 'loaded';
  /** Entries written (added or changed; an unchanged one Astro skipped by its digest is not counted). */
  written: number;
  removed: number;
}

/**
 * Bring the entries from `kept` (the commit they hold, if any) to `tip`.
 *
 * @example
 * const outcome = await syncEntries(context, docs, { namespace: 'github', type: 'repo' }, kept?.commit, tip);
 */
export async function syncEntries(
  context: DocdbLoaderContext,
  docs: DocumentStore,
  filter: TypeFilter,
  kept: VersionId | undefined,
  tip: VersionId,
): Promise<SyncOutcome> {
  if (kept === tip) return { mode: 'unchanged', written: 0, removed: 0 };
  if (kept !== undefined) {
    const updated = await applyChangesSince(context, docs, filter, kept, tip);
    if (updated) return updated;
    context.logger.warn(`commit ${kept.slice(0, 7)} is no longer in the section (compacted?): loading every document`);
  }
  return loadAll(context, docs, filter, tip);
}

/** The documents changed `from` → `to`, written and removed; undefined when `from` left the section. */
async function applyChangesSince(
  context: DocdbLoaderContext,
  docs: DocumentStore,
  filter: TypeFilter,
  from: VersionId,
  to: VersionId,
): Promise<SyncOutcome | undefined> {
  let changes: Awaited<ReturnType<DocumentStore['changes']>>;
  try {
    changes = await docs.changes({ ...filter, from, to });
  } catch (e) {
    if (e instanceof InvalidVersion) return undefined; // compacted away or rewritten: reload everything
    throw e;
  }
  const present = [...changes.added, ...changes.modified];
  const { documents } = await docs.readMany(present, { version: to });
  let written = 0;
  for (const [i, d] of present.entries()) {
    const env = documents[i];
    if (!env) throw new Error(`docdb/astro: ${d.key} was listed as changed at ${to} but could not be read there`);
    if (context.store.set(await entryOf(context, env, d.blobSha ?? ''))) written++;
  }
  for (const d of changes.removed) context.store.delete(d.id);
  return { mode: 'updated', written, removed: changes.removed.length };
}

/** Every document of the type at `tip`; entries of documents no longer there are removed. */
async function loadAll(
  context: DocdbLoaderContext,
  docs: DocumentStore,
  filter: TypeFilter,
  tip: VersionId,
): Promise<SyncOutcome> {
  const listed = await docs.list({ ...filter, version: tip, withData: true });
  const present = new Set<string>();
  let written = 0;
  for (const d of listed.documents) {
    if (!d.document) continue;
    present.add(d.id);
    if (context.store.set(await entryOf(context, d.document, d.blobSha))) written++;
  }
  let removed = 0;
  for (const id of context.store.keys()) {
    if (present.has(id)) continue;
    context.store.delete(id);
    removed++;
  }
  return { mode: 'loaded', written, removed };
}
