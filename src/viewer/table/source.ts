/**
 * Where the table's rows come from, a page at a time, every read pinned to the view's version:
 * - a type with an index: `client.query` with `requireIndex` (the manifest, then only the parts a page
 *   needs: an in-order page reads one part; docs/indexes.md "Planning"), the index's fields as columns;
 * - a type without one: every document read once (sorting and filtering need them all) when the rate
 *   limit allows, else a sample of {@link SAMPLE_SIZE} documents, saying so.
 */
import type { DocDbClient, Envelope, WhereClause } from '../../browser/index.js';
import type { BudgetVerdict } from '../context.js';
import { indexColumns, rowOf, SAMPLE_SIZE, sampleColumns, type TableRow } from './cells.js';

/** Rows per query page after the first (the first is smaller: one screen, read from one index part). */
export const PAGE_ROWS = 1000;
export const FIRST_PAGE_ROWS = 200;

export interface SourceQuery {
  client: DocDbClient;
  version: string;
  namespace: string;
  type: string;
  where: WhereClause[];
  orderBy?: { field: string; direction: 'asc' | 'desc' };
  hasToken: boolean;
  budget: (requests: number, what: string) => BudgetVerdict;
}

export interface TableSource {
  /** `index`: pages from the index · `all`: every document read · `sample`: the first documents only. */
  readonly mode: 'index' | 'all' | 'sample';
  readonly columns: string[];
  /** Fields a sort or a filter may name (the index's; every column when all documents are read). */
  readonly sortable: string[];
  /** The order the rows are in (the index's default when the URL names none). */
  readonly orderBy?: { field: string; direction: 'asc' | 'desc' };
  /** What the page says about where the rows come from. */
  readonly note: string;
  /** Filters or a sort the rows could not follow, each said as a sentence (the rest still applies). */
  readonly problems: string[];
  readonly rows: TableRow[];
  /** True once every matching row is loaded. */
  done: boolean;
  /** Documents of the type at the version (the index manifest's count; every document read without one). */
  typeCount?: number;
  /** Fields the facets count (the index's, `id` left out); empty without an index. */
  readonly facetFields: string[];
  /** Load the next page (nothing when done). */
  loadMore(): Promise<void>;
  /**
   * Load every row not loaded yet in ONE query (no limit: the index's whole-read path, its parts in two
   * bulk reads — two GraphQL requests with a token up to 100 parts; one request per part not read yet
   * without one). What End, "Load all rows" and the downloads use.
   */
  loadRest(): Promise<void>;
  /** True when the rows are filtered (`where` in force): the matching count is then known once `done`. */
  readonly filtered: boolean;
}

/**
 * Open the rows of `q.namespace/q.type` at `q.version`.
 *
 * @example
 * const source = await openSource({ client, version, namespace: 'github', type: 'repo', where: [], hasToken: false, budget });
 */
export async function openSource(q: SourceQuery): Promise<TableSource> {
  const declared = await q.client.indexes({ version: q.version });
  const index = declared.indexes.find((i) => i.namespace === q.namespace && i.type === q.type);
  return index ? indexSource(q, index.fields) : documentsSource(q);
}

/** A field outside the index would make the query read every document: said, and left out instead. */
function unindexed(what: string, field: string, columns: readonly string[]): string {
  return `${what} ${field} is not an indexed field of this type (indexed: ${columns.join(', ')}); it would read every document, so it is left out.`;
}

