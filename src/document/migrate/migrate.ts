/**
 * `docs.migrate`: every document of one `(namespace, type)` read at ONE version a page at a time (the bulk
 * reads of `list`/`stream`: the archive, or batches), migrated (apply.ts) and written as ONE commit in parts
 * (`commitParts`: the GitHub store uploads each part as it comes and paces its writes), so memory holds a
 * page, not the type. The commit is a compare-and-set on the version read: its `guard` refuses any attempt
 * built on another tip, so a migration computed on an old tip never lands. A dry run reads the same and
 * writes nothing. See docs/migrations.md.
 */
import { ConcurrentUpdate, InvalidConfig, InvalidDocument } from '../../core/errors.js';
import { readManyFrom } from '../../core/read-many.js';
import type { OperationMeta, RefStore, WriteResult } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import { addCost, checkIdentity } from '../bulk.js';
import type {
  DocumentListEntry,
  DocumentListOptions,
  DocumentListResult,
  DocumentOp,
  DocumentPartsOptions,
} from '../document-types.js';
import { decodeEnvelope } from '../envelope.js';
import { assertValidIdentity, deriveKey } from '../identity.js';
import { applyOperations, type MigrationProblem } from './apply.js';
import { migrationDeclarations } from './declarations.js';
import { assertOperations, type MigrationOperation } from './operations.js';
import { migrationMessage } from './trailer.js';

/** What `docs.migrate` takes. */
export interface MigrateOptions {
  namespace: string;
  type: string;
  /** Applied to every document in this order (see {@link MigrationOperation}). */
  operations: readonly MigrationOperation[];
  /** A JSON Schema declared for the (new) type in the same commit (`null` drops it). */
  schema?: object | null;
  /** Read and report; write nothing. */
  dryRun?: boolean;
  /** The commit's subject (default: the type and the operations); the `Docdb-Migration` trailer is always added. */
  message?: string;
  /** Documents per part handed to the store (default 1,000). */
  pageSize?: number;
}

/** A document before and after, among the first changed ones in key order. */
export interface MigrationSample {
  key: string;
  /** The key after a move-type. */
  movedTo?: string;
  before: unknown;
  after: unknown;
}

export interface MigrationCounts {
  /** Documents of the type read. */
  read: number;
  /** Documents whose data the operations changed. */
  changed: number;
  /** Documents left as they were. */
  unchanged: number;
  /** Documents moved to another type (changed or not). */
  moved: number;
}

export interface MigrationResult extends OperationMeta {
  /** The tip after the migration (the tip read, when nothing was written). */
  version: VersionId | null;
  /** The tip the migration read and was computed on. */
  previousVersion: VersionId | null;
  /** True when a commit was written. */
  changed: boolean;
  dryRun: boolean;
  counts: MigrationCounts;
  /** The first 5 changed (or moved) documents in key order, before and after. */
  samples: MigrationSample[];
  /** The operations as checked (what the commit's `Docdb-Migration` trailer records). */
  operations: MigrationOperation[];
}

/** What the migration needs of a DocumentStore. */
export interface MigrateHost {
  readonly ref: string;
  list(options: DocumentListOptions): Promise<DocumentListResult>;
  readonly store: RefStore;
  commitParts(parts: AsyncIterable<readonly DocumentOp[]>, options: DocumentPartsOptions): Promise<WriteResult>;
}

export const SAMPLES = 5;
const MAX_PROBLEMS = 50;

/**
 * Migrate one type (see `DocumentStore.migrate`).
 *
 * @example
 * const r = await migrateType(docs, { namespace: 'github', type: 'repo', operations: [{ op: 'drop', field: 'data.tmp' }] });
 */
export async function migrateType(host: MigrateHost, options: MigrateOptions): Promise<MigrationResult> {
  const run = new MigrationRun(host, checkOptions(options));
  await run.readListing();
  if (options.dryRun) {
    for await (const _ of run.parts());
    return run.result(null);
  }
  const written = await host.commitParts(run.parts(), await run.writeOptions());
  return run.result(written);
}

type Checked = MigrateOptions & { operations: MigrationOperation[]; pageSize: number };

