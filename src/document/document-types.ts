/** The option and result types of DocumentStore (./document-store.ts). */
import type {
  ChangedKey,
  CommitOptions,
  CommitPartsOptions,
  IfMatch,
  OperationMeta,
  WriteOptions,
  WriteResult,
} from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import type { DocumentInput, Envelope } from './envelope.js';
import type { TypeExpectations } from './expect/types.js';
import type { Identity } from './identity.js';
import type { TypeIndex } from './indexes/index.js';
import type { TypeSchema } from './schema/declaration.js';
import type { TypeSearch } from './search/index.js';

/**
 * One operation of an atomic {@link DocumentStore.commit}: put or delete a document, or write (`value`)
 * or delete (`value: null`) a docdb metadata key under `_docdb/` — e.g. a projection's incremental
 * state, which must land in the same commit as the documents it describes.
 */
export type DocumentOp<T = unknown> =
  | { op: 'put'; document: DocumentInput<T> }
  | { op: 'delete'; identity: Identity }
  | { op: 'meta'; key: string; value: Uint8Array | string | null };

export interface DocumentGetOptions {
  /** Read at this commit of the section instead of the tip. */
  version?: VersionId;
}

export interface DocumentListOptions {
  /** Only documents in this namespace. */
  namespace?: string;
  /** Only documents of this doc_type (in every namespace unless `namespace` is given too). */
  type?: string;
  /** List at this commit instead of the tip. */
  version?: VersionId;
  /** At most this many documents per page (positive integer; default: all). */
  limit?: number;
  /** `nextCursor` from the previous page. Pages continue at the version of the first page. */
  cursor?: string;
  /** Also read each listed document's envelope (`document` on every entry), in a few bulk requests. */
  withData?: boolean;
}

/** A listed document: its identity, canonical key and blob SHA — and its envelope with `withData: true`. */
export type DocumentListEntry = Identity & { key: string; blobSha: string; document?: Envelope };

export interface DocumentListResult extends OperationMeta {
  /** Documents in ascending key order; keys that are not documents are skipped. */
  documents: DocumentListEntry[];
  /** Commit listed, or null when the section does not exist yet. */
  version: VersionId | null;
  /** Pass as `cursor` to get the next page; null on the last page. */
  nextCursor: string | null;
}

/** Result of {@link DocumentStore.read}: the document (or null) and what reading it cost. */
export interface ReadDocumentResult<T = unknown> extends OperationMeta {
  document: Envelope<T> | null;
  /** Commit the document was read at; null when it is absent. */
  version: VersionId | null;
  /**
   * The document's blob SHA (null when absent): pass it as `ifMatch` to `put`/`delete` so the write
   * fails with `PreconditionFailed` if someone changed the document since this read.
   */
  etag: string | null;
}

/** Result of {@link DocumentStore.readMany}: the envelopes in the order asked and what reading them cost. */
export interface ReadManyDocumentsResult<T = unknown> extends OperationMeta {
  /** One per identity asked for, in order; null for a missing document. */
  documents: (Envelope<T> | null)[];
  /** Commit every document was read at; null when the section does not exist (or nothing was asked). */
  version: VersionId | null;
}

/** Options of a single-document write: `ifMatch` is the `etag` from `read` (or null: create only). */
export interface DocumentWriteOptions extends WriteOptions {
  ifMatch?: IfMatch;
}

/**
 * Indexes declared in the same commit as a write (docs/indexes.md): per `(namespace, type)` the fields to
 * index, replacing that type's declaration; `fields: []` drops it. Other types' declarations stay.
 */
export interface IndexWriteOptions {
  indexes?: readonly TypeIndex[];
}

/**
 * Full-text search declared in the same commit as a write (docs/search.md): per `(namespace, type)` the
 * searchable fields, replacing that type's declaration; `fields: []` drops it. Other types' declarations stay.
 */
export interface SearchWriteOptions {
  search?: readonly TypeSearch[];
}

/**
 * Schemas declared in the same commit as a write (docs/schemas.md): per `(namespace, type)` a JSON Schema
 * for documents' `data` (`schema: null` drops it). The write's own documents are checked against it; one
 * that documents already in the section break is refused unless `force`.
 */
export interface SchemaWriteOptions {
  schemas?: readonly TypeSchema[];
}

/**
 * A check of the tip each attempt of a commit builds on (again after every lost race), made before the
 * index is derived: an error it throws ends the write with nothing written. How a caller makes a commit a
 * compare-and-set against what others wrote since it started (the shard merge, projection/run/merge-shards.ts).
 */
export interface WriteGuardOptions {
  guard?: (base: { version: VersionId | null }) => Promise<void>;
}

/**
 * Data expectations checked on the would-be commit before the section moves (docs/expectations.md): per
 * `(namespace, type)`, evaluated on each attempt's tip; a broken one throws `ExpectationsFailed` and
 * nothing is written.
 */
export interface ExpectWriteOptions {
  expect?: readonly TypeExpectations[];
}

/** Options of {@link DocumentStore.commit}: `ifMatch` maps canonical keys (see `deriveKey`) to etags or null. */
export type DocumentCommitOptions = Omit<CommitOptions, 'derive'> &
  IndexWriteOptions &
  SearchWriteOptions &
  SchemaWriteOptions &
  WriteGuardOptions &
  ExpectWriteOptions;

/** Options of {@link DocumentStore.putMany}. */
export type PutManyOptions = WriteOptions &
  IndexWriteOptions &
  SearchWriteOptions &
  SchemaWriteOptions &
  ExpectWriteOptions;

/** Options of {@link DocumentStore.commitParts}. */
export type DocumentPartsOptions = Omit<CommitPartsOptions, 'derive'> &
  IndexWriteOptions &
  SearchWriteOptions &
  SchemaWriteOptions &
  WriteGuardOptions &
  ExpectWriteOptions;

/** Options of {@link DocumentStore.declareSchema}. */
export interface DeclareSchemaOptions extends WriteOptions {
  /** Declare even when documents already in the section break the schema. */
  force?: boolean;
}

/** A document that differs between two versions (see {@link DocumentStore.changes}). */
export type ChangedDocument = Identity & ChangedKey;

export interface DocumentChangesResult extends OperationMeta {
  from: VersionId;
  to: VersionId;
  added: ChangedDocument[];
  /** Documents present at both versions with different content. */
  modified: ChangedDocument[];
  /**
   * The same list as {@link DocumentChangesResult.modified}.
   *
   * @deprecated Use `modified`: `changed` is a yes/no everywhere else (`WriteResult.changed`, the Action's
   * `changed` output); this alias stays until the next major version.
   */
  changed: ChangedDocument[];
  removed: ChangedDocument[];
}

export interface DocumentChangesOptions {
  from: VersionId;
  to?: VersionId;
  namespace?: string;
  /** Only this doc_type (requires `namespace`). */
  type?: string;
  /** Also hand over each changed document's unified diff where the store has one (RefStore `ChangesOptions.withPatches`). */
  withPatches?: boolean;
}

/** Result of {@link DocumentStore.put}: the write result plus the document as now stored. */
export type PutDocumentResult<T = unknown> = WriteResult & { document: Envelope<T> | null };
