/**
 * `loadDocDbClient`: the browser client of the spec (§1.3 "Browser layering"). The same core as in Node;
 * only what the host provides differs (`hostCapabilities`): the HTTP function, the token provider and
 * the IndexedDB store. Works in a page, a Web Worker and an extension service worker (no DOM needed).
 */
import { InvalidConfig } from '../core/errors.js';
import { isPullRequestNumber, previewRefOf } from '../core/preview-ref.js';
import { assertQuarantineId, quarantineRefOf } from '../core/quarantine-ref.js';
import { assertNotReservedRef } from '../core/refname.js';
import type {
  HistoryResult,
  KeyHistoryOptions,
  RateLimit,
  RefStore,
  WriteOptions,
  WriteResult,
} from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import {
  type ChangedDocument,
  type DocumentChangesOptions,
  type DocumentChangesResult,
  type DocumentCommitOptions,
  type DocumentGetOptions,
  type DocumentListOptions,
  type DocumentListResult,
  type DocumentOp,
  type DocumentQuery,
  type DocumentQueryResult,
  type DocumentSearchQuery,
  DocumentStore,
  type DocumentWriteOptions,
  type PutDocumentResult,
  type ReadDocumentResult,
} from '../document/document-store.js';
import type { DocumentInput, Envelope } from '../document/envelope.js';
import type { Identity } from '../document/identity.js';
import { changedVersions, type VersionPair } from '../document/patch-documents.js';
import type { TypeSeriesQuery, TypeSeriesResult } from '../document/type-series.js';
import type { DocumentVersionsResult } from '../document/versions-of.js';
import { IndexedDbCacheBackend } from '../stores/indexeddb/cache-backend.js';
import { openDocDbDatabase } from '../stores/indexeddb/database.js';
import { IndexedDbRefStore } from '../stores/indexeddb/indexeddb-refstore.js';
import { MemoryRefStore } from '../stores/memory/memory-refstore.js';
import type { RemoteApiRefStoreOptions } from '../stores/remote-api/config.js';
import { RemoteApiRefStore } from '../stores/remote-api/remote-api-refstore.js';
import { parseRateLimit } from '../stores/remote-api/status.js';
import { fetchTransport } from '../transport/fetch.js';
import { type HostHttpFunction, hostTransport } from '../transport/host.js';
import type { HttpTransport } from '../transport/types.js';
import { typeSeries } from './functions.js';

/** The IndexedDB database the host offers: the host store and the remote cache live in it. */
export interface HostStoreOptions {
  /** Database name (default `docdb`); one name = one local repository. */
  name?: string;
  /** IDBFactory (default `globalThis.indexedDB`, read when the client loads). */
  indexedDB?: IDBFactory;
  /** Remote backend: persist the object and ref-tip cache here (default true). */
  cache?: boolean;
  /** Bound of the persistent cache in bytes (default 64 MiB). */
  cacheMaxBytes?: number;
}

/** What the host gives the client. Everything is optional and read lazily. */
export interface HostCapabilities {
  transport?: {
    /**
     * The host's HTTP function (`hostTransport`): performs the request and returns status, headers and
     * body bytes. It must revalidate (fetch with `cache: 'no-store'`): api.github.com sends
     * `Cache-Control: private, max-age=60`, so a cached ref read could be a minute stale.
     */
    http?: HostHttpFunction;
    /** A fetch implementation instead (default: the global `fetch`, always called with `cache: 'no-store'`). */
    fetch?: typeof globalThis.fetch;
  };
  /**
   * Token provider, asked once per operation (from page or extension storage). docdb never stores the
   * token. Return null/undefined for unauthenticated reads of public repositories.
   */
  credentials?: () => Promise<string | null | undefined> | string | null | undefined;
  /** IndexedDB: `true` for the defaults, or options. Omit for an in-memory cache only. */
  store?: true | HostStoreOptions;
}

export type DocDbBackend = 'remote' | 'indexeddb' | 'memory';

export interface LoadDocDbClientOptions {
  hostCapabilities?: HostCapabilities;
  /** `remote` (GitHub, default), `indexeddb` (the host store, local only) or `memory` (volatile). */
  backend?: DocDbBackend;
  /** Repository owner (remote backend). */
  owner?: string;
  /** Repository name (remote backend). */
  repo?: string;
  /** API base URL (default https://api.github.com; an emulator on loopback in tests). */
  apiUrl?: string;
  /** Section ref (default `refs/docdb/documents`); a ref in a section's reserved space (`.shards/`, `.quarantine/`, `.previews/`) is refused. */
  ref?: string;
  /**
   * Open a quarantined run of the section instead of the section itself: `<ref>.quarantine/<id>`, a run its
   * expectations refused (docs/quarantine.md). Only ever read when asked by name like this; its history is
   * the section's up to the tip it was computed on, so `changes({ from: tip, to: client.head() })` shows
   * what the refused run would have changed. Remote backend only.
   */
  quarantine?: string;
  /**
   * Open a pull request's review preview instead of the section: `<ref>.previews/pr-<N>`, the would-be commit
   * `mode: review` wrote on the section's tip (docs/action.md "Review data changes"). Like `quarantine`: only
   * when asked by name, remote backend only; not both.
   */
  preview?: number;
  /** Further RemoteApiRefStore options (retries, author, userAgent, logger…). */
  remote?: Omit<RemoteApiRefStoreOptions, 'transport' | 'owner' | 'repo' | 'apiUrl' | 'ref' | 'token' | 'credentials'>;
}

