/**
 * Which fields each version of a document changed (issue 40 item 10): every listed version compared with
 * the one before it. The documents come from `client.versionsOf` — with a token ONE GraphQL request per
 * history page (100 versions), read as the page is listed; without one GitHub needs a request per version,
 * so the page asks first (the 60 an hour would be gone in one visit). What a commit holds never changes:
 * a version read once is kept for the page's life and never read again.
 */
import type { DocDbClient, Envelope, Identity } from '../../browser/index.js';
import { formatPath } from '../diff.js';
import { documentChanges } from './field-diff.js';

/** Paths named per version before "and N more" (the field diff lists them all). */
export const CHANGED_CAP = 5;

/** Documents by version, per client ref and document (bounded: the oldest document dropped first). */
const known = new Map<string, Map<string, Envelope | null>>();
const MAX_DOCUMENTS = 50;

function docsOf(client: DocDbClient, identity: Identity): Map<string, Envelope | null> {
  const key = `${client.ref}\n${identity.namespace}\n${identity.doc_type}\n${identity.id}`;
  let docs = known.get(key);
  if (!docs) {
    docs = new Map();
    known.set(key, docs);
    if (known.size > MAX_DOCUMENTS) known.delete(known.keys().next().value as string);
  }
  return docs;
}

/**
 * The versions of `versions` not read yet (what {@link readVersions} would cost: anonymously a request each).
 *
 * @example
 * const cost = unreadVersions(ctx.client, identity, entries.map((e) => e.version)).length;
 */
export function unreadVersions(client: DocDbClient, identity: Identity, versions: readonly string[]): string[] {
  const docs = docsOf(client, identity);
  return versions.filter((v) => !docs.has(v));
}

/**
 * Read the document at every version of `versions` not read yet, in one `versionsOf` call.
 *
 * @example
 * await readVersions(ctx.client, identity, entries.map((e) => e.version));
 */
export async function readVersions(client: DocDbClient, identity: Identity, versions: readonly string[]) {
  const missing = unreadVersions(client, identity, versions);
  if (missing.length === 0) return;
  const got = await client.versionsOf(identity, missing);
  const docs = docsOf(client, identity);
  for (const [i, v] of missing.entries()) docs.set(v, got.documents[i] ?? null);
}

/**
 * What `version` changed against `older` (the version before it; undefined for the document's first
 * version), as a sentence — or undefined while either is not read yet.
 *
 * @example
 * changedFields(client, identity, entry.version, olderEntry?.version); // 'changed data.stars, data.owner.login'
 */
export function changedFields(
  client: DocDbClient,
  identity: Identity,
  version: string,
  older: string | undefined,
): string | undefined {
  const docs = docsOf(client, identity);
  const after = docs.get(version);
  const before = older === undefined ? null : docs.get(older);
  if (after === undefined || before === undefined) return undefined;
  if (after === null) return before === null ? 'absent' : 'removed the document';
  if (before === null) return older === undefined ? 'created the document' : 'added the document again';
  const paths = [...new Set(documentChanges(before, after).map((c) => formatPath(c.path)))];
  if (paths.length === 0) return 'no field changed';
  const shown = paths.slice(0, CHANGED_CAP).join(', ');
  return paths.length > CHANGED_CAP ? `changed ${shown} and ${paths.length - CHANGED_CAP} more` : `changed ${shown}`;
}
