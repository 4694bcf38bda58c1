/**
 * Reading an in-order plan a part at a time (docs/indexes.md "Planning": when the run's order is the
 * result's order, a reader may read parts one by one and stop once a page is full). A table that shows the
 * first 200 rows of a 10,000-document type then reads the manifest and ONE part, not the whole run: on an
 * anonymous visit each part is one contents request of GitHub's 60 an hour.
 *
 * The rule that makes it exact: parts are consecutive slices of the run sorted by `(key, id)`, so every
 * row of an unread part sorts after (before, descending) every row read. A page is settled once more than
 * `limit` rows of the parts read *certainly* match, sort after the cursor and before the unread parts —
 * a cut value (a long string stored as its prefix) never counts, since only its document decides its order.
 * It holds for a whole run only (every row of an unread document is then unread too); a plan narrowed to a
 * clause's range on the run's own field is read whole, as before.
 * The settled rows then go through `evaluate` unchanged, which pages, sorts and settles cut values.
 */

import { matches, sortValue } from './evaluate.js';
import type { Manifest } from './format.js';
import type { QueryPlan } from './plan.js';
import { decodeCursor, type IndexQuery } from './query.js';
import type { Row, Separator } from './rows.js';
import { certainCompare, isCut, type Stored } from './values.js';

type IndexPlan = Extract<QueryPlan, { kind: 'index' }>;
type PlannedPart = IndexPlan['parts'][number];

/** `(sort, id)` against `(key, id)`: negative, 0, positive, or undefined when a cut value leaves it open. */
function certainPosition(sort: Stored, id: string, key: Stored, otherId: string): number | undefined {
  const c = certainCompare(sort, key);
  if (c === undefined || isCut(sort) || isCut(key)) return c === 0 ? undefined : c;
  return c !== 0 ? c : id < otherId ? -1 : id > otherId ? 1 : 0;
}

/** Where the cursor left off, as a position in the run: without orderBy, rows sort by id alone. */
function cursorPosition(q: IndexQuery): { sort: Stored; id: string } | undefined {
  if (q.cursor === undefined) return undefined;
  const after = decodeCursor(q, q.cursor);
  return q.orderBy ? after : { sort: after.id, id: after.id };
}

/** The plan's parts in the order a page reads them, without the parts a cursor has already passed. */
export function partsInPageOrder(m: Manifest, plan: IndexPlan, q: IndexQuery): PlannedPart[] {
  const desc = q.orderBy?.direction === 'desc';
  const after = cursorPosition(q);
  const lowers = m.runs[m.fields.indexOf(plan.field)]!.parts.map((p) => p.lower);
  const passed = (p: PlannedPart): boolean => {
    if (!after) return false;
    if (desc) {
      // Every row of the part is >= its lower bound; above the cursor, the previous pages showed them.
      const lower = lowers[p.index];
      return !!lower && (certainPosition(lower[0], lower[1], after.sort, after.id) ?? -1) > 0;
    }
    const next = lowers[p.index + 1];
    return !!next && (certainPosition(next[0], next[1], after.sort, after.id) ?? 1) <= 0;
  };
  const parts = plan.parts.filter((p) => !passed(p));
  return desc ? parts.reverse() : parts;
}

/**
 * Whether `rows` (all rows of the parts read so far) hold the whole page: more than `limit` rows certainly
 * match, follow the cursor and precede `bound` — the lower separator of the next unread part (ascending),
 * or of the last part read (descending); null: no unread part on that side.
 */
export function pageSettled(
  m: Manifest,
  plan: IndexPlan,
  q: IndexQuery,
  rows: readonly Row[],
  bound: Separator | null,
): boolean {
  if (q.limit === undefined) return bound === null;
  const desc = q.orderBy?.direction === 'desc';
  const dir = desc ? -1 : 1;
  const fi = m.fields.indexOf(plan.field);
  const where = (q.where ?? []).map((w) => ({ w, fi: m.fields.indexOf(w.field) }));
  const after = cursorPosition(q);
  const seen = new Set<string>();
  let settled = 0;
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    if (!where.every(({ w, fi: wi }) => matches(row.values[wi]!, w) === true)) continue;
    const sort = q.orderBy ? sortValue(row.values[fi]!, desc) : row.id;
    if (isCut(sort) || (Array.isArray(row.values[fi]) && (row.values[fi] as Stored[]).some(isCut))) continue;
    if (after && dir * (certainPosition(sort, row.id, after.sort, after.id) ?? -dir) <= 0) continue;
    if (bound && dir * (certainPosition(sort, row.id, bound[0], bound[1]) ?? dir) >= 0) continue;
    if (++settled > q.limit) return true;
  }
  return bound === null;
}

/**
 * The rows that answer `q`: all parts of the plan when its run is not in the query's order (or it has no
 * limit); else parts in page order, 1, then 2, 4, … at a time, until the page is settled.
 *
 * @example
 * const rows = await plannedRows(manifest, plan, query, async (paths) => readParts(paths));
 */
export async function plannedRows(
  m: Manifest,
  plan: IndexPlan,
  q: IndexQuery,
  read: (parts: readonly PlannedPart[]) => Promise<Row[]>,
): Promise<Row[]> {
  const lowers = m.runs[m.fields.indexOf(plan.field)]!.parts.map((p) => p.lower);
  // Only a whole run keeps every row of an unread document in the unread parts: a clause on the run's own
  // field narrows it to the parts of its range, where an array's matching element need not be its sort key.
  if (!plan.inOrder || q.limit === undefined || plan.parts.length < lowers.length) return read(plan.parts);
  const order = partsInPageOrder(m, plan, q);
  const desc = q.orderBy?.direction === 'desc';
  const rows: Row[] = [];
  let batch = 1;
  for (let at = 0; at < order.length; batch *= 2) {
    const next = order.slice(at, at + batch);
    at += next.length;
    rows.push(...(await read(next)));
    const edge = next[next.length - 1]!;
    const bound = at >= order.length ? null : desc ? lowers[edge.index] : lowers[edge.index + 1];
    if (pageSettled(m, plan, q, rows, bound ?? null)) break;
  }
  return rows;
}