/** Totals since the client loaded. */
export interface DocDbClientStats {
  /** Upstream requests made (remote backend; 0 otherwise). */
  requests: number;
  /** Rate limit from the latest upstream response. */
  rateLimit?: RateLimit;
}

/** The DocumentStore API with the cost of every call (`version`, `requests`, `rateLimit`). */
export interface DocDbClient {
  readonly backend: DocDbBackend;
  readonly ref: string;
  /** The RefStore underneath (RemoteApiRefStore, IndexedDbRefStore or MemoryRefStore). */
  readonly refStore: RefStore;
  readonly documents: DocumentStore;
  get<T = unknown>(identity: Identity, options?: DocumentGetOptions): Promise<ReadDocumentResult<T>>;
  /** With `ifMatch` (the `etag` from `read`, or null: create only) the write is a compare-and-set. */
  put<T>(document: DocumentInput<T>, options?: DocumentWriteOptions): Promise<PutDocumentResult<T>>;
  putMany(documents: readonly DocumentInput[], options?: WriteOptions): Promise<WriteResult>;
  /** `ifMatch` maps canonical keys to etags (or null: must not exist). */
  commit(ops: readonly DocumentOp[], options?: DocumentCommitOptions): Promise<WriteResult>;
  delete(identity: Identity, options?: DocumentWriteOptions): Promise<WriteResult>;
  /** `withData: true` carries each document's envelope, read in a few bulk requests (GraphQL batches with a token). */
  list(options?: DocumentListOptions): Promise<DocumentListResult>;
  /** Documents by identity at one version, in order, null for a missing one (bulk: a few requests, not one each). */
  getMany<T = unknown>(identities: readonly Identity[], options?: DocumentGetOptions): Promise<(Envelope<T> | null)[]>;
  /** Every document (filtered like `list`) in key order, a page at a time; `withData: true` adds envelopes. */
  stream: DocumentStore['stream'];
  /** Versions of one document, newest first; `limit` + `cursor` (the `nextCursor` of the page before) page through all. */
  history(identity: Identity, options?: KeyHistoryOptions): Promise<HistoryResult>;
  /**
   * The document at each of `versions`, in order (null where absent): with a token, one GraphQL query per
   * 100 versions; without one, a request each. See docs/documents.md "One document across its versions".
   */
  versionsOf<T = unknown>(identity: Identity, versions: readonly VersionId[]): Promise<DocumentVersionsResult<T>>;
  /** A type's count, or sum/mean of an indexed field, at each of `versions`, from its index (docs/indexes.md). */
  typeSeries(query: TypeSeriesQuery, versions: readonly VersionId[]): Promise<TypeSeriesResult>;
  head(): Promise<VersionId | null>;
  /** Documents added, changed and removed between two versions (see docs/documents.md "Reading what changed"). */
  changes(options: DocumentChangesOptions): Promise<DocumentChangesResult>;
  /**
   * Both versions of modified documents (of `changes({ withDocuments: true })`) at the fewest reads: none for
   * those rebuilt from their patch, the `from` version for the rest with a patch, both otherwise (docs/documents.md).
   */
  changedVersions(docs: readonly ChangedDocument[], from: VersionId, to: VersionId): Promise<VersionPair[]>;
  /**
   * The documents of one namespace/type matching `where`, from the section's index when one covers the
   * fields (a few requests at any size; see docs/indexes.md "Querying"); `answeredBy` says which.
   */
  query<T = unknown>(query: DocumentQuery): Promise<DocumentQueryResult<T>>;
  /**
   * Each indexed field's values with their counts over the whole type, from the counts the index keeps:
   * one request per field without a token, one in all with one (docs/indexes.md "Value counts").
   */
  facets: DocumentStore['facets'];
  /** The section's index declaration (`{ version: 1, indexes: [] }` when none). */
  indexes: DocumentStore['indexes'];
  /**
   * The documents of a namespace (or one `type`) whose searchable fields hold the words, best first (BM25),
   * from the section's search index: only the shards of the words are read, and the search code itself is
   * downloaded on the first call (docs/search.md). `{ hits: [{ namespace, type, id, score, fields, document }],
   * total, nextCursor, version, requests, rateLimit }`.
   */
  search: DocumentStore['search'];
  /** Declare (or, with `fields: []`, drop) the searchable fields of types, their search index built in one commit. */
  declareSearch: DocumentStore['declareSearch'];
  /** Build declared types' search index again from their documents in one commit (a damaged file: docs/search.md). */
  rebuildSearch: DocumentStore['rebuildSearch'];
  /** The section's search declaration (`{ version: 1, search: [] }` when none). */
  searchDeclaration: DocumentStore['searchDeclaration'];
  /** A type's JSON Schema (null when none); every write of the client checks documents against it (docs/schemas.md). */
  schema: DocumentStore['schema'];
  /** Declare (or, with null, drop) a type's JSON Schema in one commit (docs/schemas.md). */
  declareSchema: DocumentStore['declareSchema'];
  /**
   * Follow the section (If-None-Match polls: 304s cost no rate limit; paused while the tab is hidden).
   * Resolves when `options.signal` aborts. See docs/documents.md "Live pages".
   */
  watch: DocumentStore['watch'];
  stats(): DocDbClientStats;
  /** Close the IndexedDB connection (the client is unusable afterwards). */
  close(): void;
}

