/**
 * DocumentStore: document envelopes addressed by identity, over any RefStore. Every write is one
 * commit (or none, when the canonical bytes are unchanged). See docs/documents.md.
 */

import { assertPartsOptions, commitInParts } from '../core/commit-parts.js';
import { InvalidConfig, InvalidDocument } from '../core/errors.js';
import type { Change, KeyWriteOptions, RefStore, WriteOptions, WriteResult } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { opsToChanges, putManyParts } from './batch.js';
import type { DeclarationsWrite, PreparedSchema } from './declarations.js';
import { DocumentPlainReads } from './document-plain-reads.js';
import type {
  DeclareSchemaOptions,
  DocumentCommitOptions,
  DocumentOp,
  DocumentPartsOptions,
  DocumentWriteOptions,
  PutDocumentResult,
  PutManyOptions,
} from './document-types.js';
import type { DocumentInput, Envelope } from './envelope.js';
import { features } from './features.js';
import type { Identity } from './identity.js';
import type { DocumentIndexOptions, IndexedOp } from './index-write.js';
import { indexedOpsOf, PartsCollector } from './indexed-ops.js';
import { DECLARATION_KEY, type IndexDeclaration, parseDeclaration, type TypeIndex } from './indexes/declaration.js';
import { lightWriteHook } from './light-write.js';
import type { MigrateOptions, MigrationResult } from './migrate/index.js';
import type { PartsSchemas } from './schema/parts.js';
import { storedSchema } from './schema/read.js';
import type { TypeSearch } from './search/index.js';
import type { SearchTypeName } from './search-rebuild.js';
import type { DocumentSearchOptions } from './search-write.js';

export type { DocumentWatchChange, DocumentWatchOptions } from './document-changes.js';
export type * from './document-types.js';
export type { DocumentQuery, DocumentQueryResult, QueryRow } from './query.js';
export type { DocumentSearchQuery, DocumentSearchResult, SearchHit } from './search-read.js';
export type { DocumentVersionsResult } from './versions-of.js';

/**
 * Documents over a RefStore.
 *
 * @example
 * const docs = new DocumentStore(new MemoryRefStore());
 * const { version } = await docs.put({ namespace: 'github', type: 'repo', id: 'octo/hello-world', data: { stars: 1 } });
 * const env = await docs.get({ namespace: 'github', doc_type: 'repo', id: 'octo/hello-world' });
 * // env = { namespace: 'github', type: 'repo', id: 'octo/hello-world', version, data: { stars: 1 } }
 */
/** Documents per part when `putMany` hands a large write to the store in parts. */
export const PUT_MANY_PART = 1000;

export class DocumentStore extends DocumentPlainReads {
  /**
   * @param store the section's RefStore.
   * @param options `index.maxPartBytes`: split an index part above this size (default 128 KiB; tests use less);
   *   `search.maxShardBytes` / `search.largeTypeWrite`: the same for search (docs/search.md).
   */
  constructor(
    readonly store: RefStore,
    options: { index?: DocumentIndexOptions; search?: DocumentSearchOptions } = {},
  ) {
    super();
    this.indexOptions = options.index ?? {};
    this.searchOptions = options.search ?? {};
  }

  protected readonly indexOptions: DocumentIndexOptions;
  private readonly searchOptions: DocumentSearchOptions;

  /**
   * Write one document (one commit, or none when its canonical bytes are unchanged). `document` is the
   * envelope as stored, at the resulting version.
   */
  async put<T>(doc: DocumentInput<T>, options?: DocumentWriteOptions): Promise<PutDocumentResult<T>> {
    const ops: DocumentOp[] = [{ op: 'put', document: doc }];
    const changes = opsToChanges(ops);
    const { key, value } = changes[0] as { key: string; value: Uint8Array };
    const result = await this.store.put(key, value, {
      ...options,
      derive: this.declarations(() => indexedOpsOf(ops, changes)),
    });
    const document: Envelope<T> | null =
      result.version === null
        ? null
        : { namespace: doc.namespace, type: doc.type, id: doc.id, version: result.version, data: doc.data };
    return { ...result, document };
  }

