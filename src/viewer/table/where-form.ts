/**
 * The filter form of a table (a type's or a data file's): each clause is checked by the library's parser
 * before it goes in the URL's `where`; a clause in force is removed from it.
 */
import { parseWhere } from '../../browser/index.js';
import type { ViewContext } from '../context.js';
import { filterForm } from './controls.js';

/** How a clause's error names where it came from (the library's messages take the setting's name). */
export const FILTER_NAMES = {
  phrase: () => 'the filter',
  label: () => 'filter',
  example: () => '',
};

/**
 * The filter form over `fields`, bound to the URL state.
 *
 * @example
 * form.append(whereForm(ctx, source.sortable));
 */
export function whereForm(ctx: ViewContext, fields: readonly string[]): HTMLElement {
  const add = (clause: string): string | undefined => {
    try {
      parseWhere(clause, FILTER_NAMES);
    } catch (e) {
      return (e as Error).message;
    }
    ctx.navigate({ where: [...ctx.state.where, clause] });
    return undefined;
  };
  const remove = (i: number) => ctx.navigate({ where: ctx.state.where.filter((_, j) => j !== i) });
  return filterForm(fields, ctx.state.where, add, remove);
}
