/**
 * One read per key per write attempt, and one round for work running side by side: the declarations hook
 * (declarations.ts) runs the index work and the search work together on the same `base`, whose reads are
 * remembered — the previous versions of the written documents, which both need, cost one read, not two —
 * and gathered: reads asked for in the same turn of the event loop (the index parts and the search shards,
 * each asked once its work has the previous documents) go out as ONE `base.read`, so a type with both an
 * index and a search costs the rounds of one.
 */
import type { DeriveBase, DerivedRead } from '../core/refstore.js';

type Answer = Map<string, DerivedRead | null>;

/**
 * `base`, remembering every value read through it (seeded with the first read round's answer) and
 * gathering the reads asked for in one turn into one.
 *
 * @example
 * const shared = sharedReads(base, first);
 * await Promise.all([shared.read(['a.json']), shared.read(['b.json'])]); // one base.read(['a.json', 'b.json'])
 * await shared.read(['a.json']); // answered from memory
 */
export function sharedReads(base: DeriveBase, first: ReadonlyMap<string, DerivedRead | null>): DeriveBase {
  const known = new Map<string, DerivedRead | null>(first);
  let pending: { keys: Set<string>; done: Promise<void> } | undefined;
  const gather = (keys: readonly string[]): Promise<void> => {
    if (!pending) {
      const batch = { keys: new Set<string>(), done: Promise.resolve() };
      // A macrotask: every piece of work that is only awaiting memory gets to ask before the round goes out.
      batch.done = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
        if (pending === batch) pending = undefined;
        const todo = [...batch.keys];
        const got = await base.read(todo);
        for (const k of todo) known.set(k, got.get(k) ?? null);
      });
      pending = batch;
    }
    for (const k of keys) pending.keys.add(k);
    return pending.done;
  };
  return {
    version: base.version,
    written: (key) => base.written(key),
    read: async (keys): Promise<Answer> => {
      const todo = keys.filter((k) => !known.has(k));
      if (todo.length > 0) await gather(todo);
      return new Map(keys.map((k) => [k, known.get(k) ?? null]));
    },
  };
}
