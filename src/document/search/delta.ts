/**
 * The delta: one small file of recent postings and tombstones, so a write of a few documents rewrites
 * it instead of every term shard its words fall in (a document's ~60 terms spread over the whole term
 * range). Same line format as a shard (shard.ts) with tombstones allowed: a posting of no field says
 * "(term, ordinal) is gone". An entry overrides the shards' posting of the same (term, ordinal). When
 * the delta outgrows its bound, a write merges all of it into the shards it touches and empties it.
 */
import { InvalidResponse } from '../../core/errors.js';
import type { Key, SearchManifest } from './manifest.js';
import { deltaPath } from './paths.js';
import { codingOf, encodeShard, type Line, type Posting, parseShard } from './shard.js';

/** term → ordinal → posting (a tombstone when every tf is 0). */
export type Delta = Map<string, Map<number, Posting>>;

/**
 * Most bytes of the delta before a write merges it: a quarter of a shard, at most 32 KiB.
 *
 * @example
 * deltaBound(131072); // 32768
 */
export function deltaBound(maxShardBytes: number): number {
  return Math.min(32 * 1024, Math.floor(maxShardBytes / 4));
}

/**
 * Whether a delta entry says its (term, ordinal) is gone.
 *
 * @example
 * isTombstone({ ordinal: 3, tf: [0, 0], norm: [0, 0] }); // true
 */
export function isTombstone(p: Posting): boolean {
  return p.tf.every((x) => x === 0);
}

/**
 * Parse the delta read back (untrusted; absent is `InvalidResponse` naming its key, as for a shard).
 *
 * @example
 * const delta = parseDelta(m, bytes);
 */
export function parseDelta(m: SearchManifest, bytes: Uint8Array | null): Delta {
  const key = deltaPath(m.namespace, m.type);
  return deltaFrom(m, bytes, { key, lower: null, upper: null, absent: 'the index needs it' });
}

/** Where a delta file sits: its key, the term range its entries must fall in, and why it must exist. */
export interface DeltaFile {
  key: string;
  lower: Key | null;
  upper: Key | null;
  /** Why its absence is damage (the end of "… is absent though …"). */
  absent: string;
}

/**
 * Parse a delta file (`delta.txt` or a part) read back, untrusted: the shard line format with tombstones, every
 * entry inside `f`'s bounds; absent or damaged is `InvalidResponse` naming its key.
 *
 * @example
 * const entries = deltaFrom(m, bytes, { key, lower: null, upper: null, absent: 'the index needs it' });
 */
export function deltaFrom(m: SearchManifest, bytes: Uint8Array | null, f: DeltaFile): Delta {
  if (bytes === null) {
    throw new InvalidResponse(
      `search delta ${f.key} is absent though ${f.absent}; the search index must be rebuilt (docs.rebuildSearch)`,
      { key: f.key },
    );
  }
  const lines = parseShard(bytes, {
    key: f.key,
    coding: codingOf(m, true),
    next: m.next,
    lower: f.lower,
    upper: f.upper,
  });
  return new Map(lines.map((l) => [l.term, new Map(l.postings.map((p) => [p.ordinal, p]))]));
}

/**
 * The delta's bytes: terms in order, ordinals in order.
 *
 * @example
 * encodeDelta(new Map(), m); // empty
 */
export function encodeDelta(delta: Delta, m: SearchManifest): Uint8Array {
  const lines: Line[] = [...delta.keys()]
    .sort()
    .filter((term) => delta.get(term)!.size > 0)
    .map((term) => ({ term, postings: [...delta.get(term)!.values()].sort((a, b) => a.ordinal - b.ordinal) }));
  return encodeShard(lines, codingOf(m, true));
}

/**
 * The postings of `term` once the delta is applied to the shards' postings (in ordinal order).
 *
 * @example
 * withDelta('git', shardPostings, delta);
 */
export function withDelta(term: string, postings: readonly Posting[], delta: Delta): Posting[] {
  const entries = delta.get(term);
  if (!entries || entries.size === 0) return [...postings];
  const out = postings.filter((p) => !entries.has(p.ordinal));
  for (const p of entries.values()) if (!isTombstone(p)) out.push(p);
  return out.sort((a, b) => a.ordinal - b.ordinal);
}

/**
 * Delta terms in order (for queries: terms that may be in no shard yet).
 *
 * @example
 * deltaTerms(parseDelta(m, bytes)); // ['git', 'search']
 */
export function deltaTerms(delta: Delta): string[] {
  return [...delta.keys()].filter((t) => delta.get(t)!.size > 0).sort();
}
