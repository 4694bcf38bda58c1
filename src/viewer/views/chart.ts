/**
 * Charts over time (issue 29 item 6): `view=chart&ns&type&id&field` charts a numeric field of one document
 * across its last 100 versions; `view=chart&ns&type&agg=count|sum|mean[&field]` a type's count, or the sum or
 * mean of an indexed field, across the section's last 100 versions (from the type's index). Before spending
 * the visitor's rate limit it asks `ctx.budget`; an anonymous visitor who cannot afford every version is
 * told what it would cost and offered an evenly spaced sample within 20 requests in all (item 8).
 */
import { explainError, type HistoryEntry } from '../../browser/index.js';
import { type ChartPoint, lineChart } from '../chart/line-chart.js';
import { SAMPLE_VERSIONS } from '../chart/scale.js';
import {
  documentPoints,
  documentSample,
  estimateCost,
  MAX_CHART_VERSIONS,
  pinTo,
  type TypeChart,
  typePoints,
  typeSample,
} from '../chart/sources.js';
import { valuesTable } from '../chart/values-table.js';
import type { View, ViewContext } from '../context.js';
import { h } from '../dom.js';

/** What a chart needs: its versions, how to read them all or a sample, and how to show them. */
interface ChartPlan {
  title: string;
  yLabel: string;
  /** Versions to chart, newest first (at most 100). */
  entries: HistoryEntry[];
  /** Requests one version costs without a token. */
  perVersion: number;
  read(entries: readonly HistoryEntry[]): Promise<{ points: ChartPoint[]; gaps: string }>;
  sample(): Promise<HistoryEntry[]>;
  linkOf(version: string): string | undefined;
  /** Said when there are no versions at all. */
  empty: string;
}

/** The sentence for a chart URL that lacks what it needs, or undefined. */
function missing(ctx: ViewContext): string | undefined {
  const { ns, type, id, field, agg } = ctx.state;
  if (ns === undefined || type === undefined) {
    return 'A chart needs "ns" and "type" (and "id" and "field" for one document, or "agg" for the type).';
  }
  if (id !== undefined && field === undefined)
    return 'A document chart needs "field": the number to chart (data.stars).';
  if (id === undefined && agg === undefined) {
    return 'A chart needs "id" and "field" (one document over time) or "agg" = count, sum or mean (the type over time).';
  }
  if (id === undefined && agg !== 'count' && field === undefined) {
    return `"agg=${agg}" needs "field": the indexed field to ${agg} (data.stars).`;
  }
  return undefined;
}

export const chartView: View = async (root, ctx) => {
  const problem = missing(ctx);
  if (problem) {
    root.append(h('p', { class: 'error', attrs: { role: 'alert' } }, problem));
    return;
  }
  const plan = ctx.state.id !== undefined ? await documentPlan(ctx) : await typePlan(ctx);
  const section = h('section', { class: 'chart-view', attrs: { 'aria-labelledby': 'chart-heading' } });
  section.append(h('h1', { attrs: { id: 'chart-heading' } }, plan.title));
  root.append(section);
  if (plan.entries.length === 0) {
    section.append(h('p', { class: 'error', attrs: { role: 'alert' } }, plan.empty));
    return;
  }
  const cost = estimateCost(plan.entries.length, plan.perVersion, ctx.hasToken());
  const verdict = ctx.budget.check(cost, `This chart of ${plan.entries.length} versions`);
  if (verdict.ok) {
    await draw(section, ctx, plan, plan.entries, undefined);
    return;
  }
  offerSample(section, ctx, plan, verdict.message ?? '');
};

/** The budget warning and the sample button (its click draws the sampled chart in place). */
function offerSample(section: HTMLElement, ctx: ViewContext, plan: ChartPlan, message: string): void {
  const button = h('button', { attrs: { type: 'button', class: 'sample' } }, 'Sample the versions');
  const warning = h(
    'div',
    { class: 'chart-budget', attrs: { role: 'alert' } },
    h('p', null, message),
    h(
      'p',
      null,
      `Add a token to read all ${plan.entries.length} versions, or sample: evenly spaced versions, the newest and the oldest included, within 20 requests in all.`,
    ),
    button,
  );
  section.append(warning);
  button.addEventListener('click', async () => {
    button.disabled = true;
    // Even a sample is refused when what is left of the hour cannot pay for it: nothing is spent.
    const left = ctx.budget.check(SAMPLE_VERSIONS, 'The sample');
    if (!left.ok) {
      warning.append(h('p', { class: 'error', dataset: { sample: 'refused' } }, left.message ?? ''));
      return;
    }
    try {
      const sampled = await plan.sample();
      if (ctx.signal.aborted) return;
      warning.remove();
      await draw(section, ctx, plan, sampled, plan.entries.length);
    } catch (error) {
      section.append(
        h('p', { class: 'error', attrs: { role: 'alert' } }, explainError(error, { repository: ctx.state.repo })),
      );
    }
  });
}