  /**
   * Write many documents in ONE commit (none when nothing changed). Above {@link PUT_MANY_PART}
   * documents every document's fields and key are checked first, then they are encoded (their `data`
   * checked) and handed to the store a part at a time in key order (`commitInParts`): a store that
   * uploads as it goes (the GitHub API store) never holds every encoded document at once, and each part
   * touches as few directories as possible. Data that is not JSON fails the write when its part is
   * encoded, after earlier parts were uploaded but before any commit (batch.ts).
   */
  async putMany(docs: readonly DocumentInput[], options: PutManyOptions = {}): Promise<WriteResult> {
    if (!Array.isArray(docs)) throw new InvalidDocument('documents', 'putMany takes an array of documents');
    if (docs.length <= PUT_MANY_PART) {
      return this.commit(
        docs.map((document) => ({ op: 'put', document })),
        options,
      );
    }
    // The index hook takes each document's data from `docs` (not decoded back from its bytes), by key.
    const byKey = new Map<string, number>();
    const onKeys = (keys: readonly string[]) => {
      for (const [i, k] of keys.entries()) byKey.set(k, i);
    };
    return this.commitChangeParts(
      (checks) => putManyParts(docs, PUT_MANY_PART, onKeys, checks),
      options,
      (key) => docs[byKey.get(key) as number]?.data,
    );
  }

  /**
   * ONE commit of operations that arrive in parts (pages of a source): each part is validated and encoded
   * as it arrives and handed to the store (`commitInParts`), so memory holds one part, not the whole
   * write. A key in two parts is `InvalidKey` "duplicate"; an error thrown by the parts ends the write
   * with no commit.
   *
   * @example
   * async function* pages() {
   *   for (let p = 1; p <= 3; p++) yield [{ op: 'put', document: { namespace: 'github', type: 'page', id: `p${p}`, data: { p } } }];
   * }
   * await docs.commitParts(pages(), { message: 'backfill' });
   */
  async commitParts(
    parts: AsyncIterable<readonly DocumentOp[]> | Iterable<readonly DocumentOp[]>,
    options: DocumentPartsOptions = {},
  ): Promise<WriteResult> {
    async function* changes(checks: PartsSchemas | undefined): AsyncGenerator<Change[]> {
      for await (const part of parts) yield opsToChanges(part, checks);
    }
    return this.commitChangeParts(changes, options);
  }

  /**
   * A commit in parts with its index kept exact: its documents are collected as the parts stream by
   * (bounded: indexed-ops.ts `PartsCollector`) for the hook that updates the index in the same commit.
   * `encode` makes the parts, given the checks of the schemas the write declares (when it declares any).
   */
  private async commitChangeParts(
    encode: (checks: PartsSchemas | undefined) => AsyncIterable<readonly Change[]> | Iterable<readonly Change[]>,
    options: DocumentPartsOptions,
    dataOf?: (key: string) => unknown,
  ): Promise<WriteResult> {
    const { indexes, schemas, search, guard, expect, ...rest } = options;
    assertPartsOptions(rest);
    const kit = await features.write();
    const expecting = kit.expectingWrite(this.store, expect, guard, dataOf);
    if (indexes) kit.checkIndexes(indexes);
    if (search) kit.checkSearch(search);
    const declared = schemas ? kit.prepareSchemas(schemas) : undefined;
    const checks = kit.schemaChecks(this.store, declared);
    const seen = new PartsCollector(
      async () => kit.applyDeclare(await this.indexes(), indexes ?? []),
      dataOf,
      undefined,
      checks,
      async () => kit.applySearchDeclare(await kit.storedSearchDeclaration(this.store), search ?? []).search,
    );
    const collected = seen.collect(encode(checks.declaresAny ? checks : undefined));
    return commitInParts(this.store, expecting.collector ? expecting.collector.collect(collected) : collected, {
      ...rest,
      derive: this.declarations(() => seen.ops, {
        indexes,
        search,
        schemas: declared,
        guard: expecting.guard,
        parts: checks,
      }),
    });
  }