async function indexSource(q: SourceQuery, fields: string[]): Promise<TableSource> {
  const columns = indexColumns(fields);
  const problems: string[] = [];
  const where: WhereClause[] = [];
  // `id` sorts and filters on any index: every row of every run carries it (docs/indexes.md "Planning").
  const sortable = fields.includes('id') ? fields : ['id', ...fields];
  for (const w of q.where) {
    if (sortable.includes(w.field)) where.push(w);
    else problems.push(unindexed('The filter on', w.field, fields));
  }
  const asked = q.orderBy && sortable.includes(q.orderBy.field) ? q.orderBy : undefined;
  if (q.orderBy && !asked) problems.push(unindexed('The sort by', q.orderBy.field, fields));
  // Without a sort, the index's first field's own run is read in order (id's when indexed: the query's default).
  const orderBy =
    asked ?? (fields.includes('id') ? undefined : { field: fields[0] as string, direction: 'asc' as const });
  const projected = columns.filter((c) => c !== 'id');
  let cursor: string | undefined;
  let loading: Promise<void> | undefined;
  const source: TableSource = {
    mode: 'index',
    columns,
    sortable,
    facetFields: fields.filter((f) => f !== 'id'),
    ...(orderBy ? { orderBy } : {}),
    note: `Rows from the index of ${q.namespace}/${q.type}, ${FIRST_PAGE_ROWS} then ${PAGE_ROWS} at a time as you scroll; sort and filter by id and its fields.`,
    problems,
    rows: [],
    done: false,
    filtered: where.length > 0,
    loadMore() {
      loading ??= page(cursor === undefined ? FIRST_PAGE_ROWS : PAGE_ROWS).finally(() => {
        loading = undefined;
      });
      return loading;
    },
    async loadRest() {
      // A page under way ends first: its rows and cursor are where the rest starts.
      while (loading) await loading;
      loading = page(undefined).finally(() => {
        loading = undefined;
      });
      return loading;
    },
  };
  const page = async (limit: number | undefined) => {
    if (source.done) return;
    const r = await q.client.query({
      namespace: q.namespace,
      type: q.type,
      where,
      ...(orderBy ? { orderBy } : {}),
      ...(limit ? { limit } : {}),
      ...(cursor ? { cursor } : {}),
      fields: projected.length > 0 ? projected : ['id'],
      version: q.version,
      requireIndex: true,
    });
    for (const row of r.rows) source.rows.push({ id: row.id, values: row.values });
    cursor = r.nextCursor ?? undefined;
    source.done = r.nextCursor === null;
    if (r.typeCount !== undefined) source.typeCount = r.typeCount;
  };
  await source.loadMore();
  return source;
}

async function documentsSource(q: SourceQuery): Promise<TableSource> {
  const listed = await q.client.list({ namespace: q.namespace, type: q.type, version: q.version });
  const n = listed.documents.length;
  const what = `${q.namespace}/${q.type}`;
  const done = {
    done: true,
    problems: [],
    loadMore: async () => {},
    loadRest: async () => {},
    filtered: q.where.length > 0,
  };
  if (n === 0) {
    return {
      mode: 'all',
      columns: ['id'],
      sortable: [],
      facetFields: [],
      typeCount: 0,
      note: `No documents of ${what} at this version.`,
      rows: [],
      ...done,
    };
  }
  const head = `No index: columns from a sample of ${Math.min(n, SAMPLE_SIZE)} documents; sorting and filtering read every document`;
  // Anonymous reads take one request per document; with a token GraphQL reads 100 at a time.
  const cost = q.hasToken ? Math.ceil(n / 100) + 1 : n;
  const verdict = q.budget(cost, `Reading all ${n} documents of ${what}`);
  if (verdict.ok) {
    const r = await q.client.query({
      namespace: q.namespace,
      type: q.type,
      where: q.where,
      ...(q.orderBy ? { orderBy: q.orderBy } : {}),
      version: q.version,
    });
    const docs = (r.documents ?? []) as Envelope[];
    const columns = sampleColumns(docs.slice(0, SAMPLE_SIZE).map((d) => d.data));
    return {
      mode: 'all',
      columns,
      sortable: columns,
      facetFields: [],
      typeCount: n,
      ...(q.orderBy ? { orderBy: q.orderBy } : {}),
      note: `${head} (all ${n} read).`,
      rows: docs.map((d) => rowOf(d, columns)),
      ...done,
    };
  }
  const ids = listed.documents
    .slice(0, SAMPLE_SIZE)
    .map((d) => ({ namespace: d.namespace, doc_type: d.doc_type, id: d.id }));
  const docs = (await q.client.getMany(ids, { version: q.version })).filter((d): d is Envelope => d !== null);
  const columns = sampleColumns(docs.map((d) => d.data));
  return {
    mode: 'sample',
    columns,
    sortable: [],
    facetFields: [],
    typeCount: n,
    note: `${head}: ${verdict.message ?? ''} Showing the first ${docs.length} of ${n} documents, unsorted and unfiltered.`,
    rows: docs.map((d) => rowOf(d, columns)),
    ...done,
    filtered: false,
  };
}
