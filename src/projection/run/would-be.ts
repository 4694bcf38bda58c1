/**
 * A dry run's guarded write, evaluated without moving anything (issue 39, `mode: review`): the run's
 * operations go through DocumentStore's one commit path — the same `expect:` evaluation, `schema:` checks
 * and `index:` work a real run's commit does on the tip (guarded-write.ts, document/declarations.ts) —
 * over a store whose commit runs that derive hook on the tip and then stops, writing nothing. So a review
 * reports exactly what the run's commit would refuse, with no second implementation of the rules.
 */
import { type ReadAt, readAt } from '../../core/derive.js';
import { normalizeChanges } from '../../core/plan.js';
import type { CommitOptions, RefStore, WriteResult } from '../../core/refstore.js';
import { type DocumentOp, DocumentStore } from '../../document/document-store.js';
import type { TypeExpectations } from '../../document/expect/types.js';
import type { TypeIndex } from '../../document/indexes/declaration.js';
import type { TypeSearch } from '../../document/search/declaration.js';
import type { ProjectionSpec } from '../spec/index.js';
import { type RunRefusal, refusalOf } from './guarded-write.js';
import type { TypeSchema } from './schema-files.js';

/** What a run's commit carries besides its operations (run-projections.ts `guarded`). */
export interface Guarded {
  indexes: readonly TypeIndex[];
  /** The spec's `search:` declarations (absent: none). */
  search?: readonly TypeSearch[];
  schemas: readonly TypeSchema[];
  expect: readonly TypeExpectations[];
}

/**
 * The refusal the run's commit of `ops` on `tip` would meet (a broken `schema:` or `expect:`, every
 * violation on its spec line), or null when it would be accepted. Reads the tip as the commit would; writes
 * nothing. Any other error (a request that failed) is thrown.
 *
 * @example
 * const refusal = await wouldBeRefusal(store, tip, ops, guarded, spec.projections);
 * if (refusal) console.log(`${refusal.count} violation(s)`);
 */
export async function wouldBeRefusal(
  store: RefStore,
  tip: string | null,
  ops: readonly DocumentOp[],
  guarded: Guarded,
  selected: readonly ProjectionSpec[],
  listed?: ReadonlyMap<string, string>,
): Promise<RunRefusal | null> {
  if (guarded.expect.length === 0 && guarded.schemas.length === 0 && !touchesDeclaredTypes(ops)) return null;
  try {
    await new DocumentStore(planOnly(store, tip, listed)).commit(ops, {
      message: 'docdb: review (never committed)',
      ...(guarded.indexes.length > 0 ? { indexes: [...guarded.indexes] } : {}),
      ...(guarded.search?.length ? { search: [...guarded.search] } : {}),
      ...(guarded.schemas.length > 0 ? { schemas: [...guarded.schemas] } : {}),
      ...(guarded.expect.length > 0 ? { expect: [...guarded.expect] } : {}),
    });
    return null;
  } catch (e) {
    const refusal = refusalOf(e, selected);
    if (!refusal) throw e;
    return refusal;
  }
}

/**
 * Schemas declared earlier (not by this spec) still hold a write's documents: only a write of documents can
 * meet one, so a run with document puts is always evaluated (the first read finds the declarations).
 */
function touchesDeclaredTypes(ops: readonly DocumentOp[]): boolean {
  return ops.some((o) => o.op === 'put');
}

/**
 * `store` for reading, with a commit that validates the changes and runs the write's derive hook on `tip`
 * (where expectations and schemas are enforced), then reports that nothing was written. `listed` (the run's
 * listing of the tip: key → blob SHA) answers "absent" for declarations the tip does not hold without a
 * request, as a store's own derive reader does from its cached trees.
 */
function planOnly(store: RefStore, tip: string | null, listed?: ReadonlyMap<string, string>): RefStore {
  const readTip = readAt(store, tip);
  const read: ReadAt = async (keys) => {
    const out = await readTip(listed ? keys.filter((k) => listed.has(k)) : keys);
    for (const k of keys) if (!out.has(k)) out.set(k, null);
    return out;
  };
  const commit = async (
    changes: Parameters<RefStore['commit']>[0],
    options: CommitOptions = {},
  ): Promise<WriteResult> => {
    const normalized = normalizeChanges(changes);
    if (options.derive) {
      const shas = new Map(normalized.flatMap((c) => (c.op === 'put' ? [[c.key, c.sha] as const] : [])));
      await options.derive({ version: tip, read, written: (k) => shas.get(k) });
    }
    return { version: tip, previousVersion: tip, changed: false, written: [], deleted: [], unchanged: 0 };
  };
  return new Proxy(store, {
    get(target, p, receiver) {
      if (p === 'commit') return commit;
      if (p === 'commitParts') return undefined;
      const v = Reflect.get(target, p, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
