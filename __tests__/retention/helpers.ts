/** Helpers of the retention tests: sections with a known history, and writers that land mid-compaction. */
import type { RefStore, ReplaceHistoryOptions } from '../../src/core/refstore.js';

/** `n` commits on `store`, each changing `log/<i>.json` and `state.json`; their versions, oldest first. */
export async function history(store: RefStore, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = await store.commit(
      [
        { op: 'put', key: `log/${i}.json`, value: `{"i":${i}}` },
        { op: 'put', key: 'state.json', value: `{"n":${i}}` },
      ],
      { message: `run ${i}` },
    );
    out.push(w.version!);
  }
  return out;
}

/**
 * `store`, except that its first `times` calls of `replaceHistory` first run `writers` (other writers that
 * land after the compaction listed the section and before it moves the ref).
 */
export function racing(store: RefStore, writers: () => Promise<unknown>, times = 1): RefStore & { races: number } {
  let left = times;
  const state = { races: 0 };
  return new Proxy(store, {
    get(target, p) {
      if (p === 'races') return state.races;
      if (p === 'replaceHistory') {
        return async (o: ReplaceHistoryOptions) => {
          if (left-- > 0) {
            state.races++;
            await writers();
          }
          return target.replaceHistory!(o);
        };
      }
      const v = Reflect.get(target, p, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as RefStore & { races: number };
}

/**
 * Eight writers, each putting its own key `writers/<w>.json` `rounds` times: the values each wrote last, and
 * the versions (commits) of every write that landed.
 */
export function eightWriters(
  peer: () => RefStore,
  rounds = 2,
): { run: () => Promise<void>; last: Map<string, string>; versions: string[] } {
  const last = new Map<string, string>();
  const versions: string[] = [];
  let round = 0;
  return {
    last,
    versions,
    run: async () => {
      const r = round++;
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          const s = peer();
          for (let i = 0; i < rounds; i++) {
            const value = `{"w":${w},"round":${r},"i":${i}}`;
            versions.push((await s.put(`writers/${w}.json`, value)).version!);
            last.set(`writers/${w}.json`, value);
          }
        }),
      );
    },
  };
}
