/**
 * One page of ranked hits with ids, ties ordered by id (the contract's order is score, then
 * (namespace, type, id); rankSearch can only order ties by ordinal). Only the ids of the page and of
 * the hits tied with its first and last score are read: ties may straddle the page's edges.
 */
import type { TypeSearch } from './declaration.js';
import type { SearchRead } from './need.js';
import type { RankedHit } from './rank.js';
import { idsOf } from './table.js';

export interface PagedHit extends RankedHit {
  id: string;
}

/**
 * Hits `offset`..`offset + limit` of `hits` (rankSearch's order) with their ids, ties by id
 * (NeedFiles protocol: the table parts of the page and its ties).
 *
 * @example
 * const ranked = rankSearch(t, q, read);
 * const page = rankedPage(t, ranked.hits, 0, 20, read); // [{ id, score, fields, terms, ordinal }, …]
 */
export function rankedPage(
  t: TypeSearch,
  hits: readonly RankedHit[],
  offset: number,
  limit: number,
  read: SearchRead,
): PagedHit[] {
  const end = Math.min(hits.length, offset + limit);
  if (offset >= end) return [];
  let lo = offset;
  while (lo > 0 && hits[lo - 1]!.score === hits[offset]!.score) lo--;
  let hi = end;
  while (hi < hits.length && hits[hi]!.score === hits[end - 1]!.score) hi++;
  const window = hits.slice(lo, hi);
  const ids = idsOf(
    t,
    window.map((h) => h.ordinal),
    read,
  );
  const named = window.map((h) => ({ ...h, id: ids.get(h.ordinal)! }));
  named.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return named.slice(offset - lo, offset - lo + (end - offset));
}