/** Counts requests and remembers the latest rate limit, whatever the transport. */
function countingTransport(inner: HttpTransport, stats: DocDbClientStats): HttpTransport {
  return {
    async request(req) {
      stats.requests++;
      const res = await inner.request(req);
      stats.rateLimit = parseRateLimit(res.headers) ?? stats.rateLimit;
      return res;
    },
  };
}

function hostHttpTransport(caps: HostCapabilities): HttpTransport {
  const t = caps.transport ?? {};
  if (t.http !== undefined && t.fetch !== undefined) {
    throw new InvalidConfig('hostCapabilities.transport', 'give transport.http or transport.fetch, not both', {
      allowed: '{ http } | { fetch }',
    });
  }
  if (t.http !== undefined) {
    if (typeof t.http !== 'function') {
      throw new InvalidConfig('hostCapabilities.transport.http', 'transport.http must be a function', {
        allowed: '(request) => Promise<{ status, headers, body }>',
      });
    }
    return hostTransport(t.http);
  }
  if (t.fetch !== undefined && typeof t.fetch !== 'function') {
    throw new InvalidConfig('hostCapabilities.transport.fetch', 'transport.fetch must be a fetch function', {
      allowed: 'fetch',
    });
  }
  return fetchTransport(t.fetch ? { fetch: t.fetch } : {});
}

/**
 * The ref a client reads: `options.ref`, or the ref beside it that `quarantine` or `preview` names (each in a
 * reserved space of the section, opened only when asked by name like this).
 */
function sideRef(options: LoadDocDbClientOptions, backend: DocDbBackend): string | undefined {
  const { quarantine, preview } = options;
  if (quarantine === undefined && preview === undefined) return options.ref;
  const field = quarantine !== undefined ? 'quarantine' : 'preview';
  if (quarantine !== undefined && preview !== undefined) {
    throw new InvalidConfig('preview', 'give quarantine or preview, not both: each opens one ref beside the section', {
      allowed: 'one of quarantine, preview',
    });
  }
  if (backend !== 'remote') {
    throw new InvalidConfig(field, `${field} opens a ref beside the section on GitHub: the remote backend only`, {
      allowed: 'backend "remote"',
    });
  }
  const section = options.ref ?? DEFAULT_SECTION_REF;
  if (quarantine === undefined) {
    if (!isPullRequestNumber(preview)) {
      throw new InvalidConfig('preview', `preview must be a pull request number, got ${JSON.stringify(preview)}`, {
        allowed: 'a whole number from 1',
      });
    }
    return previewRefOf(section, preview);
  }
  assertQuarantineId(quarantine, 'quarantine');
  return quarantineRefOf(section, quarantine);
}

/** The section a client reads when `ref` is not given. */
const DEFAULT_SECTION_REF = 'refs/docdb/documents';

/**
 * Load a docdb client in a browser (page, worker, extension service worker).
 *
 * @example
 * const client = await loadDocDbClient({
 *   owner: 'octo', repo: 'data',
 *   hostCapabilities: {
 *     credentials: async () => (await chrome.storage.local.get('token')).token,
 *     store: { name: 'my-app' }, // persistent cache in IndexedDB
 *   },
 * });
 * const { document, version, requests, rateLimit } = await client.get({ namespace: 'github', doc_type: 'repo', id: 'octo/data' });
 */