  /**
   * The ONE derive hook of every write (light-write.ts, then declarations.ts `writeHook`): the caller's guard
   * and the write's expectations first, then schemas checked and indexes kept exact.
   */
  private declarations(ops: () => readonly IndexedOp[], o: Omit<DeclarationsWrite, 'store' | 'ops'> = {}) {
    const options = { indexOptions: this.indexOptions, searchOptions: this.searchOptions };
    return lightWriteHook({ store: this.store, ops, ...options, ...o }, features);
  }

  /**
   * The section's index declaration (at the tip, or at `version`): per `(namespace, type)` the indexed
   * fields; an empty list when none is declared. See docs/indexes.md.
   *
   * @example
   * const { indexes } = await docs.indexes(); // [{ namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] }]
   */
  async indexes(options: { version?: VersionId } = {}): Promise<IndexDeclaration> {
    if (options.version !== undefined) assertValidVersion(options.version);
    const got = await this.store.get(DECLARATION_KEY, options);
    return parseDeclaration(got?.value);
  }

  /**
   * Declare indexes: per `(namespace, type)` the fields to index (`id` or `data.<path>`, 1 to 8), replacing
   * that type's declaration; `fields: []` drops it. Builds (or deletes) those indexes in ONE commit, from
   * the documents; declaring what is already declared writes nothing.
   *
   * @example
   * await docs.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] }]);
   */
  async declareIndexes(indexes: readonly TypeIndex[], options: WriteOptions = {}): Promise<WriteResult> {
    if (!Array.isArray(indexes)) {
      throw new InvalidConfig('indexes', 'declareIndexes takes an array of { namespace, type, fields }', {
        allowed: '[{ namespace, type, fields: ["data.x", …] }]',
      });
    }
    (await features.write()).checkIndexes(indexes);
    return this.commit([], { ...options, indexes });
  }

  /**
   * Declare full-text search (docs/search.md): per `(namespace, type)` the fields whose text is searchable
   * (`id` or `data.<path>`, 1 to 8), replacing that type's declaration; `fields: []` drops it. Builds (or
   * deletes) those search indexes in ONE commit, from the documents; declaring what is declared writes nothing.
   *
   * @example
   * await docs.declareSearch([{ namespace: 'github', type: 'repo', fields: ['data.title', 'data.body'] }]);
   */
  async declareSearch(search: readonly TypeSearch[], options: WriteOptions = {}): Promise<WriteResult> {
    (await features.write()).checkSearch(search);
    return this.commit([], { ...options, search });
  }

  /**
   * Build the search of declared types again from their documents at the tip, in ONE commit — the way out
   * of a damaged search file (docs/search.md); `InvalidConfig` naming a type without search declared.
   *
   * @example
   * await docs.rebuildSearch([{ namespace: 'github', type: 'repo' }]);
   */
  async rebuildSearch(types: readonly SearchTypeName[], options: WriteOptions = {}): Promise<WriteResult> {
    const rebuildSearch = (await features.write()).checkRebuildSearch(types);
    return this.store.commit([], { ...options, derive: this.declarations(() => [], { rebuildSearch }) });
  }

  /**
   * The JSON Schema documents of one type must follow (at the tip, or at `version`), or null when none is
   * declared. See docs/schemas.md.
   *
   * @example
   * const schema = await docs.schema({ namespace: 'github', type: 'repo' }); // { type: 'object', … } | null
   */
  async schema(t: { namespace: string; type: string }, options: { version?: VersionId } = {}): Promise<object | null> {
    return (await storedSchema(this.store, t, options))?.schema ?? null;
  }

