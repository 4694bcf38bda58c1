/**
 * One read per key per write attempt: the declarations hook (declarations.ts) hands the index work and
 * the search work the same `base`, whose reads are remembered — the previous versions of the written
 * documents, which both need, cost one read, not two (and the first read round is not read again).
 */
import type { DeriveBase, DerivedRead } from '../core/refstore.js';

/**
 * `base`, remembering every value read through it (seeded with the first read round's answer).
 *
 * @example
 * const shared = sharedReads(base, first);
 * await shared.read(['a.json']); // read once…
 * await shared.read(['a.json']); // …then answered from memory
 */
export function sharedReads(base: DeriveBase, first: ReadonlyMap<string, DerivedRead | null>): DeriveBase {
  const known = new Map<string, DerivedRead | null>(first);
  return {
    version: base.version,
    written: (key) => base.written(key),
    read: async (keys) => {
      const todo = [...new Set(keys.filter((k) => !known.has(k)))];
      if (todo.length > 0) {
        const got = await base.read(todo);
        for (const k of todo) known.set(k, got.get(k) ?? null);
      }
      return new Map(keys.map((k) => [k, known.get(k) ?? null]));
    },
  };
}
