/** Every figure the docs may quote, by marker name: inline figures, tables and generated sentences. */
import { inlineFigures } from './inline.js';
import { paragraphs } from './paragraphs.js';
import type { Results } from './results.js';
import { searchFigures } from './search-figures.js';
import { tables } from './tables.js';

/** Marker name → the text it renders from the results. */
export const figures: Record<string, (r: Results) => string> = {
  ...inlineFigures,
  ...searchFigures,
  ...tables,
  ...paragraphs,
};

const all = [inlineFigures, searchFigures, tables, paragraphs].flatMap(Object.keys);
if (new Set(all).size !== all.length) throw new Error('bench-docs: a figure name is defined twice');
