import { type Delta, deltaFrom } from './delta.js';
import { type Key, rangeFor, rangesFor, type SearchManifest, type ShardRef } from './manifest.js';
import { deltaPartPath } from './paths.js';

/**
 * Parts a write cuts the delta into (fewer when the type has fewer shards): one per group of shards.
 * 32, not 16: at 10,000 documents (26 shards) a part then covers one shard, so a query reads about
 * half the pending bytes (~45 KB, not ~85 KB, steady state on bench/search-corpus.ts).
 */
export const DELTA_PARTS = 32;

/**
 * The path of delta part `i` of the manifest.
 *
 * @example
 * deltaPartPathOf(m, 0); // '_docdb/search/github/repo/delta/0.txt'
 */
export function deltaPartPathOf(m: SearchManifest, i: number): string {
  return deltaPartPath(m.namespace, m.type, m.deltas[i]!.name);
}

/**
 * Every delta part's path, in order.
 *
 * @example
 * deltaPartPaths(m); // ['…/delta/0.txt', '…/delta/1.txt']
 */
export function deltaPartPaths(m: SearchManifest): string[] {
  return m.deltas.map((_, i) => deltaPartPathOf(m, i));
}

/**
 * Consecutive shards one part covers when the type has `shards` shards.
 *
 * @example
 * shardsPerPart(26); // 1
 * shardsPerPart(223); // 7
 */
export function shardsPerPart(shards: number): number {
  return Math.ceil(shards / DELTA_PARTS);
}

/**
 * Parts for `shards`: groups of consecutive shards, each part starting where its first shard starts.
 *
 * @example
 * partLayout(m.shards); // [{ name: '0', lower: null }, { name: '1', lower: ['kiwi', 0] }, …]
 */
export function partLayout(shards: readonly ShardRef[]): ShardRef[] {
  const size = shardsPerPart(shards.length);
  const out: ShardRef[] = [];
  for (let i = 0; i < shards.length; i += size) out.push({ name: String(out.length), lower: shards[i]!.lower });
  return out;
}

/**
 * Indexes of the parts a query word's range covers (none when the delta has no parts).
 *
 * @example
 * partsForRange(m, 'da', false); // [2]
 */
export function partsForRange(m: SearchManifest, prefix: string, exact: boolean): number[] {
  return rangesFor(m.deltas, prefix, exact);
}

/**
 * Parse delta part `i` read back (untrusted): the shard line format with tombstones, every entry inside
 * the part's bounds; absent or damaged is `InvalidResponse` naming its key.
 *
 * @example
 * const entries = loadDeltaPart(m, 0, bytes);
 */
export function loadDeltaPart(m: SearchManifest, i: number, bytes: Uint8Array | null): Delta {
  const bounds = { lower: m.deltas[i]!.lower, upper: m.deltas[i + 1]?.lower ?? null };
  return deltaFrom(m, bytes, { key: deltaPartPathOf(m, i), ...bounds, absent: 'the manifest lists it' });
}

/**
 * `over`'s entries laid over `under` (in place): the newer level wins for the same (term, ordinal).
 *
 * @example
 * overlay(partsEntries, topDelta);
 */
export function overlay(under: Delta, over: Delta): Delta {
  for (const [term, entries] of over) {
    const e = under.get(term);
    if (!e) under.set(term, new Map(entries));
    else for (const [o, p] of entries) e.set(o, p);
  }
  return under;
}

/**
 * Split entries by the part of `parts` each (term, ordinal) falls in: one Delta per part.
 *
 * @example
 * splitByPart(pending, partLayout(shards)); // [Delta of part 0, Delta of part 1, …]
 */
export function splitByPart(entries: Delta, parts: readonly ShardRef[]): Delta[] {
  const out: Delta[] = parts.map(() => new Map());
  for (const [term, e] of entries) {
    for (const [o, p] of e) {
      const key: Key = [term, o];
      const part = out[rangeFor(parts, key)]!;
      let into = part.get(term);
      if (!into) {
        into = new Map();
        part.set(term, into);
      }
      into.set(o, p);
    }
  }
  return out;
}
