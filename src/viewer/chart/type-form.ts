/**
 * The type chart's form (issue 40 item 1): which field and which aggregate (count, sum, mean, min, max). A
 * type chart opened without them (the overview's "chart" links, the header's "<type> chart") draws the
 * document count at once under this form; the form's choices go into the URL (a history entry: back and
 * forward work), so every chart it draws is a link.
 */
import type { ViewContext } from '../context.js';
import { h } from '../dom.js';
import { AGGREGATES, type Aggregate } from '../state.js';

const AGG_LABEL: Record<Aggregate, string> = {
  count: 'count of documents',
  sum: 'sum',
  mean: 'mean',
  min: 'minimum',
  max: 'maximum',
};

/**
 * The form for `ctx.state`'s type chart; `fields` are the numeric-field choices (the index's fields, or a
 * sample's columns) and `source` says where they come from.
 *
 * @example
 * section.append(typeChartForm(ctx, ['data.stars', 'data.forks'], 'Fields of the index of github/repo.'));
 */
export function typeChartForm(ctx: ViewContext, fields: readonly string[], source: string): HTMLElement {
  const agg = ctx.state.agg ?? 'count';
  const choices = ctx.state.field && !fields.includes(ctx.state.field) ? [ctx.state.field, ...fields] : fields;
  const field = h(
    'select',
    { attrs: { id: 'chart-field', name: 'field' } },
    h('option', { attrs: { value: '', selected: !ctx.state.field } }, '(none: count only)'),
    ...choices.map((f) => h('option', { attrs: { value: f, selected: f === ctx.state.field } }, f)),
  );
  const aggregate = h(
    'select',
    { attrs: { id: 'chart-agg', name: 'agg' } },
    ...AGGREGATES.map((a) => h('option', { attrs: { value: a, selected: a === agg } }, AGG_LABEL[a])),
  );
  const problem = h('p', { class: 'form-problem', attrs: { role: 'alert' } });
  const form = h(
    'form',
    { class: 'chart-form', attrs: { 'aria-label': 'What to chart' } },
    h('label', { attrs: { for: 'chart-agg' } }, 'Aggregate'),
    aggregate,
    h('label', { attrs: { for: 'chart-field' } }, 'Field'),
    field,
    h('button', { attrs: { type: 'submit' } }, 'Draw'),
    h('p', { class: 'chart-form-note' }, source),
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const a = aggregate.value as Aggregate;
    if (a !== 'count' && field.value === '') {
      problem.textContent = `The ${AGG_LABEL[a]} needs a field: pick one.`;
      return;
    }
    ctx.navigate({ agg: a, field: field.value === '' ? undefined : field.value });
  });
  return form;
}
