/** The budget warning every view can show (`ctx.budget.warning`): the sentence and the ways out. */
import type { BudgetChoice, BudgetVerdict } from '../context.js';
import { h } from '../dom.js';

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
