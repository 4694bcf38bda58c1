/**
 * `DocumentStore.facets` (issue 40 item 7): each indexed field's values with their counts over the whole
 * type, read from the value counts its index keeps (indexes/counts.ts) — the manifest (which a table has
 * usually read already: the same path at the same commit is cached) and ONE small file per field, read
 * together in one bulk read: one GraphQL request with a token, one contents request per field without.
 * The counts are untrusted: a damaged or outdated file is `InvalidResponse`, never a wrong count.
 * See docs/indexes.md "Value counts".
 */
import { InvalidConfig, NotFound } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { OperationMeta, RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { addCost } from './bulk.js';
import { assertValidIdentity } from './identity.js';
import { COUNTS_CAP, countsPath, type KeyCount, parseCounts } from './indexes/counts.js';
import { type Manifest, parseManifest } from './indexes/format.js';
import { manifestPath } from './indexes/paths.js';
import { compareStored, isCut, isMissing } from './indexes/values.js';

/** Which type's facets, at which version (default: the tip), for which indexed fields (default: all). */
export interface FacetsQuery {
  namespace: string;
  type: string;
  /** Indexed fields to count (default: every field the type's index declares). */
  fields?: string[];
  version?: VersionId;
}

/** One value of a field and how many documents hold it. */
export interface FacetCount {
  /** The value (a cut string's kept prefix when `cut`); undefined when `absent`. */
  value: unknown;
  /** The documents lack the field. */
  absent: boolean;
  /** An element of array values, counted once per document holding it (its filter is `contains`). */
  element: boolean;
  /**
   * A string longer than an index keeps (256 UTF-8 bytes): `value` is the prefix, `count` the documents
   * whose string starts with it and is longer — no `=` clause names them all.
   */
  cut: boolean;
  count: number;
}

/** One field's facets. */
export interface FieldFacets {
  field: string;
  /**
   * `counted`: every distinct value with its exact count. `too-many`: more than {@link COUNTS_CAP} distinct
   * values, whose counts the index does not keep. `not-kept`: the index was written before value counts
   * (the type's next write adds them) — count the rows of a query instead.
   */
  state: 'counted' | 'too-many' | 'not-kept';
  /** Distinct values (`counted` only). */
  distinct?: number;
  /** `too-many` only: the field has more distinct values than this ({@link COUNTS_CAP}). */
  moreThan?: number;
  /** Every distinct value, most frequent first (ties in the index's value order); empty unless `counted`. */
  values: FacetCount[];
}

export interface FacetsResult extends OperationMeta {
  /** The section version read (null: no section). */
  version: VersionId | null;
  /** Documents of the type at `version` (the index manifest's count). */
  typeCount: number;
  fields: FieldFacets[];
}

export { COUNTS_CAP };

type Cost = { meta: OperationMeta };

/** Read keys at `version` in one bulk read, adding its cost; returns the bytes by key and the version read. */
async function readAt(store: RefStore, keys: readonly string[], version: VersionId | undefined, cost: Cost) {
  const out = new Map<string, Uint8Array | null>();
  let at: VersionId | null = version ?? null;
  const onMeta = (m: OperationMeta) => {
    cost.meta = addCost(cost.meta, m);
  };
  for await (const item of readManyFrom(store, keys, { ...(version ? { version } : {}), onMeta })) {
    out.set(item.key, item.value);
    at = item.version;
  }
  return { items: out, version: at };
}

function checked(q: FacetsQuery): FacetsQuery {
  if (typeof q !== 'object' || q === null)
    throw new InvalidConfig('query', 'facets takes an object { namespace, type, fields?, version? }');
  assertValidIdentity({ namespace: q.namespace, doc_type: q.type, id: 'x' });
  if (q.version !== undefined) assertValidVersion(q.version);
  if (q.fields !== undefined && (!Array.isArray(q.fields) || !q.fields.every((f) => typeof f === 'string')))
    throw new InvalidConfig('fields', 'fields must be an array of indexed field names (e.g. ["data.language"])');
  return q;
}

/** The asked fields, each one the index declares (InvalidConfig naming the ones it does not). */
function fieldsOf(q: FacetsQuery, m: Manifest): string[] {
  const fields = q.fields ?? m.fields;
  const unknown = fields.filter((f) => !m.fields.includes(f));
  if (unknown.length > 0) {
    throw new InvalidConfig(
      'fields',
      `the index of ${q.namespace}/${q.type} does not declare ${unknown.join(', ')}; facets are kept for ${m.fields.join(', ')}`,
      { allowed: m.fields.join(', ') },
    );
  }
  return fields;
}

/** A run key as the caller sees it. */
function facetCount(k: KeyCount): FacetCount {
  const absent = isMissing(k.key);
  const cut = isCut(k.key);
  const value = absent ? undefined : cut ? (k.key as { cut: string }).cut : k.key;
  return { value, absent, element: k.element, cut, count: k.count };
}

/** One field's facets from its counts file's bytes (null: none kept). */
function fieldFacets(m: Manifest, field: string, bytes: Uint8Array | null | undefined): FieldFacets {
  if (!bytes) return { field, state: 'not-kept', values: [] };
  const c = parseCounts(bytes, m.namespace, m.type, field, m.count);
  if (c.values === null) return { field, state: 'too-many', moreThan: COUNTS_CAP, values: [] };
  const values = [...c.values]
    .sort((a, b) => b.count - a.count || compareStored(a.key, b.key) || Number(a.element) - Number(b.element))
    .map(facetCount);
  return { field, state: 'counted', distinct: values.length, values };
}

/**
 * The facets of one indexed type (see {@link FacetsQuery}). Throws `NotFound` when the type has no index at
 * that version, `InvalidConfig` for a field it does not declare, `InvalidResponse` for a damaged file.
 *
 * @example
 * const { typeCount, fields } = await typeFacets(store, { namespace: 'github', type: 'repo', fields: ['data.language'] });
 * // fields[0]: { field: 'data.language', state: 'counted', distinct: 4, values: [{ value: 'TypeScript', count: 2000, … }, …] }
 */
export async function typeFacets(store: RefStore, query: FacetsQuery): Promise<FacetsResult> {
  const q = checked(query);
  const cost: Cost = { meta: {} };
  const mpath = manifestPath(q.namespace, q.type);
  // Named fields: their counts are read with the manifest, in the same bulk read.
  const guessed = (q.fields ?? []).map((f) => countsPath(q.namespace, q.type, f));
  const first = await readAt(store, [mpath, ...guessed], q.version, cost);
  if (first.version === null) return { ...cost.meta, version: null, typeCount: 0, fields: [] };
  const bytes = first.items.get(mpath);
  if (!bytes)
    throw new NotFound(`${q.namespace}/${q.type} has no index at ${first.version}: facets are counted by an index`, {
      namespace: q.namespace,
      type: q.type,
    });
  const m = parseManifest(bytes, q.namespace, q.type);
  const fields = fieldsOf(q, m);
  const missing = fields.map((f) => countsPath(m.namespace, m.type, f)).filter((p) => !first.items.has(p));
  const rest = missing.length > 0 ? (await readAt(store, missing, first.version, cost)).items : new Map();
  const counts = (f: string) => {
    const p = countsPath(m.namespace, m.type, f);
    return first.items.has(p) ? first.items.get(p) : rest.get(p);
  };
  return {
    ...cost.meta,
    version: first.version,
    typeCount: m.count,
    fields: fields.map((f) => fieldFacets(m, f, counts(f))),
  };
}
