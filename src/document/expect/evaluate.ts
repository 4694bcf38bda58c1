/**
 * Evaluating a write's expectations on the tip one attempt of its commit builds on (again after a lost
 * race), before the section moves: each type's counts, values, uniqueness, references and check, with
 * the fewest reads (tip.ts). A failure is `ExpectationsFailed` with the first 50 violations, their count
 * and the tip evaluated; the store then writes nothing.
 */
import { appendAll } from '../../core/arrays.js';
import { ExpectationsFailed, MAX_EXPECT_VIOLATIONS } from '../../core/errors.js';
import type { DeriveBase, RefStore } from '../../core/refstore.js';
import { countViolations, writeCounts } from './counts.js';
import { type ExpectOp, typeKey } from './fields.js';
import { referenceViolations } from './references.js';
import { Tip } from './tip.js';
import type { ExpectViolation, TypeExpectations } from './types.js';
import { uniqueViolations } from './unique.js';
import { valueViolations } from './values.js';

/** Longest message a check's problem keeps (it comes from user code). */
const MAX_CHECK_MESSAGE = 500;

/**
 * Every violation of `entries` by the write `ops` on the tip `base`, in entry order (`tip`: reads already
 * made at that tip, to share them).
 *
 * @example
 * const violations = await evaluateExpectations(store, base, expect, collector.ops);
 */
export async function evaluateExpectations(
  store: Pick<RefStore, 'list' | 'get' | 'readMany'>,
  base: Pick<DeriveBase, 'version' | 'read' | 'written'>,
  entries: readonly TypeExpectations[],
  ops: readonly ExpectOp[],
  tip = new Tip(store, base),
): Promise<ExpectViolation[]> {
  const all: ExpectViolation[] = [];
  for (const entry of entries) {
    const out: ExpectViolation[] = [];
    const e = entry.expectations;
    const mine = ops.filter((o) => typeKey(o) === typeKey(entry));
    if (e.count || e.maxRemoved !== undefined || e.maxChanged !== undefined) {
      appendAll(out, countViolations(e, await writeCounts(tip, entry, mine, (k) => base.written(k))));
    }
    appendAll(out, valueViolations(e, mine));
    if (e.unique) appendAll(out, await uniqueViolations(tip, entry, e.unique, mine));
    if (e.references) appendAll(out, await referenceViolations(tip, e.references, mine, ops));
    if (e.check) appendAll(out, await runCheck(entry, mine, base.version));
    // A violation without a key (count, max-removed, max-changed) says whose expectations it broke, so the
    // runner can point it at that projection's `expect:` (one with a key is told by its key).
    appendAll(
      all,
      out.map((v) => (v.key === undefined ? { ...v, namespace: entry.namespace, type: entry.type } : v)),
    );
  }
  return all;
}

/** The check's problems on the type's written documents (runCheck is required by validateExpect). */
async function runCheck(
  entry: TypeExpectations,
  mine: readonly ExpectOp[],
  version: string | null,
): Promise<ExpectViolation[]> {
  const documents = mine
    .filter((o) => !o.deleted)
    .map((o) => ({ namespace: o.namespace, type: o.type, id: o.id, data: o.data }));
  const removed = mine.filter((o) => o.deleted).map((o) => o.id);
  const problems = await entry.runCheck!(documents, {
    namespace: entry.namespace,
    type: entry.type,
    removed,
    version,
  });
  return problems.map((p) => ({ ...p, expectation: 'check', message: p.message.slice(0, MAX_CHECK_MESSAGE) }));
}

/**
 * A DocumentStore write's expectations as a step of its derive hook: evaluated on each attempt's tip;
 * throws `ExpectationsFailed` (the first 50 violations, their count, the tip) when any is broken.
 *
 * @example
 * const seen = new ExpectCollector(expect);
 * const check = expectHook(store, expect, () => seen.ops);
 * await store.commit(changes, { derive: async (base) => { await check(base); return derive(base); } });
 */
export function expectHook(
  store: Pick<RefStore, 'list' | 'get' | 'readMany'>,
  entries: readonly TypeExpectations[],
  ops: () => readonly ExpectOp[],
): (base: DeriveBase) => Promise<void> {
  return async (base) => {
    const violations = await evaluateExpectations(store, base, entries, ops());
    if (violations.length > 0) {
      throw new ExpectationsFailed(violations.slice(0, MAX_EXPECT_VIOLATIONS), base.version, violations.length);
    }
  };
}