function checkOptions(options: MigrateOptions): Checked {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidConfig('options', 'migrate takes { namespace, type, operations }', {
      allowed: '{ namespace, type, operations, schema?, dryRun? }',
    });
  }
  const { namespace, type } = options;
  assertValidIdentity({ namespace, doc_type: type, id: 'x' });
  const operations = assertOperations(options.operations, { namespace, type });
  const pageSize = options.pageSize ?? 1000;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new InvalidConfig('pageSize', `pageSize must be a positive integer, got ${JSON.stringify(pageSize)}`);
  }
  if (options.schema !== undefined && options.schema !== null && typeof options.schema !== 'object') {
    throw new InvalidConfig('schema', 'schema must be a JSON Schema object (or null to drop it)', {
      allowed: 'object | null',
    });
  }
  return { ...options, operations, pageSize };
}

/** One migration in progress: what it read, counted and refused. */
class MigrationRun {
  private readonly counts: MigrationCounts = { read: 0, changed: 0, unchanged: 0, moved: 0 };
  private readonly samples: MigrationSample[] = [];
  private readonly problems: MigrationProblem[] = [];
  private problemCount = 0;
  private cost: OperationMeta = {};
  /** The version every page is read at (the first page's). */
  private version: VersionId | null = null;
  private entries: DocumentListEntry[] = [];
  /** Keys of the move-type target at the version read (a move never overwrites a document). */
  private taken: Set<string> | undefined;
  private readonly move: Extract<MigrationOperation, { op: 'move-type' }> | undefined;

  constructor(
    private readonly host: MigrateHost,
    private readonly o: Checked,
  ) {
    this.move = o.operations.find((x) => x.op === 'move-type');
  }

  /** The type's keys, listed at one version (the tip): the version every value is then read at. */
  async readListing(): Promise<void> {
    const { namespace, type } = this.o;
    const listed = await this.host.list({ namespace, type });
    this.cost = addCost(this.cost, listed);
    this.version = listed.version;
    this.entries = listed.documents;
  }

  /**
   * The writes, `pageSize` documents a part. The values are read in ONE bulk read at the listed version (on
   * GitHub: the section's archive once, however large the type — pages of their own would each read it again
   * once the cache has evicted the first), then migrated and handed on a part at a time; after the last part
   * the problems found (if any) end the write.
   */
  async *parts(): AsyncGenerator<DocumentOp[]> {
    if (this.version === null) return;
    if (this.move) await this.readTaken(this.version);
    const byKey = new Map(this.entries.map((e) => [e.key, e]));
    const onMeta = (m: OperationMeta) => {
      this.cost = addCost(this.cost, m);
    };
    let ops: DocumentOp[] = [];
    const keys = this.entries.map((e) => e.key);
    for await (const item of readManyFrom(this.host.store, keys, { version: this.version, onMeta })) {
      const entry = byKey.get(item.key);
      if (!entry || item.value === null) continue;
      const document = decodeEnvelope(item.value, this.version);
      checkIdentity(document, entry, item.key);
      for (const op of this.migrateOne({ ...entry, document })) ops.push(op);
      if (this.problemCount > 0) ops = [];
      if (ops.length >= this.o.pageSize) {
        yield ops;
        ops = [];
      }
    }
    if (ops.length > 0 && this.problemCount === 0) yield ops;
    this.throwProblems();
  }

  /** The commit's options: message with trailer, compare-and-set guard, index and schema declarations. */
  async writeOptions(): Promise<DocumentPartsOptions> {
    const { namespace, type, operations } = this.o;
    const read = this.version;
    const onMeta = (m: OperationMeta) => {
      this.cost = addCost(this.cost, m);
    };
    const { indexes, schemas } =
      read === null ? { indexes: [], schemas: [] } : await migrationDeclarations(this.host.store, read, this.o, onMeta);
    const ref = this.host.ref;
    return {
      message: migrationMessage(namespace, type, operations, this.o.message),
      guard: async ({ version }) => {
        if (version !== read) throw new MigrationRaced(ref, `${namespace}/${type}`, read, version);
      },
      ...(indexes.length > 0 ? { indexes } : {}),
      ...(schemas.length > 0 ? { schemas } : {}),
    };
  }

