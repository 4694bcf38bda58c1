/**
 * The run's document changes on their way to the one commit. A run with few changes keeps them and
 * commits them at the end with `commit` (exactly the requests it always cost). Once `partSize` changes
 * are waiting, a commit in parts starts (`DocumentStore.commitParts`) and every further `partSize`
 * changes are handed over as one part while the sources are still being read: the store uploads each
 * part as it arrives, so a backfill's memory holds one part, not every changed document until the end.
 * The consumer pulls one part at a time (back-pressure); if the write fails, the next hand-over rejects
 * with its error, so reading stops.
 */
import type { WriteResult } from '../../core/refstore.js';
import type { DocumentOp, DocumentStore, WriteGuardOptions } from '../../document/document-store.js';
import type { TypeExpectations } from '../../document/expect/types.js';
import type { TypeIndex } from '../../document/indexes/declaration.js';
import type { TypeSearch } from '../../document/search/declaration.js';
import type { TypeSchema } from './schema-files.js';

/** Changes per part (and the count that starts streaming): ~1 MiB of typical documents. */
export const STREAM_PART = 1000;

/** What the one commit carries besides the changes, and how it streams. */
export interface StreamedCommitOptions {
  /** Changes per part (default STREAM_PART). */
  partSize?: number;
  /** The spec's `index:` declarations: they land in the same commit as the documents (docs/indexes.md). */
  indexes?: readonly TypeIndex[];
  /** The spec's `search:` declarations: they land in the same commit as the documents (docs/search.md). */
  search?: readonly TypeSearch[];
  /** The spec's `schema:` declarations: declared in the same commit, the documents validated against them. */
  schemas?: readonly TypeSchema[];
  /** The spec's `expect:`: evaluated on the tip each attempt builds on, before the section moves. */
  expect?: readonly TypeExpectations[];
  /** Checked on the tip each attempt of the commit builds on (WriteGuardOptions): the shard merge's compare-and-set. */
  guard?: WriteGuardOptions['guard'];
  /** Keep every change (`kept()`), for a quarantine commit of the same operations. */
  keep?: boolean;
}

/**
 * @example
 * const out = new StreamedCommit(documents, () => 'docdb: backfill');
 * for (const op of ops) await out.add(op);
 * const write = await out.finish(); // undefined: nothing to commit
 */
export class StreamedCommit {
  private buffer: DocumentOp[] = [];
  /** Hand-over slot: the part the consumer will take next, and who to tell when it did. */
  private slot: { part: DocumentOp[]; taken: () => void; refused: (e: unknown) => void } | undefined;
  private wake: (() => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;
  /** The commit in parts failed: no further part is accepted. */
  private writeFailed: { error: unknown } | undefined;
  private pending: Promise<WriteResult> | undefined;
  /** Changes added so far. */
  count = 0;

  /** Every change added, in order, when `keep` is on (a refused run's quarantine commit writes them again). */
  private readonly keptOps: DocumentOp[] = [];

  constructor(
    private readonly documents: DocumentStore,
    private readonly message: () => string,
    private readonly settings: StreamedCommitOptions = {},
  ) {}

  private get partSize(): number {
    return this.settings.partSize ?? STREAM_PART;
  }

  /** The write options: the message, and the declarations, expectations and guard the caller gave. */
  private options<M>(message: M) {
    const { indexes = [], search = [], schemas = [], expect = [], guard } = this.settings;
    return {
      message,
      ...(indexes.length > 0 ? { indexes: [...indexes] } : {}),
      ...(search.length > 0 ? { search: [...search] } : {}),
      ...(schemas.length > 0 ? { schemas: [...schemas] } : {}),
      ...(expect.length > 0 ? { expect: [...expect] } : {}),
      ...(guard ? { guard } : {}),
    };
  }

  /** Declarations that must land even when no document changed (declaring the same again writes nothing). */
  private get declares(): boolean {
    const { indexes = [], search = [], schemas = [] } = this.settings;
    return indexes.length > 0 || search.length > 0 || schemas.length > 0;
  }

  /**
   * Every change added so far, in order (with `keep: true`; empty otherwise), plus the `last` ones given to
   * `finish`: the would-be commit's operations, for a quarantine ref (run-quarantine.ts).
   */
  kept(): readonly DocumentOp[] {
    return this.keptOps;
  }

  /** True once a commit in parts has started (some changes are already on their way). */
  get streaming(): boolean {
    return this.pending !== undefined;
  }

  /** Add one change; hands a full part over (waiting until the store took it). */
  async add(op: DocumentOp): Promise<void> {
    this.buffer.push(op);
    if (this.settings.keep) this.keptOps.push(op);
    this.count++;
    if (this.buffer.length >= this.partSize) await this.handOver();
  }

  /**
   * Add the last changes and commit: `commit` when nothing was streamed (undefined when there is
   * nothing at all), else the last part and the end of the commit in parts.
   */
  async finish(last: readonly DocumentOp[] = []): Promise<WriteResult | undefined> {
    for (const op of last) {
      this.buffer.push(op);
      if (this.settings.keep) this.keptOps.push(op);
    }
    if (!this.pending) {
      if (this.buffer.length === 0) {
        // No document changed, but a new `index:` or `schema:` must still be declared (the same again writes nothing).
        if (!this.declares) return undefined;
        const r = await this.documents.commit([], this.options(this.message()));
        return r.changed ? r : undefined;
      }
      const ops = this.buffer;
      this.buffer = [];
      return this.documents.commit(ops, this.options(this.message()));
    }
    if (this.buffer.length > 0) await this.handOver();
    this.closed = true;
    this.wake?.();
    return this.pending;
  }

  /** Stop (the run failed): the commit in parts ends with `error` and no commit. */
  async abort(error: unknown): Promise<void> {
    if (!this.pending) return;
    this.failure = { error };
    this.wake?.();
    await this.pending.catch(() => {});
  }

  private async handOver(): Promise<void> {
    if (this.writeFailed) throw this.writeFailed.error;
    const part = this.buffer;
    this.buffer = [];
    if (!this.pending) {
      this.pending = this.documents.commitParts(this.parts(), this.options(this.message));
      // A failed write refuses the part waiting to be taken, and every later one (the producer then stops).
      this.pending.catch((error) => {
        this.writeFailed = { error };
        this.slot?.refused(error);
      });
    }
    await new Promise<void>((taken, refused) => {
      this.slot = { part, taken, refused };
      this.wake?.();
    });
  }

  private async *parts(): AsyncGenerator<DocumentOp[]> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      const slot = this.slot;
      if (slot) {
        this.slot = undefined;
        slot.taken();
        yield slot.part;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((r) => {
        this.wake = r;
      });
      this.wake = undefined;
    }
  }
}
