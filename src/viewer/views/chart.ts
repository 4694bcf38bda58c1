/**
 * Charts over time (issue 29 item 6, issue 40 items 1, 3, 5): `view=chart&ns&type&id&field` charts a numeric
 * field of one document across its last 100 versions; `view=chart&ns&type[&agg&field]` a type's count, or the
 * sum, mean, min or max of a field, across the section's last 100 versions — from the type's index, or from
 * the documents of a small type without one — under a form that picks the field and the aggregate (the
 * count is drawn at once). Before spending the visitor's rate limit it asks `ctx.budget`: an anonymous
 * visitor is never spent more than {@link SAMPLE_BUDGET} requests without being asked — a chart that would
 * cost more is drawn from an evenly spaced sample within that budget, saying so, what every version would
 * cost, and offering a token (or, when what is left of the hour covers it, every version); when even the
 * sample is more than is left, the page says so, offers a token and spends nothing.
 */
import { explainError, type HistoryEntry } from '../../browser/index.js';
import { lineChart } from '../chart/line-chart.js';
import { type ChartPlan, documentPlan, typePlan } from '../chart/plans.js';
import { SAMPLE_BUDGET } from '../chart/scale.js';
import { typeChartForm } from '../chart/type-form.js';
import { valuesTable } from '../chart/values-table.js';
import type { BudgetChoice, BudgetVerdict, View, ViewContext } from '../context.js';
import { h } from '../dom.js';
import { ANONYMOUS_HOURLY } from '../frame/rate-limit.js';

/** The sentence for a chart URL that lacks what it needs, or undefined. */
function missing(ctx: ViewContext): string | undefined {
  const { ns, type, id, field } = ctx.state;
  if (ns === undefined || type === undefined) {
    return 'A chart needs "ns" and "type" (and "id" and "field" for one document).';
  }
  if (id !== undefined && field === undefined)
    return 'A document chart needs "field": the number to chart (data.stars).';
  return undefined;
}

/** A type chart's aggregate other than count needs a field: said under the form, which offers them. */
function fieldNeeded(ctx: ViewContext): string | undefined {
  const { id, agg, field } = ctx.state;
  if (id !== undefined || agg === undefined || agg === 'count' || field !== undefined) return undefined;
  return `"agg=${agg}" needs "field": the field to ${agg} (data.stars); pick one above.`;
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
  const showForm = formIn(section, ctx, plan);
  if (plan.note) section.append(h('p', { class: 'chart-note' }, plan.note));
  const needs = fieldNeeded(ctx);
  if (needs) {
    section.append(h('p', { class: 'error', attrs: { role: 'alert' } }, needs));
    return;
  }
  if (plan.entries.length === 0) {
    section.append(h('p', { class: 'error', attrs: { role: 'alert' } }, plan.empty));
    return;
  }
  const n = plan.entries.length;
  const full = plan.cost(n, ctx.hasToken());
  const verdict = ctx.budget.check(full, `This chart of ${n} versions`);
  // Without a token every version costs a request: all of them only when that is no more than a sample costs.
  if (verdict.ok && (ctx.hasToken() || full <= Math.max(plan.sampleCost, 1))) {
    await draw(section, ctx, plan, plan.entries, undefined);
    showForm();
    return;
  }
  const box = ask(section, ctx, plan, { verdict, full, showForm });
  if (ctx.hasToken() || plan.sampleCost === 0) return;
  // Anonymous: the sample, at once, when what is left of the hour pays for it; else nothing is spent.
  const left = ctx.budget.check(plan.sampleCost, 'The sample');
  if (!left.ok) {
    box.append(h('p', { class: 'error', dataset: { sample: 'refused' } }, left.message ?? ''));
    return;
  }
  await box.sample();
};

/** The type chart's form, kept current: its field choices can come from the documents the chart read. */
function formIn(section: HTMLElement, ctx: ViewContext, plan: ChartPlan): () => void {
  if (!plan.fields) return () => {};
  const slot = h('div', { class: 'chart-form-slot' });
  section.append(slot);
  const show = () => {
    const { fields, source } = (plan.fields as NonNullable<ChartPlan['fields']>)();
    slot.replaceChildren(typeChartForm(ctx, fields, source));
  };
  show();
  return show;
}

/**
 * The budget warning (ctx.budget.warning, with "Add a token") and its choices — every version when what is
 * left of the hour covers it — with what a token or a sample would cost; `sample()` draws the sample under it.
 */
function ask(
  section: HTMLElement,
  ctx: ViewContext,
  plan: ChartPlan,
  args: { verdict: BudgetVerdict; full: number; showForm: () => void },
): HTMLElement & { sample(): Promise<void> } {
  const n = plan.entries.length;
  const message = args.verdict.ok
    ? `This chart of ${n} versions needs about ${args.full} requests of the ${args.verdict.remaining ?? ANONYMOUS_HOURLY} left in this hour (GitHub allows ${ANONYMOUS_HOURLY} an hour without a token; a token gives 5,000).`
    : (args.verdict.message ?? '');
  const box = Object.assign(h('div', { class: 'chart-budget' }), { sample: async () => {} });
  let drawn: HTMLElement | undefined;
  const run = (entries: () => Promise<readonly HistoryEntry[]>, sampled: boolean) => async () => {
    for (const b of box.querySelectorAll<HTMLButtonElement>('button.read-all')) b.disabled = true;
    try {
      const list = await entries();
      if (ctx.signal.aborted) return;
      drawn?.remove();
      drawn = await draw(section, ctx, plan, list, sampled ? n : undefined);
      if (!sampled) box.remove();
      args.showForm();
    } catch (error) {
      section.append(
        ctx.budget.stopped(error) ??
          h('p', { class: 'error', attrs: { role: 'alert' } }, explainError(error, { repository: ctx.state.repo })),
      );
    }
  };
  box.sample = run(plan.sample, true);
  const choices: BudgetChoice[] = [];
  if (args.verdict.ok)
    choices.push({ label: `Read all ${n} versions`, run: () => void run(async () => plan.entries, false)() });
  const how =
    plan.sampleCost > 0
      ? `without one the chart samples evenly spaced versions, the newest and the oldest included, within ${SAMPLE_BUDGET} requests in all.`
      : `no sample fits in ${SAMPLE_BUDGET} requests (every version costs a read per document).`;
  const warning = ctx.budget.warning({ ...args.verdict, message }, choices);
  for (const b of warning.querySelectorAll('button'))
    if (b.textContent?.startsWith('Read all')) b.classList.add('read-all');
  box.append(warning, h('p', null, `A token reads all ${n} versions in about ${plan.cost(n, true)} requests; ${how}`));
  section.append(box);
  return box;
}

/** Read `entries` and draw the chart, its summary and its values table. */
async function draw(
  section: HTMLElement,
  ctx: ViewContext,
  plan: ChartPlan,
  entries: readonly HistoryEntry[],
  sampledFrom: number | undefined,
): Promise<HTMLElement | undefined> {
  ctx.status(`Reading ${entries.length} versions…`);
  const { points, gaps } = await plan.read(entries);
  if (ctx.signal.aborted) return undefined;
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
  return box;
}
