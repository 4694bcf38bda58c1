/**
 * A type's aggregate across section versions (issue 29: "a count or a sum/mean of an indexed field of a
 * type across section versions"), answered from the type's index (docs/indexes.md), never from documents:
 * - `count`: the manifest's `count` at each version — one `readVersions` of the manifest (one GraphQL
 *   query per 100 versions with a token, one read each without);
 * - `sum`/`mean`/`min`/`max` of an indexed field: the field's run parts each version's manifest lists. A part not
 *   touched between two versions keeps its blob SHA, so the parts' SHAs are asked first (`sharedBlobs`) and
 *   each distinct part is read — and summed — once.
 * A version without the type's index, or whose index lacks the field, is a gap (`value: null`, `gap` says
 * why); `mean`, `min` or `max` over no numeric value is a gap too. Index files are untrusted: a damaged one is
 * `InvalidResponse` naming the key (parseManifest, parsePart), never a silently wrong point.
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import { readVersionsFrom } from '../core/read-versions.js';
import type { OperationMeta, RefStore, VersionedItem } from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import { addCost } from './bulk.js';
import { assertValidIdentity } from './identity.js';
import { type Manifest, parseManifest, parsePart, pathOfPart } from './indexes/format.js';
import { manifestPath } from './indexes/paths.js';
import { SERIES_AGGREGATES, type SeriesAggregate } from './series-aggregates.js';

export { SERIES_AGGREGATES, type SeriesAggregate } from './series-aggregates.js';

export interface TypeSeriesQuery {
  namespace: string;
  type: string;
  aggregate: SeriesAggregate;
  /** The indexed field summed or averaged (`data.stars`); not used by `count`. */
  field?: string;
}

/** Why a version has no value. */
export type SeriesGap = 'no-index' | 'field-not-indexed' | 'no-numbers';

export interface TypeSeriesPoint {
  version: VersionId;
  /** The aggregate at this version, or null (see `gap`). */
  value: number | null;
  gap?: SeriesGap;
  /** Documents of the type at this version (the manifest's count), when it has an index. */
  documents?: number;
  /** `sum`/`mean`: documents whose field holds a number (what the sum is over). */
  numbers?: number;
  /**
   * Parts of the field's run in the index at this version (when a field was given and is indexed): what a
   * `sum`/`mean` reads there — a caller without GraphQL pays a request per part and version.
   */
  parts?: number;
}

export interface TypeSeriesResult extends OperationMeta {
  /** One per version asked, in order. */
  points: TypeSeriesPoint[];
}

/** A part's contribution: the sum of its numeric scalar rows and how many there are. */
interface PartTotal {
  sum: number;
  numbers: number;
  min: number;
  max: number;
}

/**
 * The aggregate of a type at each of `versions` (commits of the section), from its index.
 *
 * @example
 * const { entries } = await store.commits({ limit: 100 });
 * const { points } = await typeSeries(store, { namespace: 'github', type: 'repo', aggregate: 'sum', field: 'data.stars' }, entries.map((e) => e.version));
 */
export async function typeSeries(
  store: RefStore,
  query: TypeSeriesQuery,
  versions: readonly VersionId[],
): Promise<TypeSeriesResult> {
  const { namespace, type, aggregate, field } = checkQuery(query, versions);
  let cost: OperationMeta = {};
  const onMeta = (m: OperationMeta) => {
    cost = addCost(cost, m);
  };
  const key = manifestPath(namespace, type);
  const items = await readVersionsFrom(
    store,
    versions.map((version) => ({ key, version })),
    { onMeta },
  );
  const manifests = parseManifests(items, namespace, type);
  if (aggregate === 'count') {
    const points = versions.map((version, i) => countPoint(version, manifests[i] ?? null, field));
    return { ...cost, points };
  }
  const totals = await partTotals(store, manifests, versions, field as string, onMeta);
  const points = versions.map((version, i) =>
    fieldPoint(version, manifests[i] ?? null, field as string, aggregate, totals[i]),
  );
  return { ...cost, points };
}

function checkQuery(query: TypeSeriesQuery, versions: readonly VersionId[]): TypeSeriesQuery {
  if (typeof query !== 'object' || query === null) {
    throw new InvalidConfig('query', 'typeSeries takes { namespace, type, aggregate, field }', {
      allowed: '{ namespace, type, aggregate, field? }',
    });
  }
  assertValidIdentity({ namespace: query.namespace, doc_type: query.type, id: 'x' });
  if (!(SERIES_AGGREGATES as readonly string[]).includes(query.aggregate)) {
    throw new InvalidConfig(
      'aggregate',
      `aggregate must be one of ${SERIES_AGGREGATES.join(', ')}, got ${JSON.stringify(query.aggregate)}`,
      { allowed: SERIES_AGGREGATES.join(' | ') },
    );
  }
  if (query.aggregate !== 'count' && (typeof query.field !== 'string' || query.field === '')) {
    throw new InvalidConfig('field', `aggregate "${query.aggregate}" needs the indexed field to ${query.aggregate}`, {
      allowed: 'an indexed field such as data.stars',
    });
  }
  if (!Array.isArray(versions)) {
    throw new InvalidConfig('versions', 'typeSeries takes an array of versions (commit SHAs)', { allowed: 'string[]' });
  }
  return query;
}

