/**
 * Reading many documents at once on any RefStore, through `readManyFrom` (core/read-many.ts): the GitHub API
 * store reads the section's archive or batches of blobs instead of one request per document; other stores
 * read key by key at one version.
 */

import { InvalidConfig, InvalidDocument, InvalidIdentity } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { OperationMeta, RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import type {
  DocumentListEntry,
  DocumentListOptions,
  DocumentListResult,
  ReadDocumentResult,
  ReadManyDocumentsResult,
} from './document-types.js';
import { decodeEnvelope, type Envelope, envelopeMatches } from './envelope.js';
import { deriveKey, type Identity } from './identity.js';

/** Options of `DocumentStore.stream`. */
export interface BulkReadOptions {
  /** Documents per page read (default 1,000). */
  pageSize?: number;
  /** Called after each page with the running cost: `requests` so far (listings and bulk reads), the latest `rateLimit`. */
  onMeta?: (meta: OperationMeta) => void;
}

/**
 * The envelopes of `identities` at one version, in order, null for a missing one, with what the read cost.
 *
 * @example
 * const { documents, requests } = await readManyDocuments(store, [{ namespace: 'n', doc_type: 't', id: 'a' }], {});
 */
export async function readManyDocuments<T>(
  store: RefStore,
  identities: readonly Identity[],
  options: { version?: VersionId },
): Promise<ReadManyDocumentsResult<T>> {
  if (!Array.isArray(identities)) {
    throw new InvalidConfig('identities', 'getMany takes an array of identities', { allowed: 'Identity[]' });
  }
  if (options.version !== undefined) assertValidVersion(options.version);
  const keys = identities.map((identity, i) => keyAt(identity, i));
  const byKey = new Map<string, Envelope<T>>();
  let meta: OperationMeta = {};
  let version: VersionId | null = null;
  const onMeta = (m: OperationMeta) => {
    meta = m;
  };
  for await (const item of readManyFrom(store, keys, { ...options, onMeta })) {
    version = item.version;
    if (item.value === null || item.version === null) continue;
    byKey.set(item.key, decodeEnvelope<T>(item.value, item.version));
  }
  const documents = identities.map((identity, i) => {
    const env = byKey.get(keys[i] as string);
    if (env) checkIdentity(env, identity, keys[i] as string);
    return env ?? null;
  });
  return { ...costOf(meta), documents, version };
}

/**
 * Attach each entry's envelope (`document`), read at `version` in bulk; returns what the read cost.
 *
 * @example
 * const cost = await withEnvelopes(store, page.documents, page.version); // { requests, rateLimit }
 */
export async function withEnvelopes(
  store: RefStore,
  entries: (Identity & { key: string; document?: Envelope })[],
  version: VersionId,
): Promise<OperationMeta> {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  let meta: OperationMeta = {};
  const onMeta = (m: OperationMeta) => {
    meta = m;
  };
  for await (const item of readManyFrom(
    store,
    entries.map((e) => e.key),
    { version, onMeta },
  )) {
    const entry = byKey.get(item.key);
    if (!entry || item.value === null) continue;
    const env = decodeEnvelope(item.value, version);
    checkIdentity(env, entry, item.key);
    entry.document = env;
  }
  return costOf(meta);
}

/**
 * Two costs as one: requests added, the later rate limit kept (fields a backend did not report stay absent).
 *
 * @example
 * addCost({ requests: 3 }, { requests: 2, rateLimit }); // { requests: 5, rateLimit }
 */
export function addCost(a: OperationMeta, b: OperationMeta): OperationMeta {
  const out: OperationMeta = {};
  if (a.requests !== undefined || b.requests !== undefined) out.requests = (a.requests ?? 0) + (b.requests ?? 0);
  const rateLimit = b.rateLimit ?? a.rateLimit;
  if (rateLimit) out.rateLimit = rateLimit;
  return out;
}

/** Only the cost fields a backend reported (no `undefined` members in results). */
export function costOf(meta: OperationMeta): OperationMeta {
  return addCost({}, meta);
}

/** The key of `identities[i]`, with the index in the error of an invalid one. */
function keyAt(identity: Identity, i: number): string {
  try {
    return deriveKey(identity);
  } catch (e) {
    if (e instanceof InvalidIdentity) {
      const field = `identities[${i}].${String(e.data.field)}`;
      throw new InvalidIdentity(field, `identities[${i}]: ${e.message}`, { ...e.data, field, index: i });
    }
    throw e;
  }
}

/** `InvalidDocument` when the blob at `key` holds another identity than the one asked for. */
export function checkIdentity(env: Envelope, identity: Identity, key: string): void {
  if (!envelopeMatches(env, identity)) {
    throw new InvalidDocument(
      'blob',
      `the blob at ${key} holds a different identity (${env.namespace}/${env.type}/${env.id})`,
      { key },
    );
  }
}

/**
 * One document at the tip (or at `version`) with what the read cost (`DocumentStore.read`); a blob holding
 * another identity than its key names is `InvalidDocument`.
 *
 * @example
 * const { document, etag } = await readDocument(store, { namespace: 'n', doc_type: 't', id: 'a' });
 */
export async function readDocument<T>(
  store: RefStore,
  identity: Identity,
  options: { version?: VersionId },
): Promise<ReadDocumentResult<T>> {
  const key = deriveKey(identity);
  if (options.version !== undefined) assertValidVersion(options.version);
  const got = await store.get(key, options);
  if (!got) return { document: null, version: null, etag: null };
  const envelope = decodeEnvelope<T>(got.value, got.version);
  if (!envelopeMatches(envelope, identity)) {
    throw new InvalidDocument(
      'blob',
      `the blob at ${key} holds a different identity (${envelope.namespace}/${envelope.type}/${envelope.id})`,
      { key },
    );
  }
  return { ...costOf(got), document: envelope, version: got.version, etag: got.blobSha };
}

/**
 * Every document `list` gives, a page at a time, all pages at the version of the first (`DocumentStore.stream`);
 * `onMeta` gets the running cost after each page.
 *
 * @example
 * for await (const d of streamDocuments((o) => docs.list(o), { namespace: 'github' })) console.log(d.id);
 */
export async function* streamDocuments(
  list: (options: DocumentListOptions) => Promise<DocumentListResult>,
  options: Omit<DocumentListOptions, 'limit' | 'cursor'> & BulkReadOptions,
): AsyncGenerator<DocumentListEntry> {
  const { pageSize = 1000, onMeta, ...rest } = options;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new InvalidConfig('pageSize', `pageSize must be a positive integer, got ${JSON.stringify(pageSize)}`);
  }
  let cursor: string | undefined;
  let cost: OperationMeta = {};
  do {
    const page = await list({ ...rest, limit: pageSize, ...(cursor ? { cursor } : {}) });
    cost = addCost(cost, page);
    onMeta?.(cost);
    yield* page.documents;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
