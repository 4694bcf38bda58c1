/**
 * A query's `where` and `orderBy` over records already in memory (a data file's rows in the viewer),
 * with exactly the semantics of `DocumentStore.query` (docs/indexes.md "Queries"): the same `matches`,
 * the same total order of values, ties by id. A value an index could not hold (an object, an array of
 * objects) matches only `exists` and sorts after every other value.
 */
import { matches, pageOrder, sortValue } from './indexes/evaluate.js';
import type { WhereClause } from './indexes/query.js';
import { MISSING, type Stored, storedValue } from './indexes/values.js';

/** A record as a query sees it: an id and the `data` its fields (`data.<path>`) are read from. */
export interface MemoryRecord {
  id: string;
  data: unknown;
}

type Value = { stored: Stored } | { unindexable: true };

function fieldOf(r: MemoryRecord, field: string): Value {
  try {
    return { stored: storedValue(r.id, r.data, field, true) };
  } catch {
    return { unindexable: true };
  }
}

function meets(r: MemoryRecord, w: WhereClause): boolean {
  const v = fieldOf(r, w.field);
  if ('unindexable' in v) return w.op === 'exists' && w.value === true;
  return matches(v.stored, w) === true;
}

/**
 * The records that meet every clause of `where`, in `orderBy`'s order (by id when none). `where` and
 * `orderBy` as `parseWhere` / `parseOrderBy` give them.
 *
 * @example
 * filterRecords(rows, [parseWhere('data.stars>=10')], parseOrderBy('-data.stars'));
 */
export function filterRecords<T extends MemoryRecord>(
  records: readonly T[],
  where: readonly WhereClause[],
  orderBy?: { field: string; direction: 'asc' | 'desc' },
): T[] {
  const kept = records.filter((r) => where.every((w) => meets(r, w)));
  const desc = orderBy?.direction === 'desc';
  const order = pageOrder(desc);
  const keyed = kept.map((r) => {
    const v = orderBy ? fieldOf(r, orderBy.field) : { stored: MISSING as Stored };
    return { r, last: 'unindexable' in v, sort: 'stored' in v ? sortValue(v.stored, desc) : MISSING, id: r.id };
  });
  keyed.sort((a, b) =>
    a.last !== b.last ? (a.last ? 1 : -1) : orderBy ? order(a, b) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  return keyed.map((k) => k.r);
}
