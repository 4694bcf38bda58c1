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

import { appendAll } from '../../core/arrays.js';
import { InvalidResponse } from '../../core/errors.js';
import { DEFAULT_MAX_PART_BYTES } from './build.js';
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
    // A clause on an undeclared `id` (wi < 0) reads the row's own id (plan.ts: every row carries it).
    if (!where.every(({ w, fi: wi }) => matches(wi < 0 ? row.id : row.values[wi]!, w) === true)) continue;
    const sort = q.orderBy ? sortValue(row.values[fi]!, desc) : row.id;
    if (isCut(sort) || (Array.isArray(row.values[fi]) && (row.values[fi] as Stored[]).some(isCut))) continue;
    if (after && dir * (certainPosition(sort, row.id, after.sort, after.id) ?? -dir) <= 0) continue;
    if (bound && dir * (certainPosition(sort, row.id, bound[0], bound[1]) ?? dir) >= 0) continue;
    if (++settled > q.limit) return true;
  }
  return bound === null;
}

/** Parts a query may read beyond what the bytes it has read justify (item 6 of issue 37). */
export const PART_READ_SLACK = 8;

/**
 * How many parts a query may have read once the parts read hold `bytes`: {@link PART_READ_SLACK}, plus 2 per
 * further range of parts the plan reads, plus one per 1/16 of the part bound. A docdb writer leaves a part under 1/8 of the bound only beside one over 7/8
 * of it (update.ts merges the rest), so its parts always fit; a manifest listing thousands of tiny parts
 * is stopped after a few, instead of costing one request per part.
 */
export function partBudget(bytes: number, maxPartBytes: number, groups = 1): number {
  // An `in` clause plans several separate ranges of parts; each may start and end with a small part.
  return PART_READ_SLACK + 2 * (groups - 1) + Math.ceil(bytes / (maxPartBytes / 16));
}

/** How many runs of consecutive parts `parts` holds (an `in` clause plans one per value, at most 100). */
function groupsOf(parts: readonly PlannedPart[]): number {
  let groups = 0;
  parts.forEach((p, i) => {
    if (i === 0 || p.index !== parts[i - 1]!.index + 1) groups++;
  });
  return Math.max(1, groups);
}

/** What a read of some parts gave: their rows, and their size in bytes. */
export interface PartsRead {
  rows: Row[];
  bytes: number;
}

/** The rows read, and whether they are every row of the run (every part read: the manifest's count must hold). */
export interface PlannedRead {
  rows: Row[];
  whole: boolean;
}

function tooManyParts(m: Manifest, listed: number, read: number, bytes: number): InvalidResponse {
  return new InvalidResponse(
    `the index of ${m.namespace}/${m.type} lists ${listed} parts for this query, and the ${read} read hold only ${bytes} bytes: far smaller parts than a docdb writer leaves, so the query stops rather than read them all; the index must be rebuilt (declareIndexes)`,
    { namespace: m.namespace, type: m.type, parts: listed, read, bytes },
  );
}

/**
 * The rows that answer `q`: when its run is in the query's order and it has a limit, parts in page order,
 * 1, then 2, 4, … at a time, until the page is settled; else all parts of the plan, {@link PART_READ_SLACK}
 * first and then the rest. Either way never more parts than {@link partBudget} allows for the bytes read
 * (`InvalidResponse` when the plan needs more).
 *
 * @example
 * const { rows, whole } = await plannedRows(manifest, plan, query, async (parts) => readParts(parts), 131072);
 */
export async function plannedRows(
  m: Manifest,
  plan: IndexPlan,
  q: IndexQuery,
  read: (parts: readonly PlannedPart[]) => Promise<PartsRead>,
  maxPartBytes = DEFAULT_MAX_PART_BYTES,
): Promise<PlannedRead> {
  const lowers = m.runs[m.fields.indexOf(plan.field)]!.parts.map((p) => p.lower);
  // Only a whole run keeps every row of an unread document in the unread parts: a clause on the run's own
  // field narrows it to the parts of its range, where an array's matching element need not be its sort key.
  const paged = plan.inOrder && q.limit !== undefined && plan.parts.length === lowers.length;
  const order = paged ? partsInPageOrder(m, plan, q) : plan.parts;
  const desc = q.orderBy?.direction === 'desc';
  const rows: Row[] = [];
  let bytes = 0;
  const groups = groupsOf(order);
  let batch = paged ? 1 : PART_READ_SLACK;
  let at = 0;
  while (at < order.length) {
    const allowed = partBudget(bytes, maxPartBytes, groups) - at;
    if (allowed <= 0) throw tooManyParts(m, order.length, at, bytes);
    const next = order.slice(at, at + Math.min(batch, allowed));
    at += next.length;
    const got = await read(next);
    // Not push(...got.rows): a batch of many parts holds more rows than a call takes arguments.
    appendAll(rows, got.rows);
    bytes += got.bytes;
    if (paged) {
      const edge = next[next.length - 1]!;
      const bound = at >= order.length ? null : desc ? lowers[edge.index] : lowers[edge.index + 1];
      if (pageSettled(m, plan, q, rows, bound ?? null)) break;
      batch *= 2;
    } else batch = order.length;
  }
  return { rows, whole: order.length === lowers.length && at === order.length };
}
