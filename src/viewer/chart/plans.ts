/**
 * What each chart reads and costs (src/viewer/views/chart.ts draws them): a document's field over its
 * history; a type's aggregate from its index (`client.typeSeries`); a small type without an index from its
 * documents (./documents-series.ts). Each plan says what all its versions would cost, with and without a
 * token, and how to sample them within {@link SAMPLE_BUDGET} requests in all.
 */
import type { HistoryEntry } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { sampleColumns } from '../table/cells.js';
import { documentTypePoints, SMALL_TYPE, typeIdentities } from './documents-series.js';
import type { ChartPoint } from './line-chart.js';
import { SAMPLE_BUDGET, SAMPLE_VERSIONS, sampleEvenly } from './scale.js';
import {
  documentPoints,
  documentSample,
  MAX_CHART_VERSIONS,
  pinTo,
  type TypeChart,
  typePoints,
  typeSample,
} from './sources.js';

/** A chart's versions, how to read them all or a sample, and how to show them. */
export interface ChartPlan {
  title: string;
  yLabel: string;
  /** Versions to chart, newest first (at most 100). */
  entries: HistoryEntry[];
  /** Requests reading `n` of the versions costs, with a token or without. */
  cost(n: number, token: boolean): number;
  read(entries: readonly HistoryEntry[]): Promise<{ points: ChartPoint[]; gaps: string }>;
  /** The versions a sample reads within the sample budget; fewer than 2 when no sample fits. */
  sample(): Promise<HistoryEntry[]>;
  /** Requests the sample costs (what the budget is asked for before it is read). */
  sampleCost: number;
  linkOf(version: string): string | undefined;
  /** Said when there are no versions at all. */
  empty: string;
  /** Type charts: the form's field choices after a read (the index's fields, or the documents' columns). */
  fields?(): { fields: string[]; source: string };
  /** Said under the title (where the values come from), when there is something to say. */
  note?: string;
}

/** Token cost of a read of `n` versions in GraphQL batches of 100, `per` queries a batch. */
const batches = (n: number, per: number) => per * Math.ceil(n / MAX_CHART_VERSIONS) + 1;

export async function documentPlan(ctx: ViewContext): Promise<ChartPlan> {
  const { ns, type, id, field } = ctx.state as Required<Pick<typeof ctx.state, 'ns' | 'type' | 'id' | 'field'>>;
  const identity = { namespace: ns, doc_type: type, id };
  // Pinned with `at`: the walk starts there (history pages' cursor), so the chart ends at that version.
  const from = ctx.state.at === undefined ? {} : { cursor: ctx.state.at };
  const { entries } = await ctx.client.history(identity, { limit: MAX_CHART_VERSIONS, ...from });
  const pinned = pinTo(entries, ctx.version);
  return {
    title: `${field} of ${ns}/${type} ${id}`,
    yLabel: field,
    entries: pinned,
    cost: (n, token) => (token ? batches(n, 2) : n),
    read: async (list) => {
      const r = await documentPoints(ctx.client, identity, field, list);
      const gaps = r.absent + r.notNumber;
      return {
        points: r.points,
        gaps: `${gaps} without a value: ${r.absent} where the document is absent, ${r.notNumber} where ${field} is not a number.`,
      };
    },
    sample: async () => documentSample(pinned),
    sampleCost: SAMPLE_VERSIONS,
    linkOf: (version) => ctx.link({ view: 'document', at: version, field: undefined }),
    empty: `No version of ${ns}/${type} ${id} is in this section: check the id.`,
  };
}

