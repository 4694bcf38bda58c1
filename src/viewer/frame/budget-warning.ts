/** The budget warning every view can show (`ctx.budget.warning`): the sentence and the ways out. */
import type { BudgetChoice, BudgetVerdict } from '../context.js';
import { h } from '../dom.js';
import type { LimitStop } from './rate-limit.js';

/**
 * A warning for a verdict of `ctx.budget.check` that said no.
 *
 * @example
 * const verdict = ctx.budget.check(120, 'This chart');
 * if (!verdict.ok) root.append(ctx.budget.warning(verdict, [{ label: 'Sample 20 versions', run: sample }]));
 */
export function budgetWarning(
  verdict: BudgetVerdict,
  choices: readonly BudgetChoice[],
  openTokenPanel: () => void,
): HTMLElement {
  const button = (c: BudgetChoice) => h('button', { attrs: { type: 'button' }, on: { click: () => c.run() } }, c.label);
  return h(
    'div',
    { class: 'budget-warning', attrs: { role: 'alert' } },
    h('p', { text: verdict.message ?? 'This would use more requests than are left in this hour.' }),
    h('div', { class: 'buttons' }, ...choices.map(button), button({ label: 'Add a token', run: openTokenPanel })),
  );
}

/**
 * What the page shows where a rate limit stopped it (the view, a chart's sample, a page of diffs): which
 * limit, when it resets or when to try again, and — for the hourly limit — "Add a token" (the token panel).
 *
 * @example
 * const stop = limitStop(error, { rateLimit, hasToken: false, time });
 * if (stop) view.append(limitNotice(stop, () => panel.open()));
 */
export function limitNotice(stop: LimitStop, openTokenPanel: () => void): HTMLElement {
  const buttons =
    stop.kind === 'primary'
      ? [h('button', { attrs: { type: 'button' }, on: { click: openTokenPanel } }, 'Add a token')]
      : [];
  return h(
    'div',
    { class: 'budget-warning limit-stop', dataset: { limit: stop.kind }, attrs: { role: 'alert' } },
    h('p', { text: stop.message }),
    h('div', { class: 'buttons' }, ...buttons),
  );
}
