/**
 * Facets (issue 40 item 7; docs/viewer.md "Facets"): for each indexed field of a type, its most frequent
 * values with their counts over the whole type, each a filter. Read from the value counts the index keeps
 * (`client.facets`: one small file per field — one request each without a token, one GraphQL request with
 * one); a field whose index was written before counts were kept is counted from the index's covering rows
 * instead (one read of one run, which counts every such field at once). Pure except {@link readFacets}.
 */
import { type DocDbClient, type FacetsResult, type FieldFacets, parseWhere } from '../../browser/index.js';

/** Values shown per field. */
export const TOP_VALUES = 10;

/** One value of a field and how many documents hold it (an array counts once per distinct element). */
export interface FacetValue {
  /** The value; `undefined` = the field is absent. */
  value: unknown;
  /** True when it is an element of an array value (its filter is `contains`). */
  element: boolean;
  /** True when `value` is the kept prefix of longer strings (no clause names them all). */
  cut?: boolean;
  count: number;
  /**
   * The `where` clause (the CLI's text form) that shows the documents holding it; undefined for a number
   * beyond ±(2^53 − 1), which no clause can name exactly (docs/indexes.md "Strict").
   */
  clause: string | undefined;
}

export interface Facet {
  field: string;
  /** Distinct values counted (undefined when `moreThan` says there are too many to keep counts of). */
  distinct: number | undefined;
  /** The field has more distinct values than this, whose counts the index does not keep (no top list). */
  moreThan?: number;
  top: FacetValue[];
}

export interface Facets {
  /** Documents counted (the whole type). */
  total: number;
  fields: Facet[];
}

/** A string that reads back as itself in the text form (not JSON, no operator or edge space). */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_./:@-]*$/;

/**
 * The `where` clause (text form, checked by the library's parser) that selects documents holding `value`
 * at `field`; the JSON form of a clause when the text form would not read back; undefined when no clause
 * can (a number JSON has already rounded).
 *
 * @example
 * facetClause('data.language', 'Go', false); // 'data.language=Go'
 * facetClause('data.topics', 'cli', true); // 'data.topics~cli'
 * facetClause('data.archived', undefined, false); // 'data.archived absent'
 */
export function facetClause(field: string, value: unknown, element: boolean): string | undefined {
  if (value === undefined) return `${field} absent`;
  if (typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER) return undefined;
  const op = element ? '~' : '=';
  const text =
    typeof value === 'string' && PLAIN.test(value) && !['true', 'false', 'null'].includes(value)
      ? value
      : JSON.stringify(value);
  const clause = `${field}${op}${text}`;
  try {
    const parsed = parseWhere(clause);
    if (parsed.field === field && Object.is(parsed.value, value)) return clause;
  } catch {
    // fall through to the JSON form
  }
  return JSON.stringify({ field, op: element ? 'contains' : '=', value });
}

/**
 * Count the values of `fields` over `rows` (one per document) and keep each field's {@link TOP_VALUES}
 * most frequent (ties: by the value's text).
 *
 * @example
 * countFacets([{ id: 'a', values: { 'data.l': 'Go' } }, { id: 'b', values: {} }], ['data.l']);
 * // { total: 2, fields: [{ field: 'data.l', distinct: 2, top: [{ value: 'Go', count: 1, … }, { value: undefined, … }] }] }
 */
export function countFacets(
  rows: readonly { id: string; values: Record<string, unknown> }[],
  fields: string[],
): Facets {
  const facets = fields.map((field) => {
    const counts = new Map<string, FacetValue>();
    const add = (value: unknown, element: boolean) => {
      const key = `${element ? 'e' : 's'}${value === undefined ? '' : JSON.stringify(value)}`;
      const seen = counts.get(key);
      if (seen) seen.count++;
      else counts.set(key, { value, element, count: 1, clause: undefined });
    };
    for (const row of rows) {
      const v = row.values[field];
      if (Array.isArray(v)) for (const e of new Set(v)) add(e, true);
      else add(v, false);
    }
    const text = (f: FacetValue) => (f.value === undefined ? '' : JSON.stringify(f.value));
    const top = [...counts.values()]
      .sort((a, b) => b.count - a.count || (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0))
      .slice(0, TOP_VALUES)
      .map((f) => ({ ...f, clause: facetClause(field, f.value, f.element) }));
    return { field, distinct: counts.size, top };
  });
  return { total: rows.length, fields: facets };
}

