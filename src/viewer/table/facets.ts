/**
 * Facets (issue 40 item 7; docs/viewer.md "Facets"): for each indexed field of a type, its most frequent
 * values with their counts over the whole type, each a filter. Counted from the index's covering rows — one
 * run holds every document with every indexed value, so one read of one run counts every field at once.
 * Pure except {@link readFacets}, one `client.query`.
 */
import { type DocDbClient, parseWhere } from '../../browser/index.js';

/** Values shown per field. */
export const TOP_VALUES = 10;

/** One value of a field and how many documents hold it (an array counts once per distinct element). */
export interface FacetValue {
  /** The value; `undefined` = the field is absent. */
  value: unknown;
  /** True when it is an element of an array value (its filter is `contains`). */
  element: boolean;
  count: number;
  /**
   * The `where` clause (the CLI's text form) that shows the documents holding it; undefined for a number
   * beyond ±(2^53 − 1), which no clause can name exactly (docs/indexes.md "Strict").
   */
  clause: string | undefined;
}

export interface Facet {
  field: string;
  /** Distinct values counted. */
  distinct: number;
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
}

/**
 * Read every row of the type from its index (no filter, no limit: one whole run, every indexed value in
 * each row) and count its fields' values. The whole read fetches the run's parts in two bulk reads (8,
 * then the rest: docs/indexes.md "Bounded reads") — with a token two GraphQL requests for every field at
 * once up to 100 parts (~100,000 documents); without one, one request per part not read yet.
 *
 * @example
 * const facets = await readFacets({ client, version, namespace: 'github', type: 'repo', fields: ['data.language'] });
 */
export async function readFacets(q: FacetQuery): Promise<Facets> {
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
 * About how many requests {@link readFacets} costs without a token: one per index part of the run, at
 * about 1,000 rows a part (a full build fills 128 KiB parts to 3/4 with ~90-byte rows), the first part
 * (read by the table already) excepted.
 *
 * @example
 * facetCost(10_000); // 9
 */
export function facetCost(typeCount: number): number {
  return Math.max(1, Math.ceil(typeCount / 1000) - 1);
}
