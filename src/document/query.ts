/**
 * `DocumentStore.query` (issue 28, item 3): a question about one `(namespace, type)` answered from its
 * index — the manifest, then only the parts the plan names, all read at ONE version — with the matching
 * documents read in one bulk read when the caller wants them. A field without an index falls back to
 * reading every document of the type (or, with `requireIndex`, is an error). See docs/indexes.md.
 *
 * Index files are untrusted: a damaged manifest or part is `InvalidResponse` (from the pure core), and a
 * document whose blob is not the one its row names is `InvalidResponse` too — never a silently wrong row.
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { OperationMeta, RefStore } from '../core/refstore.js';
import { assertValidVersion, type VersionId } from '../core/version.js';
import { addCost } from './bulk.js';
import { decodeEnvelope, type Envelope } from './envelope.js';
import { assertValidIdentity, deriveKey, parseKey } from './identity.js';
import { type IndexOptions, partBound } from './indexes/build.js';
import {
  evaluate,
  type IndexQuery,
  type Manifest,
  parseManifest,
  parsePart,
  planQuery,
  type ResultRow,
  validateQuery,
} from './indexes/index.js';
import { plannedRows } from './indexes/page-reads.js';
import { manifestPath } from './indexes/paths.js';
import { type Row, rowsOf } from './indexes/rows.js';
import { isMissing, type Stored, storedValue } from './indexes/values.js';
import { checkCount, checkDocuments } from './query-verify.js';

// Facets load with queries (the same lazy chunk in the browser, features.ts): a table that queries counts too.
export { type FacetsQuery, type FacetsResult, typeFacets } from './facets-read.js';

/** A query (docs/indexes.md "Queries") plus the version to read and whether an index must answer. */
export interface DocumentQuery extends IndexQuery {
  /** Read at this commit of the section instead of the tip (a cursor carries its own). */
  version?: VersionId;
  /** Throw `InvalidConfig` instead of reading every document when a named field has no index. */
  requireIndex?: boolean;
}

/** One matching document: its id, blob SHA and the asked fields' exact values (an absent field is left out). */
export interface QueryRow {
  id: string;
  blobSha: string;
  values: Record<string, unknown>;
}

export interface DocumentQueryResult<T = unknown> extends OperationMeta {
  rows: QueryRow[];
  /** The matching envelopes in row order — only when `fields` was not given (rows alone otherwise). */
  documents?: Envelope<T>[];
  /** The section version read (null: no section). */
  version: VersionId | null;
  /** The next page's cursor, or null on the last page. */
  nextCursor: string | null;
  /** `index`: answered from the index; `documents`: every document of the type was read (see `fallbackReason`). */
  answeredBy: 'index' | 'documents';
  fallbackReason?: string;
  /**
   * Documents of the type at `version` (the index manifest's `count`: no extra read), when answered by
   * the index — the total a table shows next to the rows that match.
   */
  typeCount?: number;
}

type Cost = { meta: OperationMeta };

/** Read keys at `version` in one bulk read, adding its cost. */
async function readAt(store: RefStore, keys: readonly string[], version: VersionId | undefined, cost: Cost) {
  const out = new Map<string, { value: Uint8Array | null; blobSha: string | null }>();
  let at: VersionId | null = version ?? null;
  const onMeta = (m: OperationMeta) => {
    cost.meta = addCost(cost.meta, m);
  };
  for await (const item of readManyFrom(store, keys, { ...(version ? { version } : {}), onMeta })) {
    out.set(item.key, { value: item.value, blobSha: item.blobSha });
    at = item.version;
  }
  return { items: out, version: at };
}

/** `<version>.<position>`: a page's cursor pins the version the first page read. */
function splitCursor(cursor: string | undefined, pinned: VersionId | undefined) {
  if (cursor === undefined) return { version: pinned, inner: undefined };
  const dot = typeof cursor === 'string' ? cursor.indexOf('.') : -1;
  const version = dot > 0 ? cursor.slice(0, dot) : '';
  if (!/^[0-9a-f]{40}$/.test(version)) {
    throw new InvalidConfig('cursor', 'query cursor is not a cursor docdb issued', {
      allowed: 'the nextCursor of the previous page of this same query',
    });
  }
  if (pinned !== undefined && pinned !== version) {
    throw new InvalidConfig('cursor', `query cursor belongs to version ${version}, not ${pinned}`);
  }
  return { version, inner: cursor.slice(dot + 1) };
}