export interface FacetQuery {
  client: DocDbClient;
  version: string;
  namespace: string;
  type: string;
  /** The indexed fields (`id` is left out: every id is its own value). */
  fields: string[];
  /**
   * Called with the cost before a whole run is read for fields whose counts the index does not keep (an
   * index written before counts); throw to refuse it (the error is what the panel shows).
   */
  beforeRunRead?: (cost: number, typeCount: number) => void;
}

/**
 * One field's facet from the counts the library read: its {@link TOP_VALUES} most frequent values (ties in
 * the index's value order), each with its clause.
 *
 * @example
 * keptFacet({ field: 'data.l', state: 'counted', distinct: 1, values: [{ value: 'Go', count: 3, absent: false, element: false, cut: false }] });
 * // { field: 'data.l', distinct: 1, top: [{ value: 'Go', element: false, count: 3, clause: 'data.l=Go' }] }
 */
export function keptFacet(f: FieldFacets): Facet {
  if (f.state === 'too-many') return { field: f.field, distinct: undefined, moreThan: f.moreThan, top: [] };
  const top = f.values.slice(0, TOP_VALUES).map((v) => {
    const value = v.absent ? undefined : v.value;
    const clause = v.cut ? undefined : facetClause(f.field, value, v.element);
    return { value, element: v.element, count: v.count, clause, ...(v.cut ? { cut: true } : {}) };
  });
  return { field: f.field, distinct: f.distinct, top };
}

/**
 * Read the facets of `q.fields`: the counts the index keeps (one request per field without a token), and
 * for fields it keeps none of, one whole read of an index run (see {@link readRunFacets}).
 *
 * @example
 * const facets = await readFacets({ client, version, namespace: 'github', type: 'repo', fields: ['data.language'] });
 */
export async function readFacets(q: FacetQuery): Promise<Facets> {
  const fields = q.fields.filter((f) => f !== 'id');
  const kept: FacetsResult = await q.client.facets({
    namespace: q.namespace,
    type: q.type,
    fields,
    version: q.version,
  });
  const missing = kept.fields.filter((f) => f.state === 'not-kept').map((f) => f.field);
  let fromRun: Facets | undefined;
  if (missing.length > 0) {
    q.beforeRunRead?.(facetCost(kept.typeCount), kept.typeCount);
    fromRun = await readRunFacets({ ...q, fields: missing });
  }
  return {
    total: kept.typeCount,
    fields: kept.fields.map((f) => fromRun?.fields.find((r) => r.field === f.field) ?? keptFacet(f)),
  };
}

/**
 * Count from the index's rows: every row of the type (no filter, no limit: one whole run, every indexed
 * value in each row). The whole read fetches the run's parts in two bulk reads (8, then the rest:
 * docs/indexes.md "Bounded reads") — with a token two GraphQL requests for every field at once up to 100
 * parts (~100,000 documents); without one, one request per part not read yet. Only for an index written
 * before value counts were kept.
 *
 * @example
 * const facets = await readRunFacets({ client, version, namespace: 'github', type: 'repo', fields: ['data.language'] });
 */
export async function readRunFacets(q: FacetQuery): Promise<Facets> {
  const fields = q.fields.filter((f) => f !== 'id');
  const r = await q.client.query({
    namespace: q.namespace,
    type: q.type,
    // No order: the planner reads id's run, else the first field's — the run the table reads by default,
    // so the parts the table has read are cached (source.ts).
    fields: fields.length > 0 ? fields : ['id'],
    version: q.version,
    requireIndex: true,
  });
  return countFacets(r.rows, fields);
}

/**
 * About how many requests {@link readRunFacets} costs without a token: one per index part of the run, at
 * about 1,000 rows a part (a full build fills 128 KiB parts to 3/4 with ~90-byte rows), the first part
 * (read by the table already) excepted.
 *
 * @example
 * facetCost(10_000); // 9
 */
export function facetCost(typeCount: number): number {
  return Math.max(1, Math.ceil(typeCount / 1000) - 1);
}
