/**
 * The aggregates `typeSeries` answers (type-series.ts), apart from it: a page lists them (the viewer's chart
 * form) without loading the series reader, which the browser bundle loads on the first series.
 */

/** Every aggregate `typeSeries` takes. */
export const SERIES_AGGREGATES = ['count', 'sum', 'mean', 'min', 'max'] as const;
export type SeriesAggregate = (typeof SERIES_AGGREGATES)[number];
