/**
 * Deliberately broken RefStores, each with ONE realistic bug. `contract-catches-mutants.test.ts` runs
 * the contract against them in a child vitest and checks that the suite fails for every one — proof
 * that the contract is not vacuous. Not matched by the normal test glob (`*.test.ts`).
 */
import { ObjectDb } from '../../../src/core/git/object-db.js';
import type {
  Change,
  ChangesOptions,
  GetOptions,
  HistoryOptions,
  ListOptions,
  RefStore,
  WriteOptions,
} from '../../../src/core/refstore.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { describeRefStoreContract } from '../refstore-contract.js';

/** Delegates everything to a MemoryRefStore; mutants override one method. */
class Delegate implements RefStore {
  constructor(
    readonly inner: MemoryRefStore,
    readonly db: ObjectDb,
  ) {}
  get ref() {
    return this.inner.ref;
  }
  get(key: string, o?: GetOptions) {
    return this.inner.get(key, o);
  }
  put(key: string, value: Uint8Array | string, o?: WriteOptions) {
    return this.commit([{ op: 'put', key, value }], o);
  }
  delete(key: string, o?: WriteOptions) {
    return this.commit([{ op: 'delete', key }], o);
  }
  commit(changes: readonly Change[], o?: WriteOptions) {
    return this.inner.commit(changes, o);
  }
  list(o?: ListOptions) {
    return this.inner.list(o);
  }
  history(key: string, o?: HistoryOptions) {
    return this.inner.history(key, o);
  }
  head() {
    return this.inner.head();
  }
  changes(o: ChangesOptions) {
    return this.inner.changes(o);
  }
}

export const MUTANTS: Record<string, new (inner: MemoryRefStore, db: ObjectDb) => RefStore> = {
  /** Reads the tip, yields, then writes on the stale tip: concurrent writers lose updates. */
  'lost-update': class extends Delegate {
    override async commit(changes: readonly Change[], o?: WriteOptions) {
      const stale = (await this.inner.head()) ?? null;
      await new Promise((r) => setTimeout(r, 1));
      const now = this.db.readRef(this.inner.ref) ?? null;
      this.db.compareAndSwapRef(this.inner.ref, now, stale);
      return this.inner.commit(changes, o);
    }
  },
  /** Ignores the version pin. */
  'ignores-version': class extends Delegate {
    override get(key: string) {
      return this.inner.get(key);
    }
  },
  /** Returns keys in reverse order. */
  'unsorted-list': class extends Delegate {
    override async list(o?: ListOptions) {
      const r = await this.inner.list(o);
      return { ...r, entries: [...r.entries].reverse() };
    }
  },
  /** Drops the delete commit from history. */
  'history-without-delete': class extends Delegate {
    override async history(key: string, o?: HistoryOptions) {
      const r = await this.inner.history(key);
      const kept = [];
      for (const e of r.entries) if (await this.inner.get(key, { version: e.version })) kept.push(e);
      return { ...r, entries: kept.slice(0, o?.limit ?? kept.length) };
    }
  },
  /** Writes the valid part of a batch instead of rejecting it. */
  'partial-batch': class extends Delegate {
    override commit(changes: readonly Change[], o?: WriteOptions) {
      const valid = changes.filter((c) => typeof c.key === 'string' && !c.key.includes('//'));
      return this.inner.commit(valid.length > 0 ? valid : changes, o);
    }
  },
  /** Commits even when nothing changed (identical content gets a new commit). */
  'commits-no-ops': class extends Delegate {
    override async commit(changes: readonly Change[], o?: WriteOptions) {
      const r = await this.inner.commit(changes, o);
      if (r.changed || changes.length === 0) return r;
      // A buggy "always commit" store: make a commit anyway (a marker key stands in for an empty commit).
      return this.inner.commit([{ op: 'put', key: `.noop-${Date.now()}-${Math.random()}`, value: '' }], o);
    }
  },
};

for (const [name, Mutant] of Object.entries(MUTANTS)) {
  describeRefStoreContract(
    `mutant ${name}`,
    async () => {
      const db = new ObjectDb();
      let t = 1_700_000_000_000;
      const now = () => (t += 1000);
      const make = () => new Mutant(new MemoryRefStore({ db, now }), db);
      return {
        store: make(),
        peer: make,
        otherSection: () => new MemoryRefStore({ db, now, ref: 'refs/docdb/other' }),
      };
    },
    { manyKeys: 300, largeValueBytes: 10_000, propertyRuns: 5 },
  );
}