/** Check the query before any I/O; returns the pure query and the options around it. */
function checked(q: DocumentQuery) {
  if (typeof q !== 'object' || q === null) {
    throw new InvalidConfig(
      'query',
      'query takes an object { namespace, type, where, orderBy, limit, cursor, fields }',
    );
  }
  const { version, requireIndex, cursor, ...rest } = q;
  if (requireIndex !== undefined && typeof requireIndex !== 'boolean') {
    throw new InvalidConfig('requireIndex', `requireIndex must be true or false, got ${JSON.stringify(requireIndex)}`);
  }
  if (version !== undefined) assertValidVersion(version);
  const split = splitCursor(cursor, version);
  const query = validateQuery({ ...rest, ...(split.inner !== undefined ? { cursor: split.inner } : {}) });
  assertValidIdentity({ namespace: query.namespace, doc_type: query.type, id: 'x' });
  return { query, version: split.version, requireIndex: requireIndex === true };
}

/**
 * Answer `q` (see {@link DocumentQuery}) on `store`. `options.maxPartBytes` is the part bound the index was
 * written with (what a query may read is budgeted from it, indexes/page-reads.ts).
 *
 * @example
 * const r = await queryDocuments(store, { namespace: 'github', type: 'repo', where: [{ field: 'data.stars', op: '>=', value: 10 }], fields: ['data.stars'] });
 */
export async function queryDocuments<T>(
  store: RefStore,
  q: DocumentQuery,
  options: IndexOptions = {},
): Promise<DocumentQueryResult<T>> {
  const { query, version: pinned, requireIndex } = checked(q);
  const cost: Cost = { meta: {} };
  const mpath = manifestPath(query.namespace, query.type);
  const first = await readAt(store, [mpath], pinned, cost);
  const version = first.version;
  if (version === null) return { ...cost.meta, rows: [], version: null, nextCursor: null, answeredBy: 'index' };
  const bytes = first.items.get(mpath)?.value;
  const manifest = bytes ? parseManifest(bytes, query.namespace, query.type) : undefined;
  const plan = manifest ? planQuery(manifest, query) : undefined;
  if (!manifest || plan?.kind !== 'index') {
    const reason = !manifest ? `${query.namespace}/${query.type} has no index` : (plan as { message: string }).message;
    if (requireIndex)
      throw new InvalidConfig('requireIndex', `${reason}; declare it (declareIndexes) or drop requireIndex`);
    return fallback<T>(store, query, version, cost, reason);
  }
  const fi = manifest.fields.indexOf(plan.field);
  // An in-order plan reads a part at a time and stops once the page is settled (indexes/page-reads.ts).
  const read = await plannedRows(
    manifest,
    plan,
    query,
    async (wanted) => {
      const parts = await readAt(
        store,
        wanted.map((p) => p.path),
        version,
        cost,
      );
      let bytes = 0;
      const rows = wanted.flatMap((p) => {
        const b = parts.items.get(p.path)?.value;
        if (!b)
          throw new InvalidResponse(
            `index part ${p.path} is listed in its manifest but missing; the index must be rebuilt`,
            { key: p.path },
          );
        bytes += b.length;
        return parsePart(manifest, fi, p.index, b);
      });
      return { rows, bytes };
    },
    partBound(options),
  );
  checkCount(manifest, read.rows, read.whole);
  return answer<T>(store, manifest, query, read.rows, version, cost, 'index');
}

