/**
 * The plain reads of DocumentStore (document-store.ts extends this): the tip, one document, many documents
 * at one version, lists, streams, changes, watch and history — each a thin call into the module that does
 * the work. Kept apart so document-store.ts holds the write paths and the declarations.
 */
import type { HistoryResult, KeyHistoryOptions } from '../core/refstore.js';
import { type ResolveVersionOptions, resolveVersion } from '../core/resolve-version.js';
import type { VersionId } from '../core/version.js';
import { type BulkReadOptions, readDocument, readManyDocuments, streamDocuments } from './bulk.js';
import {
  type DocumentWatchChange,
  type DocumentWatchOptions,
  documentChanges,
  watchDocuments,
} from './document-changes.js';
import { DocumentReads } from './document-reads.js';
import type {
  DocumentChangesOptions,
  DocumentChangesResult,
  DocumentGetOptions,
  DocumentListEntry,
  DocumentListOptions,
  DocumentListResult,
  ReadDocumentResult,
  ReadManyDocumentsResult,
} from './document-types.js';
import type { Envelope } from './envelope.js';
import { deriveKey, type Identity } from './identity.js';
import { listDocuments } from './list-documents.js';
import { assertLimit } from './list-pages.js';

export abstract class DocumentPlainReads extends DocumentReads {
  /** Full name of the section ref. */
  get ref(): string {
    return this.store.ref;
  }

  /** Current tip of the section, or null before the first write. */
  async head(): Promise<VersionId | null> {
    return this.store.head();
  }

  /**
   * The full version an abbreviated one names (the 7 characters docdb prints): searched among the
   * section's newest commits (`resolveVersion` in core: no I/O for a full SHA; `InvalidVersion` with
   * `data.reason` `ambiguous` or `not-in-section` otherwise).
   *
   * @example
   * const doc = await docs.get(identity, { version: await docs.resolveVersion('2ce87ab') });
   */
  async resolveVersion(version: string, options?: ResolveVersionOptions): Promise<VersionId> {
    return resolveVersion(this.store, version, options);
  }

  /** The document at the tip (or at `version`), or null when absent. */
  async get<T = unknown>(identity: Identity, options: DocumentGetOptions = {}): Promise<Envelope<T> | null> {
    return (await this.read<T>(identity, options)).document;
  }

  /**
   * Like {@link get}, with what the read cost: the version read, upstream `requests` and `rateLimit`
   * (for a missing document `version` is null and the cost is what the backend reported, if anything).
   *
   * @example
   * const { document, version, requests, rateLimit } = await docs.read({ namespace: 'github', doc_type: 'repo', id: 'o/r' });
   */
  async read<T = unknown>(identity: Identity, options: DocumentGetOptions = {}): Promise<ReadDocumentResult<T>> {
    return readDocument<T>(this.store, identity, options);
  }

  /**
   * Documents added, changed and removed between two versions (`to` defaults to the tip), optionally
   * in one namespace / doc_type. Only subtrees that differ are read.
   *
   * @example
   * const { added, modified, removed, to } = await docs.changes({ from: lastSeen, namespace: 'github' });
   * for (const d of changed) console.log(d.namespace, d.doc_type, d.id, d.blobSha);
   */
  changes(options: DocumentChangesOptions): Promise<DocumentChangesResult> {
    return documentChanges(this.store, options);
  }

  /**
   * Follow the section: poll its tip (a 304 while nothing moved — no rate limit spent on GitHub) and
   * call `onChange` once per move with the documents that changed. Resolves when `signal` aborts.
   *
   * @example
   * const stop = new AbortController();
   * docs.watch({ namespace: 'github', interval: 30_000, signal: stop.signal }, (c) => render(c.changed));
   */
  watch(options: DocumentWatchOptions, onChange: (change: DocumentWatchChange) => void | Promise<void>): Promise<void> {
    return watchDocuments(this.store, options, onChange);
  }

  /**
   * Commits that changed the document, newest first (including its deletion). With `limit`, a result
   * with `nextCursor` has older entries: pass it as `cursor` for the next page.
   *
   * @example
   * let page = await docs.history(identity, { limit: 100 });
   * while (page.nextCursor) page = await docs.history(identity, { limit: 100, cursor: page.nextCursor });
   */
  async history(identity: Identity, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertLimit(options.limit);
    return this.store.history(deriveKey(identity), options);
  }

  /**
   * Documents in ascending key order, filtered by namespace and/or type, paginated by `limit`/`cursor`.
   * Keys that are not documents (other files, `_docdb/…`) are skipped, never an error.
   */
  async list(options: DocumentListOptions = {}): Promise<DocumentListResult> {
    return listDocuments(this.store, options);
  }

  /**
   * Documents by identity, read at ONE version in a few bulk requests (see `RefStore.readMany`): the envelopes
   * in the order asked, `null` for a missing one. Every identity is checked first (`InvalidIdentity` naming
   * `identities[i]`). {@link readMany} gives the same with what the read cost.
   *
   * @example
   * const [a, b] = await docs.getMany([
   *   { namespace: 'github', doc_type: 'repo', id: 'o/a' },
   *   { namespace: 'github', doc_type: 'repo', id: 'o/b' },
   * ]);
   */
  async getMany<T = unknown>(
    identities: readonly Identity[],
    options: DocumentGetOptions = {},
  ): Promise<(Envelope<T> | null)[]> {
    return (await this.readMany<T>(identities, options)).documents;
  }

  /**
   * Like {@link getMany}, with the version read and what the read cost (`requests`, `rateLimit`), as
   * {@link read} is to {@link get}.
   *
   * @example
   * const { documents, version, requests } = await docs.readMany([{ namespace: 'github', doc_type: 'repo', id: 'o/a' }]);
   */
  async readMany<T = unknown>(
    identities: readonly Identity[],
    options: DocumentGetOptions = {},
  ): Promise<ReadManyDocumentsResult<T>> {
    return readManyDocuments<T>(this.store, identities, options);
  }

  /**
   * Every document (filtered like `list`) as an async iterable in key order, a page at a time, so a large
   * section is never held whole; with `withData: true` each entry carries its envelope. All pages are read at
   * the version of the first. `onMeta` gets the running cost (`requests` so far, the latest `rateLimit`) after
   * each page is read.
   *
   * @example
   * let cost: OperationMeta = {};
   * for await (const d of docs.stream({ namespace: 'github', withData: true, onMeta: (m) => (cost = m) })) console.log(d.id);
   * console.log(cost.requests); // every request the export made
   */
  async *stream(
    options: Omit<DocumentListOptions, 'limit' | 'cursor'> & BulkReadOptions = {},
  ): AsyncGenerator<DocumentListEntry> {
    yield* streamDocuments((o) => this.list(o), options);
  }
}
