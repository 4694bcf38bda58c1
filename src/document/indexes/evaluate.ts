/**
 * Answer a query from the rows of the planned parts. Semantics (docs/indexes.md, issue 28 item 3):
 * - `=`, `in`, `<` `<=` `>` `>=` compare a scalar value with a value of the same JSON type only (a
 *   number never equals or orders against a string); an array value matches only `contains`;
 * - `exists: true` matches any value, `null` included; `exists: false` matches an absent field;
 * - order: by the orderBy field in the total order of values.ts (an array sorts by its smallest
 *   element ascending, its largest descending — MongoDB's rule), then by id; without orderBy, by id.
 *
 * A row whose long string was cut may leave a clause, the order or a projected field undecided: the
 * result is then `needs-documents`, listing those documents; the caller reads them and calls again
 * with their data added to `exact`. Settling the filter and order can bring other rows onto the page,
 * whose projected fields may need their documents in turn: at most two rounds (property-tested).
 */
import { InvalidConfig } from '../../core/errors.js';
import type { Manifest } from './format.js';
import { decodeCursor, encodeCursor, type IndexQuery, type WhereClause } from './query.js';
import type { Row } from './rows.js';
import { certainCompare, compareStored, isCut, isMissing, type Stored, storedValue, storeScalar } from './values.js';

export interface ResultRow {
  id: string;
  blobSha: string;
  /** The projected fields' values (exact unless a value was cut and `exact` lacked the document). */
  values: Record<string, Stored>;
}

export type QueryResult =
  | { kind: 'rows'; rows: ResultRow[]; cursor?: string }
  | { kind: 'needs-documents'; documents: { id: string; blobSha: string }[] };

type Verdict = boolean | undefined;

function equalTo(v: Stored, q: unknown): Verdict {
  if (isCut(v))
    return typeof q === 'string' && isCut(storeScalar(q)) && compareStored(v, storeScalar(q)) === 0 ? undefined : false;
  return v === q;
}

function inRange(v: Stored, w: WhereClause): Verdict {
  const q = w.value as number | string;
  if (typeof v !== typeof q && !(typeof q === 'string' && isCut(v))) return false;
  const c = certainCompare(v, q);
  if (c === undefined) return undefined;
  return w.op === '<' ? c < 0 : w.op === '<=' ? c <= 0 : w.op === '>' ? c > 0 : c >= 0;
}

function any(vs: Verdict[]): Verdict {
  return vs.includes(true) ? true : vs.includes(undefined) ? undefined : false;
}

/** Whether a stored value meets a clause (undefined: a cut value leaves it open). */
export function matches(v: Stored, w: WhereClause): Verdict {
  switch (w.op) {
    case 'exists':
      return isMissing(v) !== w.value;
    case '=':
      return Array.isArray(v) ? false : equalTo(v, w.value);
    case 'in':
      return Array.isArray(v) ? false : any((w.value as unknown[]).map((q) => equalTo(v, q)));
    case 'contains':
      return Array.isArray(v) ? any(v.map((e) => equalTo(e, w.value))) : false;
    default:
      return Array.isArray(v) || isMissing(v) ? false : inRange(v, w);
  }
}

/** What a document sorts by: its value, or its smallest (asc) / largest (desc) element. */
export function sortValue(v: Stored, desc: boolean): Stored {
  if (!Array.isArray(v) || v.length === 0) return v;
  return v.reduce((a, b) => (compareStored(b, a) < 0 !== desc ? b : a));
}

interface Candidate {
  row: Row;
  values: Stored[];
  sort: Stored;
}

/** Ids whose order against another candidate a cut value leaves undecided. */
function undecidedOrder(cands: Candidate[], fi: number | undefined): Set<string> {
  const out = new Set<string>();
  if (fi === undefined) return out;
  const cut = cands.filter(
    (c) => isCut(c.sort) || (Array.isArray(c.values[fi]) && (c.values[fi] as Stored[]).some(isCut)),
  );
  for (const c of cut) {
    out.add(c.row.id);
    for (const o of cands) if (o !== c && certainCompare(c.sort, o.sort) === undefined) out.add(o.row.id);
  }
  return out;
}