/** Each version's manifest (null: the type has no index there), each distinct blob parsed once. */
function parseManifests(items: readonly VersionedItem[], namespace: string, type: string): (Manifest | null)[] {
  const bySha = new Map<string, Manifest>();
  return items.map((item) => {
    if (item.value === null || item.blobSha === null) return null;
    let m = bySha.get(item.blobSha);
    if (!m) {
      m = parseManifest(item.value, namespace, type);
      bySha.set(item.blobSha, m);
    }
    return m;
  });
}

function countPoint(version: VersionId, m: Manifest | null, field: string | undefined): TypeSeriesPoint {
  if (!m) return { version, value: null, gap: 'no-index' };
  const parts = field === undefined ? undefined : partsOf(m, field);
  return { version, value: m.count, documents: m.count, ...(parts === undefined ? {} : { parts }) };
}

/** Parts of `field`'s run in `m`, or undefined when the index lacks the field. */
function partsOf(m: Manifest, field: string): number | undefined {
  const fi = m.fields.indexOf(field);
  return fi < 0 ? undefined : m.runs[fi]?.parts.length;
}

/**
 * The field's total at each version (undefined where the manifest or its run is missing): every part of
 * every version asked by SHA first, then each distinct part read and summed once.
 */
async function partTotals(
  store: RefStore,
  manifests: readonly (Manifest | null)[],
  versions: readonly VersionId[],
  field: string,
  onMeta: (m: OperationMeta) => void,
): Promise<(PartTotal | undefined)[]> {
  const asks: { at: number; manifest: Manifest; fi: number; part: number; key: string }[] = [];
  manifests.forEach((m, at) => {
    const fi = m ? m.fields.indexOf(field) : -1;
    if (!m || fi < 0) return;
    m.runs[fi]?.parts.forEach((_, part) => {
      asks.push({ at, manifest: m, fi, part, key: pathOfPart(m, fi, part) });
    });
  });
  const items = await readVersionsFrom(
    store,
    asks.map((a) => ({ key: a.key, version: versions[a.at] as VersionId })),
    { sharedBlobs: true, onMeta },
  );
  const byBlob = new Map<string, PartTotal>();
  const totals: (PartTotal | undefined)[] = manifests.map((m) =>
    m?.fields.includes(field) ? { sum: 0, numbers: 0, min: Infinity, max: -Infinity } : undefined,
  );
  items.forEach((item, i) => {
    const a = asks[i] as (typeof asks)[number];
    if (item.value === null || item.blobSha === null) {
      throw new InvalidResponse(
        `index part ${a.key} is listed in its manifest but missing; the index must be rebuilt`,
        {
          key: a.key,
          version: item.version,
        },
      );
    }
    let part = byBlob.get(item.blobSha);
    if (!part) {
      part = partTotal(parsePart(a.manifest, a.fi, a.part, item.value));
      byBlob.set(item.blobSha, part);
    }
    const total = totals[a.at] as PartTotal;
    total.sum += part.sum;
    total.numbers += part.numbers;
    total.min = Math.min(total.min, part.min);
    total.max = Math.max(total.max, part.max);
  });
  return totals;
}

/** The numeric scalar rows of a part (an array's element rows are not a document's number). */
function partTotal(rows: ReturnType<typeof parsePart>): PartTotal {
  const t = { sum: 0, numbers: 0, min: Infinity, max: -Infinity };
  for (const r of rows) {
    if (r.element || typeof r.key !== 'number') continue;
    t.sum += r.key;
    t.numbers++;
    t.min = Math.min(t.min, r.key);
    t.max = Math.max(t.max, r.key);
  }
  return t;
}

function fieldPoint(
  version: VersionId,
  m: Manifest | null,
  field: string,
  aggregate: SeriesAggregate,
  total: PartTotal | undefined,
): TypeSeriesPoint {
  if (!m) return { version, value: null, gap: 'no-index' };
  if (!total) return { version, value: null, gap: 'field-not-indexed', documents: m.count };
  const base = { version, documents: m.count, numbers: total.numbers, parts: partsOf(m, field) as number };
  if (aggregate === 'sum') return { ...base, value: total.sum };
  if (total.numbers === 0) return { ...base, value: null, gap: 'no-numbers' };
  return { ...base, value: aggregate === 'mean' ? total.sum / total.numbers : total[aggregate as 'min' | 'max'] };
}