  /** Throw the problems found, if any: nothing is written. */
  throwProblems(): void {
    const first = this.problems[0];
    if (!first) return;
    const more = this.problemCount > 1 ? ` (and ${this.problemCount - 1} more)` : '';
    throw new InvalidDocument(
      first.field,
      `migrate ${this.o.namespace}/${this.o.type}: ${first.key} cannot be migrated: ${describe(first)}${more}. Nothing was written.`,
      { key: first.key, problems: this.problems, count: this.problemCount, version: this.version },
    );
  }

  result(written: WriteResult | null): MigrationResult {
    return {
      ...addCost(this.cost, written ?? {}),
      version: written ? written.version : this.version,
      previousVersion: this.version,
      changed: written?.changed ?? false,
      dryRun: written === null,
      counts: this.counts,
      samples: this.samples,
      operations: this.o.operations,
    };
  }

  private migrateOne(d: DocumentListEntry): DocumentOp[] {
    this.counts.read++;
    const env = d.document;
    if (!env) return []; // deleted between the listing and the read: not in this version
    const out = applyOperations(d.key, d.namespace, d.doc_type, env.data, this.o.operations);
    if ('rule' in out) return this.refuse(out);
    const movedTo = out.moved ? deriveKey({ namespace: out.namespace, doc_type: out.type, id: d.id }) : undefined;
    if (movedTo !== undefined && this.taken?.has(movedTo)) {
      return this.refuse({
        key: d.key,
        operation: `move-type ${out.namespace}/${out.type}`,
        field: 'id',
        rule: 'taken',
        found: 'document',
      });
    }
    if (out.changed) this.counts.changed++;
    if (out.moved) this.counts.moved++;
    if (!out.changed && !out.moved) {
      this.counts.unchanged++;
      return [];
    }
    this.sample({ key: d.key, ...(movedTo ? { movedTo } : {}), before: env.data, after: out.data });
    const put: DocumentOp = {
      op: 'put',
      document: { namespace: out.namespace, type: out.type, id: d.id, data: out.data },
    };
    return out.moved
      ? [{ op: 'delete', identity: { namespace: d.namespace, doc_type: d.doc_type, id: d.id } }, put]
      : [put];
  }

  /** Keep the first {@link SAMPLES} changed documents in key order (whatever order the values arrive in). */
  private sample(s: MigrationSample): void {
    if (this.samples.length === SAMPLES && s.key > (this.samples[SAMPLES - 1] as MigrationSample).key) return;
    this.samples.push(s);
    this.samples.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.samples.length = Math.min(this.samples.length, SAMPLES);
  }

  private refuse(p: MigrationProblem): DocumentOp[] {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
    return [];
  }

  private async readTaken(version: VersionId): Promise<void> {
    const move = this.move as NonNullable<typeof this.move>;
    const listed = await this.host.list({ namespace: move.namespace, type: move.type, version });
    this.cost = addCost(this.cost, listed);
    this.taken = new Set(listed.documents.map((e) => e.key));
  }
}

function describe(p: MigrationProblem): string {
  switch (p.rule) {
    case 'not-castable':
      return `${p.operation} found a ${p.found} it cannot convert`;
    case 'exists':
      return `${p.operation}: ${p.field} is already there (a ${p.found}); drop one of them first`;
    case 'not-an-object':
      return `${p.operation}: ${p.field} is a ${p.found}, not an object`;
    case 'taken':
      return `${p.operation}: a document with the same id already exists there`;
  }
}

/**
 * The section moved after the migration read it: the commit was refused, nothing was written. Run the
 * migration again (it reads the new tip). `code` stays `ConcurrentUpdate`, as for any lost race.
 */
export class MigrationRaced extends ConcurrentUpdate {
  constructor(ref: string, type: string, read: VersionId | null, now: VersionId | null) {
    super(ref, now ?? '(deleted)', 1);
    this.message = `migrate ${type}: ${ref} moved from ${read ?? '(absent)'} to ${now ?? '(deleted)'} after the migration read it; nothing was written (a migration is never applied to a tip it was not computed on). Run it again.`;
    Object.assign(this.data, { read, type });
  }
}
