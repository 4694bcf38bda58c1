/**
 * Which parts a query reads. Every run lists every document (a missing value is a row too), so any one
 * field's run can answer the whole query: the planner picks the `where` clause whose key range spans
 * the fewest parts, and reads only those; the other clauses, the order and the projected fields are
 * evaluated on the covering rows (evaluate.ts).
 */
import { InvalidConfig } from '../../core/errors.js';
import { type Manifest, pathOfPart } from './format.js';
import type { IndexQuery, WhereClause } from './query.js';
import { compareStored, MAX_STORED_STRING_BYTES, MISSING, type Stored, storeScalar, utf8Length } from './values.js';

/** A key interval; `undefined` ends are open. */
type Range = { lo?: Stored; hi?: Stored };

export type QueryPlan =
  | { kind: 'not-indexed'; fields: string[]; message: string }
  | {
      kind: 'index';
      /** The run read. */
      field: string;
      /** Parts to read, in run order: `index` into the run, and the part's path in the section. */
      parts: { index: number; path: string }[];
      /**
       * True when the run's order is the result's order (the driving field is the orderBy field, or
       * `id` without orderBy): a caller may read the parts one by one and stop once a page is full.
       */
      inOrder: boolean;
    };

/** A bound for a string `v`: itself, unless some cut prefix could be a prefix of it (then open). */
const stringBound = (v: string): Stored | undefined => (utf8Length(v) > MAX_STORED_STRING_BYTES - 4 ? undefined : v);

function rangesOf(w: WhereClause): Range[] {
  const v = w.value;
  switch (w.op) {
    case '=':
    case 'contains':
      return [{ lo: storeScalar(v as never), hi: storeScalar(v as never) }];
    case 'in':
      return (v as never[]).map((x) => ({ lo: storeScalar(x), hi: storeScalar(x) }));
    case 'exists':
      return v ? [{ lo: [] }] : [{ lo: MISSING, hi: MISSING }];
    case '<':
    case '<=':
      return typeof v === 'number' ? [{ lo: -Infinity, hi: v }] : [{ lo: '', hi: stringBound(v as string) }];
    default:
      return typeof v === 'number' ? [{ lo: v, hi: Infinity }] : [{ lo: stringBound(v as string) ?? '' }];
  }
}

/** Indexes of the parts of run `fi` whose key range can meet one of `ranges`. */
function partsFor(m: Manifest, fi: number, ranges: Range[]): number[] {
  const parts = m.runs[fi]!.parts;
  const hit: number[] = [];
  parts.forEach((p, i) => {
    const next = parts[i + 1]?.lower;
    const meets = (r: Range) =>
      (p.lower === null || r.hi === undefined || compareStored(p.lower[0], r.hi) <= 0) &&
      (!next || r.lo === undefined || compareStored(next[0], r.lo) >= 0);
    if (ranges.some(meets)) hit.push(i);
  });
  return hit;
}

/**
 * Fields the query names that the manifest does not index. `id` is never one: every row of every run
 * carries its document's id, so any run filters, orders and projects by it (issue 40 item 8).
 */
function unindexed(m: Manifest, q: IndexQuery): string[] {
  const named = [...(q.where ?? []).map((w) => w.field), ...(q.orderBy ? [q.orderBy.field] : []), ...(q.fields ?? [])];
  return [...new Set(named.filter((f) => f !== 'id' && !m.fields.includes(f)))];
}

/**
 * The parts of `m` that answer `q` (validated with `validateQuery`), or `not-indexed` naming the fields
 * the index lacks (the caller falls back to reading documents, or throws with `requireIndex`).
 *
 * @example
 * planQuery(manifest, { namespace: 'g', type: 'repo', where: [{ field: 'data.stars', op: '>=', value: 10 }] });
 * // { kind: 'index', field: 'data.stars', parts: [{ index: 7, path: '_docdb/index/g/repo/data.stars/7.jsonl' }, …], inOrder: false }
 */
export function planQuery(m: Manifest, q: IndexQuery): QueryPlan {
  if (m.namespace !== q.namespace || m.type !== q.type) {
    throw new InvalidConfig(
      'namespace',
      `the manifest is for ${m.namespace}/${m.type}, the query for ${q.namespace}/${q.type}`,
    );
  }
  const missing = unindexed(m, q);
  if (missing.length > 0) {
    const message = `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not indexed for ${m.namespace}/${m.type} (indexed: ${m.fields.join(', ')})`;
    return { kind: 'not-indexed', fields: missing, message };
  }
  const orderField = q.orderBy?.field ?? (m.fields.includes('id') ? 'id' : undefined);
  let best: { fi: number; parts: number[] } | undefined;
  for (const w of q.where ?? []) {
    const fi = m.fields.indexOf(w.field);
    // `id` without a run of its own narrows nothing: it is checked on the rows of the run read.
    if (fi < 0) continue;
    const parts = partsFor(m, fi, rangesOf(w));
    const better = !best || parts.length < best.parts.length;
    if (
      better ||
      (parts.length === best!.parts.length && w.field === orderField && m.fields[best!.fi] !== orderField)
    ) {
      best = { fi, parts };
    }
  }
  if (!best) {
    const fi = orderField === undefined ? 0 : Math.max(0, m.fields.indexOf(orderField));
    best = { fi, parts: m.runs[fi]!.parts.map((_, i) => i) };
  }
  const field = m.fields[best.fi]!;
  const parts = best.parts.map((index) => ({ index, path: pathOfPart(m, best.fi, index) }));
  return { kind: 'index', field, parts, inOrder: field === orderField };
}