/** Evaluate (reading documents a cut value leaves undecided, at most twice), then read the page's documents. */
async function answer<T>(
  store: RefStore,
  m: Manifest,
  query: IndexQuery,
  rows: Row[],
  version: VersionId,
  cost: Cost,
  by: 'index' | 'documents',
  exact = new Map<string, unknown>(),
  reason?: string,
): Promise<DocumentQueryResult<T>> {
  let result = evaluate(m, query, rows, exact);
  for (let round = 0; result.kind === 'needs-documents' && round < 3; round++) {
    const docs = await readDocuments<T>(store, query, result.documents, version, cost);
    for (const d of docs) exact.set(d.id, d.data);
    result = evaluate(m, query, rows, exact);
  }
  if (result.kind !== 'rows')
    throw new InvalidResponse(`the index of ${query.namespace}/${query.type} did not settle; rebuild it`, {});
  const out: DocumentQueryResult<T> = {
    ...cost.meta,
    rows: result.rows.map(publicRow),
    version,
    nextCursor: result.cursor === undefined ? null : `${version}.${result.cursor}`,
    answeredBy: by,
    ...(reason ? { fallbackReason: reason } : {}),
    ...(by === 'index' ? { typeCount: m.count } : {}),
  };
  if (query.fields === undefined) {
    out.documents = await readDocuments<T>(store, query, result.rows, version, cost);
    // The documents, not the index, decide: a tampered or stale row is refused here (query-verify.ts).
    if (by === 'index') checkDocuments(query, out.documents);
    Object.assign(out, cost.meta);
  }
  return out;
}

/** Stored values → plain JSON (evaluate settled every cut value); an absent field is left out. */
function publicRow(r: ResultRow): QueryRow {
  const values: Record<string, unknown> = {};
  for (const [f, v] of Object.entries(r.values)) if (!isMissing(v)) values[f] = v;
  return { id: r.id, blobSha: r.blobSha, values };
}

/** The documents of `rows` at `version`, in order; each must be the blob its row names. */
async function readDocuments<T>(
  store: RefStore,
  query: IndexQuery,
  rows: readonly { id: string; blobSha: string }[],
  version: VersionId,
  cost: Cost,
): Promise<Envelope<T>[]> {
  const key = (id: string) => deriveKey({ namespace: query.namespace, doc_type: query.type, id });
  const got = await readAt(
    store,
    rows.map((r) => key(r.id)),
    version,
    cost,
  );
  return rows.map((r) => {
    const item = got.items.get(key(r.id));
    if (!item?.value || item.blobSha !== r.blobSha) {
      throw new InvalidResponse(
        `the index of ${query.namespace}/${query.type} names blob ${r.blobSha} for ${JSON.stringify(r.id)}, but the section holds ${item?.blobSha ?? 'no such document'}; the index must be rebuilt (declareIndexes)`,
        { key: key(r.id), expected: r.blobSha, actual: item?.blobSha ?? null },
      );
    }
    return decodeEnvelope<T>(item.value, version);
  });
}

/** No index for a named field: every document of the type, read in bulk, evaluated exactly. */
async function fallback<T>(
  store: RefStore,
  query: IndexQuery,
  version: VersionId,
  cost: Cost,
  reason: string,
): Promise<DocumentQueryResult<T>> {
  const listed = await store.list({ prefix: `${query.namespace}/${query.type}/`, version });
  cost.meta = addCost(cost.meta, listed);
  const keys = listed.entries.filter((e) => parseKey(e.key)?.doc_type === query.type).map((e) => e.key);
  const named = [
    ...(query.where ?? []).map((w) => w.field),
    ...(query.orderBy ? [query.orderBy.field] : []),
    ...(query.fields ?? []),
  ];
  const fields = [...new Set(named.length > 0 ? named : ['id'])];
  const m: Manifest = { version: 1, namespace: query.namespace, type: query.type, fields, count: 0, runs: [] };
  const got = await readAt(store, keys, version, cost);
  const rows: Row[] = [];
  const exact = new Map<string, unknown>();
  for (const [, item] of got.items) {
    if (!item.value || !item.blobSha) continue;
    const env = decodeEnvelope(item.value, version);
    exact.set(env.id, env.data);
    const values: Stored[] = fields.map((f) => storedValue(env.id, env.data, f));
    rows.push(rowsOf(0, env.id, item.blobSha, values)[0]!);
  }
  return answer<T>(store, m, query, rows, version, cost, 'documents', exact, reason);
}