/** A type chart: from its index when the type has one at the view's version, else from its documents. */
export async function typePlan(ctx: ViewContext): Promise<ChartPlan> {
  const { ns, type, agg, field } = ctx.state;
  const chart: TypeChart = {
    namespace: ns as string,
    type: type as string,
    aggregate: agg ?? 'count',
    ...(field ? { field } : {}),
  };
  // The section's commits (one request per 100); a store that cannot list them has no versions to chart.
  const store = ctx.client.refStore;
  const listed = store.commits ? (await store.commits({ limit: MAX_CHART_VERSIONS })).entries : [];
  const entries = pinTo(listed, ctx.version);
  const declared = await ctx.client.indexes({ version: ctx.version });
  const index = declared.indexes.find((i) => i.namespace === chart.namespace && i.type === chart.type);
  const what = chart.aggregate === 'count' ? 'Documents' : `${AGG_TITLE[chart.aggregate]} of ${field}`;
  const common = {
    title: `${what} of ${ns}/${type} over time`,
    yLabel: chart.aggregate === 'count' ? 'documents' : `${chart.aggregate}(${field})`,
    entries,
    linkOf: (version: string) => ctx.link({ view: 'table', at: version, agg: undefined, field: undefined }),
    empty: 'The section has no commits.',
  };
  if (index || entries.length === 0) return { ...common, ...indexedReads(ctx, chart, entries, index?.fields ?? []) };
  const identities = await typeIdentities(
    ctx.client,
    chart.namespace,
    chart.type,
    entries.map((e) => e.version),
  );
  if (identities.length > SMALL_TYPE) return { ...common, ...indexedReads(ctx, chart, entries, []) };
  return { ...common, ...documentReads(ctx, chart, entries, identities) };
}

/** Requests a type chart spends before its values: the ref, the commits, the index declaration. */
const TYPE_BEFORE = 3;

const AGG_TITLE = { count: 'Count', sum: 'Sum', mean: 'Mean', min: 'Minimum', max: 'Maximum' } as const;

type Reads = Omit<ChartPlan, 'title' | 'yLabel' | 'entries' | 'linkOf' | 'empty'>;

function indexedReads(ctx: ViewContext, chart: TypeChart, entries: HistoryEntry[], fields: string[]): Reads {
  const perVersion = chart.aggregate === 'count' ? 1 : 2;
  return {
    cost: (n, token) => (token ? batches(n, 2) : n * perVersion),
    read: async (list) => {
      const points = await typePoints(ctx.client, chart, list);
      const gaps = points.filter((p) => p.value === null).length;
      return {
        points,
        gaps: `${gaps} without a value (no index for the type, or the field not indexed, at that version).`,
      };
    },
    sample: () => typeSample(ctx.client, chart, entries, TYPE_BEFORE),
    sampleCost: SAMPLE_BUDGET - TYPE_BEFORE,
    fields: () => ({
      fields: fields.filter((f) => f !== 'id'),
      source:
        fields.length > 0
          ? `Fields of the index of ${chart.namespace}/${chart.type}; each value is read from the index.`
          : `${chart.namespace}/${chart.type} has no index here, and more than ${SMALL_TYPE} documents to read one by one: declare an index to chart its fields.`,
    }),
  };
}

function documentReads(
  ctx: ViewContext,
  chart: TypeChart,
  entries: HistoryEntry[],
  identities: Awaited<ReturnType<typeof typeIdentities>>,
): Reads {
  const n = Math.max(1, identities.length);
  // After the ref, the commits, the declaration and the listings (newest and oldest): a read per document and version.
  const versions = Math.floor((SAMPLE_BUDGET - TYPE_BEFORE - Math.min(2, entries.length)) / n);
  let columns: string[] = [];
  return {
    note: `No index: read from the ${identities.length} documents of ${chart.namespace}/${chart.type} at the newest and the oldest version charted, each at every version.`,
    // With a token `versionsOf` costs about two GraphQL queries a document per 100 versions (measured: 23 for 12).
    cost: (v, token) => (token ? 2 * n * Math.ceil(v / MAX_CHART_VERSIONS) : v * n),
    read: async (list) => {
      const { points, newest } = await documentTypePoints(ctx.client, chart, identities, list);
      columns = sampleColumns(newest.slice(0, 20).map((d) => d.data)).filter((c) => c !== 'id');
      const gaps = points.filter((p) => p.value === null).length;
      return { points, gaps: `${gaps} without a value (no document holds a number at the field).` };
    },
    // Each version costs a read per document: as many versions as fit in what the sample may spend.
    sample: async () => (versions < 2 ? [] : sampleEvenly(entries, versions)),
    sampleCost: versions < 2 ? 0 : versions * n,
    fields: () => ({
      fields: columns,
      source:
        columns.length > 0
          ? `No index: fields from the documents read (as the table picks its columns).`
          : 'No index: the fields come from the documents, read when the chart is drawn.',
    }),
  };
}