/**
 * Evaluate a validated query over the rows of the parts `planQuery` chose (in any order; several rows
 * of one document are fine). `exact` maps ids to document data read after a `needs-documents` answer.
 *
 * @example
 * const result = evaluate(manifest, query, rows);
 * if (result.kind === 'rows') console.log(result.rows.map((r) => r.id), result.cursor);
 */
export function evaluate(
  m: Manifest,
  q: IndexQuery,
  rows: readonly Row[],
  exact: ReadonlyMap<string, unknown> = new Map(),
): QueryResult {
  // `id` not declared is read from the row itself: the position one past the declared values.
  const ID = m.fields.length;
  const fieldIndex = (f: string) => {
    const i = m.fields.indexOf(f);
    if (i < 0 && f === 'id') return ID;
    if (i < 0)
      throw new InvalidConfig('fields', `${f} is not indexed for ${m.namespace}/${m.type}; plan the query first`);
    return i;
  };
  const where = (q.where ?? []).map((w) => ({ w, fi: fieldIndex(w.field) }));
  const orderFi = q.orderBy ? fieldIndex(q.orderBy.field) : undefined;
  const desc = q.orderBy?.direction === 'desc';
  const projected = (q.fields ?? m.fields).map((f) => ({ f, fi: fieldIndex(f) }));
  const needs = new Map<string, string>();
  const seen = new Set<string>();
  const cands: Candidate[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const data = exact.get(row.id);
    const values = [
      ...(data === undefined ? row.values : m.fields.map((f) => storedValue(row.id, data, f, true))),
      row.id,
    ];
    const verdict = where.reduce<Verdict>((acc, { w, fi }) => {
      const v = matches(values[fi]!, w);
      return acc === false || v === false ? false : acc === undefined || v === undefined ? undefined : true;
    }, true);
    if (verdict === undefined) needs.set(row.id, row.blobSha);
    if (verdict !== false)
      cands.push({ row, values, sort: orderFi === undefined ? null : sortValue(values[orderFi]!, desc) });
  }
  for (const id of undecidedOrder(cands, orderFi)) needs.set(id, cands.find((c) => c.row.id === id)!.row.blobSha);
  const page = pageOf(q, cands, desc);
  for (const c of page.rows) {
    if (
      projected.some(
        ({ fi }) => isCut(c.values[fi]!) || (Array.isArray(c.values[fi]) && (c.values[fi] as Stored[]).some(isCut)),
      )
    ) {
      needs.set(c.row.id, c.row.blobSha);
    }
  }
  if (needs.size > 0)
    return { kind: 'needs-documents', documents: [...needs].map(([id, blobSha]) => ({ id, blobSha })) };
  const out: ResultRow[] = page.rows.map((c) => ({
    id: c.row.id,
    blobSha: c.row.blobSha,
    values: Object.fromEntries(projected.map(({ f, fi }) => [f, c.values[fi]!])),
  }));
  return page.cursor === undefined ? { kind: 'rows', rows: out } : { kind: 'rows', rows: out, cursor: page.cursor };
}

/**
 * A query's page order: by sort value (descending when `desc`), then by id — the one order pages, cursors
 * and the check of returned documents (query-verify.ts) agree on.
 *
 * @example
 * const order = pageOrder(false);
 * order({ sort: 1, id: 'a' }, { sort: 2, id: 'b' }); // < 0
 */
export function pageOrder(desc: boolean): (a: { sort: Stored; id: string }, b: { sort: Stored; id: string }) => number {
  const dir = desc ? -1 : 1;
  return (a, b) => dir * (compareStored(a.sort, b.sort) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Sort, skip past the cursor, cut to the limit; a cursor when more rows remain. */
function pageOf(q: IndexQuery, cands: Candidate[], desc: boolean): { rows: Candidate[]; cursor?: string } {
  const order = pageOrder(desc);
  const sorted = cands.sort((a, b) => order({ sort: a.sort, id: a.row.id }, { sort: b.sort, id: b.row.id }));
  const after = q.cursor === undefined ? undefined : decodeCursor(q, q.cursor);
  const rest = after ? sorted.filter((c) => order({ sort: c.sort, id: c.row.id }, after) > 0) : sorted;
  if (q.limit === undefined || rest.length <= q.limit) return { rows: rest };
  const rows = rest.slice(0, q.limit);
  const last = rows[rows.length - 1]!;
  return { rows, cursor: encodeCursor(q, { sort: last.sort, id: last.row.id }) };
}