  /**
   * Declare the JSON Schema (2020-12) every writer checks `data` of one type's documents against, from the
   * next write on (`null` drops it): one commit writing `_docdb/types/<ns>/<type>.json`, none when the same
   * schema is declared already. Refused (`InvalidConfig`, nothing written) when it is not valid JSON Schema,
   * or when documents already in the section break it — listing up to 50 in `data.violations`, all in
   * `data.count` — unless `force: true`.
   *
   * @example
   * await docs.declareSchema({ namespace: 'github', type: 'repo' }, {
   *   type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 0 } },
   * });
   */
  async declareSchema(
    t: { namespace: string; type: string },
    schema: object | null,
    options: DeclareSchemaOptions = {},
  ): Promise<WriteResult> {
    const { force, ...rest } = options;
    const entry = { namespace: t?.namespace, type: t?.type, schema, ...(force !== undefined ? { force } : {}) };
    const [declared] = (await features.write()).prepareSchemas([entry], 'schema');
    return this.store.commit([], {
      ...rest,
      derive: this.declarations(() => [], { schemas: [declared as PreparedSchema] }),
    });
  }

  /**
   * Atomic mix of puts and deletes: one commit, all or nothing. Every operation is validated before any
   * I/O. `written`/`deleted` in the result are canonical keys (metadata keys included).
   *
   * @example
   * await docs.commit([
   *   { op: 'put', document: { namespace: 'github', type: 'issue', id: 'o/r#1', data: { title: 'Hi' } } },
   *   { op: 'delete', identity: { namespace: 'github', doc_type: 'issue', id: 'o/r#2' } },
   *   { op: 'meta', key: '_docdb/state/issues.json', value: '{"since":"2024-01-01T00:00:00Z"}\n' },
   * ]);
   */
  async commit(ops: readonly DocumentOp[], options: DocumentCommitOptions = {}): Promise<WriteResult> {
    const { indexes, schemas, search, guard, expect, ...rest } = options;
    if (!indexes && !schemas && !search && expect === undefined) {
      // Declares nothing: the light hook loads the declarations work only if the section needs it.
      const changes = opsToChanges(ops);
      const derive = this.declarations(() => indexedOpsOf(ops, changes), { guard });
      return this.store.commit(changes, { ...rest, derive });
    }
    const kit = await features.write();
    if (search) kit.checkSearch(search);
    const declared = schemas ? kit.prepareSchemas(schemas) : undefined;
    const checks = kit.schemaChecks(this.store, declared);
    const changes = opsToChanges(ops, checks.declaresAny ? checks : undefined);
    const expecting = kit.expectingWrite(this.store, expect, guard);
    expecting.collector?.takeOps(ops, changes);
    const derive = this.declarations(() => indexedOpsOf(ops, changes), {
      indexes,
      search,
      schemas: declared,
      guard: expecting.guard,
      parts: checks,
    });
    return this.store.commit(changes, { ...rest, derive });
  }

  /**
   * Migrate every document of one type in ONE commit, compare-and-set on the version read (migrate/migrate.ts,
   * docs/migrations.md); `dryRun: true` writes nothing and reports counts and samples.
   *
   * @example
   * await docs.migrate({ namespace: 'github', type: 'repo', operations: [{ op: 'rename', from: 'data.stars', to: 'data.stargazers' }] });
   */
  async migrate(options: MigrateOptions): Promise<MigrationResult> {
    return (await features.migrate()).migrateType(this, options);
  }

  /** Delete one document (no commit when it does not exist). */
  async delete(identity: Identity, options?: DocumentWriteOptions): Promise<WriteResult> {
    const ops: DocumentOp[] = [{ op: 'delete', identity }];
    const changes = opsToChanges(ops);
    return this.store.delete(changes[0]!.key, {
      ...(options as KeyWriteOptions),
      derive: this.declarations(() => indexedOpsOf(ops, changes)),
    });
  }
}