/** Read `entries` and draw the chart, its summary and its values table. */
async function draw(
  section: HTMLElement,
  ctx: ViewContext,
  plan: ChartPlan,
  entries: readonly HistoryEntry[],
  sampledFrom: number | undefined,
): Promise<void> {
  ctx.status(`Reading ${entries.length} versions…`);
  const { points, gaps } = await plan.read(entries);
  if (ctx.signal.aborted) return;
  ctx.status('');
  const what =
    sampledFrom === undefined ? `${points.length} versions` : `Sampled: ${points.length} of ${sampledFrom} versions`;
  const summary = h(
    'p',
    { class: 'chart-summary', dataset: sampledFrom === undefined ? {} : { sampled: 'true' } },
    `${what}, oldest first. ${gaps}`,
  );
  const caption = `${plan.yLabel} at each version${sampledFrom === undefined ? '' : ' (sampled)'}`;
  const box = h('div', { class: 'chart-box', dataset: { chart: 'ready' } }, summary);
  if (points.some((p) => p.value !== null))
    box.append(lineChart(points, { title: `${plan.title}: ${caption}`, yLabel: plan.yLabel }));
  else box.append(h('p', { class: 'error' }, `No version holds a number to chart; the table says why.`));
  box.append(valuesTable(points, caption, plan.yLabel, plan.linkOf));
  section.append(box);
}

async function documentPlan(ctx: ViewContext): Promise<ChartPlan> {
  const { ns, type, id, field } = ctx.state as Required<Pick<typeof ctx.state, 'ns' | 'type' | 'id' | 'field'>>;
  const identity = { namespace: ns, doc_type: type, id };
  // Pinned with `at`: the walk starts there (history pages' cursor), so the chart ends at that version.
  const from = ctx.state.at === undefined ? {} : { cursor: ctx.state.at };
  const { entries } = await ctx.client.history(identity, { limit: MAX_CHART_VERSIONS, ...from });
  return {
    title: `${field} of ${ns}/${type} ${id}`,
    yLabel: field,
    entries: pinTo(entries, ctx.version),
    perVersion: 1,
    read: async (list) => {
      const r = await documentPoints(ctx.client, identity, field, list);
      const gaps = r.absent + r.notNumber;
      return {
        points: r.points,
        gaps: `${gaps} without a value: ${r.absent} where the document is absent, ${r.notNumber} where ${field} is not a number.`,
      };
    },
    sample: async () => documentSample(pinTo(entries, ctx.version)),
    linkOf: (version) => ctx.link({ view: 'document', at: version, field: undefined }),
    empty: `No version of ${ns}/${type} ${id} is in this section: check the id.`,
  };
}

async function typePlan(ctx: ViewContext): Promise<ChartPlan> {
  const { ns, type, agg, field } = ctx.state;
  const chart: TypeChart = {
    namespace: ns as string,
    type: type as string,
    aggregate: agg ?? 'count',
    ...(field ? { field } : {}),
  };
  // The section's commits (one request per 100); a store that cannot list them has no versions to chart.
  const store = ctx.client.refStore;
  const entries = store.commits ? (await store.commits({ limit: MAX_CHART_VERSIONS })).entries : [];
  const what = chart.aggregate === 'count' ? 'Documents' : `${chart.aggregate === 'sum' ? 'Sum' : 'Mean'} of ${field}`;
  return {
    title: `${what} of ${ns}/${type} over time`,
    yLabel: chart.aggregate === 'count' ? 'documents' : `${chart.aggregate}(${field})`,
    entries: pinTo(entries, ctx.version),
    perVersion: chart.aggregate === 'count' ? 1 : 2,
    read: async (list) => {
      const points = await typePoints(ctx.client, chart, list);
      const gaps = points.filter((p) => p.value === null).length;
      return {
        points,
        gaps: `${gaps} without a value (no index for the type, or the field not indexed, at that version).`,
      };
    },
    sample: () => typeSample(ctx.client, chart, pinTo(entries, ctx.version)),
    linkOf: (version) => ctx.link({ view: 'table', at: version, agg: undefined, field: undefined }),
    empty: 'The section has no commits.',
  };
}
