/**
 * `DocumentStore.list`: documents in ascending key order, filtered by namespace and/or type, a page at a
 * time (list-pages.ts cursors pin later pages to the first page's version).
 */
import { InvalidConfig } from '../core/errors.js';
import type { RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { addCost, withEnvelopes } from './bulk.js';
import type { DocumentListEntry, DocumentListOptions, DocumentListResult } from './document-types.js';
import { assertValidIdentity, parseKey } from './identity.js';
import { assertLimit, decodeCursor, encodeCursor } from './list-pages.js';

/** Fewest documents a page must be able to hold for its listing to say the values follow (see below). */
const VALUES_HINT_MIN = 100;

/**
 * One page of documents (see `DocumentStore.list`).
 *
 * @example
 * const { documents, nextCursor } = await listDocuments(store, { namespace: 'github', limit: 100 });
 */
export async function listDocuments(store: RefStore, options: DocumentListOptions = {}): Promise<DocumentListResult> {
  const { namespace, type, limit, withData } = options;
  if (withData !== undefined && typeof withData !== 'boolean') {
    throw new InvalidConfig('withData', `withData must be a boolean, got ${JSON.stringify(withData)}`, {
      allowed: 'true or false',
    });
  }
  // Validate filters with the identity rules (a placeholder fills the fields not filtered on).
  if (namespace !== undefined || type !== undefined) {
    assertValidIdentity({ namespace: namespace ?? 'x', doc_type: type ?? 'x', id: 'x' });
  }
  assertLimit(limit);
  let version = options.version;
  if (version !== undefined) assertValidVersion(version);
  let after: string | undefined;
  if (options.cursor !== undefined) {
    const c = decodeCursor(options.cursor);
    if (version !== undefined && version !== c.version) {
      throw new InvalidConfig('cursor', `cursor belongs to version ${c.version}, not ${version}`);
    }
    version = c.version;
    after = c.after;
  }
  const prefix = namespace === undefined ? '' : type === undefined ? `${namespace}/` : `${namespace}/${type}/`;
  // With data, the values are read next: a store may read them with the listing (RefStore ListOptions.withValues).
  // Not for a page smaller than one bulk read (100 on GitHub's GraphQL): its values cost one request anyway, and
  // reading them with the listing (the section's archive) would carry the whole section for a few documents.
  const hint = withData && (limit === undefined || limit >= VALUES_HINT_MIN) ? { withValues: true } : {};
  const listed = await store.list(version === undefined ? { prefix, ...hint } : { prefix, version, ...hint });
  const documents: DocumentListEntry[] = [];
  let nextCursor: string | null = null;
  for (const entry of listed.entries) {
    if (after !== undefined && entry.key <= after) continue;
    const identity = parseKey(entry.key);
    if (!identity || (type !== undefined && identity.doc_type !== type)) continue;
    if (limit !== undefined && documents.length === limit) {
      const last = documents[documents.length - 1] as DocumentListEntry;
      nextCursor = encodeCursor(listed.version as VersionId, last.key);
      break;
    }
    documents.push({ ...identity, key: entry.key, blobSha: entry.blobSha });
  }
  let meta = addCost({}, listed);
  // The envelopes' bulk read is part of this page's cost (the listing alone would under-report it).
  if (withData && listed.version !== null) {
    meta = addCost(meta, await withEnvelopes(store, documents, listed.version));
  }
  return { ...meta, documents, version: listed.version, nextCursor };
}