export async function loadDocDbClient(options: LoadDocDbClientOptions = {}): Promise<DocDbClient> {
  if (!options || typeof options !== 'object') {
    throw new InvalidConfig('options', 'loadDocDbClient needs an options object', { allowed: 'object' });
  }
  const caps = options.hostCapabilities ?? {};
  const backend = options.backend ?? 'remote';
  if (backend !== 'remote' && backend !== 'indexeddb' && backend !== 'memory') {
    throw new InvalidConfig(
      'backend',
      `backend must be "remote", "indexeddb" or "memory", got ${JSON.stringify(backend)}`,
      {
        allowed: '"remote" | "indexeddb" | "memory"',
      },
    );
  }
  // A ref the caller gives (a page may take it from its URL) is a section, never a reserved space's ref.
  if (options.ref !== undefined) assertNotReservedRef(options.ref, 'ref');
  const ref = sideRef(options, backend);
  if (caps.credentials !== undefined && typeof caps.credentials !== 'function') {
    throw new InvalidConfig('hostCapabilities.credentials', 'credentials must be a function returning a token', {
      allowed: 'async () => token | null',
    });
  }
  const storeOpts: HostStoreOptions | undefined = caps.store === true ? {} : caps.store;
  if (storeOpts !== undefined && (typeof storeOpts !== 'object' || storeOpts === null)) {
    throw new InvalidConfig('hostCapabilities.store', 'store must be true or an options object', {
      allowed: 'true | { name, indexedDB, cache, cacheMaxBytes }',
    });
  }
  if (backend === 'indexeddb' && !storeOpts) {
    throw new InvalidConfig('hostCapabilities.store', 'backend "indexeddb" needs hostCapabilities.store', {
      allowed: 'true | { name, indexedDB }',
    });
  }
  const stats: DocDbClientStats = { requests: 0 };
  // Opened now, so a missing IndexedDB fails at load time, not at the first read.
  const db = storeOpts ? await openDocDbDatabase({ name: storeOpts.name, indexedDB: storeOpts.indexedDB }) : undefined;
  let refStore: RefStore;
  if (backend === 'memory') {
    refStore = new MemoryRefStore(options.ref ? { ref: options.ref } : {});
  } else if (backend === 'indexeddb') {
    refStore = new IndexedDbRefStore({ database: db as IDBDatabase, ...(options.ref ? { ref: options.ref } : {}) });
  } else {
    const cache =
      db && storeOpts?.cache !== false
        ? {
            backend: new IndexedDbCacheBackend({
              database: db,
              ...(storeOpts?.cacheMaxBytes !== undefined ? { maxBytes: storeOpts.cacheMaxBytes } : {}),
            }),
          }
        : {};
    refStore = new RemoteApiRefStore({
      ...options.remote,
      transport: countingTransport(hostHttpTransport(caps), stats),
      owner: options.owner as string,
      repo: options.repo as string,
      ...(options.apiUrl !== undefined ? { apiUrl: options.apiUrl } : {}),
      ...(ref !== undefined ? { ref } : {}),
      ...(caps.credentials ? { credentials: caps.credentials } : {}),
      cache: { ...options.remote?.cache, ...cache },
    });
  }
  const documents = new DocumentStore(refStore);
  return {
    backend,
    ref: refStore.ref,
    refStore,
    documents,
    get: (identity, o) => documents.read(identity, o),
    put: (doc, o) => documents.put(doc, o),
    putMany: (docs, o) => documents.putMany(docs, o),
    commit: (ops, o) => documents.commit(ops, o),
    delete: (identity, o) => documents.delete(identity, o),
    list: (o) => documents.list(o),
    getMany: (identities, o) => documents.getMany(identities, o),
    stream: (o) => documents.stream(o),
    history: (identity, o) => documents.history(identity, o),
    versionsOf: <T>(identity: Identity, versions: readonly VersionId[]) => documents.versionsOf<T>(identity, versions),
    typeSeries: (query, versions) => typeSeries(refStore, query, versions),
    head: () => documents.head(),
    changes: (o) => documents.changes(o),
    changedVersions: (docs, from, to) => changedVersions(documents, docs, from, to),
    query: <T>(q: DocumentQuery) => documents.query<T>(q),
    facets: (q) => documents.facets(q),
    indexes: (o) => documents.indexes(o),
    search: <T>(text: string, o: DocumentSearchQuery) => documents.search<T>(text, o),
    declareSearch: (list, o) => documents.declareSearch(list, o),
    rebuildSearch: (list, o) => documents.rebuildSearch(list, o),
    searchDeclaration: (o) => documents.searchDeclaration(o),
    schema: (t, o) => documents.schema(t, o),
    declareSchema: (t, schema, o) => documents.declareSchema(t, schema, o),
    watch: (o, onChange) => documents.watch(o, onChange),
    stats: () => ({ ...stats }),
    close: () => db?.close(),
  };
}
