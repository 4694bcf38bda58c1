/**
 * A query's `where` and `orderBy` over records already in memory (a data file's rows in the viewer),
 * with exactly the semantics of `DocumentStore.query` (docs/indexes.md "Queries"): the same `matches`,
 * the same total order of values, ties by id.
 */
import { matches, pageOrder, sortValue } from './indexes/evaluate.js';
import type { WhereClause } from './indexes/query.js';
import { MISSING, storedValue } from './indexes/values.js';

/** A record as a query sees it: an id and the `data` its fields (`data.<path>`) are read from. */
export interface MemoryRecord {
  id: string;
  data: unknown;
}

/**
 * The records that meet every clause of `where`, in `orderBy`'s order (by id when none). `where` and
 * `orderBy` as `parseWhere` / `parseOrderBy` give them. A value an index could not hold at a named field
 * is `InvalidDocument`, as a query over those documents would answer.
 *
 * @example
 * filterRecords(rows, [parseWhere('data.stars>=10')], parseOrderBy('-data.stars'));
 */
export function filterRecords<T extends MemoryRecord>(
  records: readonly T[],
  where: readonly WhereClause[],
  orderBy?: { field: string; direction: 'asc' | 'desc' },
): T[] {
  const desc = orderBy?.direction === 'desc';
  const at = (r: T, field: string) => storedValue(r.id, r.data, field, true);
  return records
    .filter((r) => where.every((w) => matches(at(r, w.field), w) === true))
    .map((r) => ({ r, id: r.id, sort: orderBy ? sortValue(at(r, orderBy.field), desc) : MISSING }))
    .sort(pageOrder(desc))
    .map((k) => k.r);
}
