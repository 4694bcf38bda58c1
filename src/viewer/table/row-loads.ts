/**
 * The table's reads of every row not loaded yet (docs/viewer.md "Table per type"): "Load all rows", End,
 * and the downloads of the filtered rows — each weighed against the rate limit left first, and when that
 * would not cover it, saying so instead of reading.
 */
import type { BudgetVerdict, ViewContext } from '../context.js';
import { h } from '../dom.js';
import { textFilter } from './cells.js';
import { toCsv, toJson } from './export.js';
import { PAGE_ROWS, type TableSource } from './source.js';

const fmt = (n: number) => n.toLocaleString('en-US');

/** What a download costs, said next to its buttons. */
export function downloadCost(source: TableSource): string {
  if (source.done)
    return 'Downloads hold the rows that match the filters and the text filter; every row is loaded, so they cost no request.';
  return 'Downloads hold every row that matches the filters and the text filter: the rows not loaded yet are read first, about one request per 1,000 rows (index parts already read cost none), stopping when the rate limit runs low.';
}

/**
 * What loading every row not loaded yet costs: with a token two bulk reads (GraphQL, 100 parts each); without
 * one a request per index part not read yet, about one per 1,000 rows of the type not loaded (an upper
 * bound for a filtered table, whose plan may read fewer parts).
 */
function restCost(ctx: ViewContext, source: TableSource): number {
  const left = Math.max(0, (source.typeCount ?? source.rows.length) - source.rows.length);
  const parts = Math.max(1, Math.ceil(left / PAGE_ROWS));
  return ctx.hasToken() ? 1 + Math.ceil(parts / 100) : parts;
}

/**
 * Load every row not loaded yet in one query (source.loadRest), after checking its cost against the rate
 * limit left. Returns the refusing verdict when it could not.
 */
export async function loadRest(
  ctx: ViewContext,
  source: TableSource,
  progress: () => void,
): Promise<BudgetVerdict | undefined> {
  if (source.done || ctx.signal.aborted) return undefined;
  const verdict = ctx.budget.check(restCost(ctx, source), 'Loading the rows not loaded yet');
  if (!verdict.ok) return verdict;
  await source.loadRest();
  if (!ctx.signal.aborted) progress();
  return undefined;
}

/** The sentence for a load the rate limit refused. */
const stoppedAt = (verdict: BudgetVerdict | undefined, source: TableSource) =>
  verdict && `${verdict.message ?? ''} Stopped with ${fmt(source.rows.length)} rows loaded.`;

export function loadAllButton(ctx: ViewContext, source: TableSource, progress: () => void): HTMLElement | null {
  if (source.done) return null;
  const button = h('button', { attrs: { type: 'button', class: 'vt-load-all' } }, 'Load all rows');
  button.addEventListener('click', async () => {
    button.disabled = true;
    ctx.status('Loading every row of this filter…');
    const stopped = stoppedAt(await loadRest(ctx, source, progress), source);
    ctx.status(stopped ?? `All ${source.rows.length} rows loaded.`);
    button.remove();
  });
  return button;
}

/**
 * A download of the filtered rows (after loading the pages not loaded yet, within the rate limit). When the
 * rate limit left cannot pay for the rest, the page says so and asks: download the rows loaded, or add a
 * token (ctx.budget.warning). The file is a blob this page made from the rows as text, not a link from the
 * section.
 */
export function downloadButton(
  format: 'csv' | 'json',
  ctx: ViewContext,
  source: TableSource,
  text: () => string,
  name: string,
): HTMLElement {
  const button = h('button', { attrs: { type: 'button', 'data-format': format } }, `Download ${format.toUpperCase()}`);
  const save = (note?: string) => {
    const all = textFilter(source.rows, source.columns, text());
    const body = format === 'csv' ? toCsv(source.columns, all) : toJson(source.columns, all);
    const url = URL.createObjectURL(new Blob([body], { type: format === 'csv' ? 'text/csv' : 'application/json' }));
    const a = h('a', { attrs: { download: `${name}.${format}` } });
    a.href = url;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    ctx.status(`Downloaded ${all.length} rows as ${format.toUpperCase()}.${note ? ` ${note}` : ''}`);
    button.disabled = false;
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.parentElement?.querySelector('.budget-warning')?.remove();
    const stopped = await loadRest(ctx, source, () => ctx.status(`Loading rows: ${source.rows.length}…`));
    if (!stopped) return save();
    ctx.status('');
    const loaded = source.rows.length;
    const warning = ctx.budget.warning(
      { ...stopped, message: `${stoppedAt(stopped, source)} The download would hold only those.` },
      [
        {
          label: `Download the ${loaded} rows loaded`,
          run: () => {
            warning.remove();
            save(`Only the ${loaded} rows loaded: the rate limit stopped the rest.`);
          },
        },
      ],
    );
    button.after(warning);
    button.disabled = false;
  });
  return button;
}
