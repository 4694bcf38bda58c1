/**
 * The `expect` option of a DocumentStore write, joined to its `guard`: the documents are collected as the
 * write goes by, and each attempt's tip is checked after the caller's guard and before the index is
 * derived — so a failed expectation ends the write before anything is committed.
 */
import type { DeriveBase, RefStore } from '../../core/refstore.js';
import { ExpectCollector } from './collect.js';
import { expectHook } from './evaluate.js';
import { validateExpect } from './validate.js';

type Guard = (base: DeriveBase) => Promise<void>;

/**
 * The write's guard with its expectations after it, and the collector to feed its documents to (none
 * without `expect`: the guard is returned as given).
 *
 * @example
 * const x = expectingWrite(store, options.expect, options.guard);
 * x.collector?.takeOps(ops, changes);
 * await store.commit(changes, { derive: async (base) => { await x.guard?.(base); return derive(base); } });
 */
export function expectingWrite(
  store: Pick<RefStore, 'list' | 'get' | 'readMany'>,
  expect: unknown,
  guard?: Guard,
  dataOf?: (key: string) => unknown,
): { collector?: ExpectCollector; guard?: Guard } {
  if (expect === undefined) return guard ? { guard } : {};
  const entries = validateExpect(expect);
  const collector = new ExpectCollector(entries, dataOf);
  const check = expectHook(store, entries, () => collector.ops);
  return {
    collector,
    guard: async (base) => {
      await guard?.(base);
      await check(base);
    },
  };
}
