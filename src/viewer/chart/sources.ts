/**
 * What a chart reads, through the public client only: the versions to chart (a document's history, the
 * section's commits — each one request per 100) and the values at them (`versionsOf`: one GraphQL query per
 * 100 versions with a token; `typeSeries`: from the type's index). Without a token every version costs a
 * request, so a chart says what it would cost, and samples within {@link SAMPLE_BUDGET} (./plans.ts).
 */
import type { DocDbClient, HistoryEntry, Identity, SeriesAggregate, TypeSeriesPoint } from '../../browser/index.js';
import type { ChartPoint } from './line-chart.js';
import { fieldValue, SAMPLE_BUDGET, SAMPLE_VERSIONS, sampledFieldVersions, sampleEvenly } from './scale.js';

/** Versions charted at most (the budget's "last 100 versions"; one history page). */
export const MAX_CHART_VERSIONS = 100;

/**
 * Entries older than or at `version` when it is among them (a chart of `at=` stops there), else all.
 *
 * @example
 * const entries = pinTo((await client.history(identity, { limit: 100 })).entries, ctx.version);
 */
export function pinTo(entries: readonly HistoryEntry[], version: string): HistoryEntry[] {
  const i = entries.findIndex((e) => e.version === version);
  return i > 0 ? entries.slice(i) : [...entries];
}

const timeOf = (e: HistoryEntry) => Date.parse(e.committer.date);

/** A document's values at `entries` (newest first), as chart points oldest first, with its gaps counted. */
export async function documentPoints(
  client: DocDbClient,
  identity: Identity,
  field: string,
  entries: readonly HistoryEntry[],
): Promise<{ points: ChartPoint[]; absent: number; notNumber: number }> {
  const { documents } = await client.versionsOf(
    identity,
    entries.map((e) => e.version),
  );
  let absent = 0;
  let notNumber = 0;
  const points = entries.map((e, i): ChartPoint => {
    const doc = documents[i];
    if (!doc) {
      absent++;
      return { version: e.version, time: timeOf(e), value: null, note: 'the document is absent' };
    }
    const v = fieldValue(doc, field);
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      notNumber++;
      const what = v === undefined ? 'absent' : Array.isArray(v) ? 'a list' : v === null ? 'null' : `a ${typeof v}`;
      return { version: e.version, time: timeOf(e), value: null, note: `${field} is ${what}, not a number` };
    }
    return { version: e.version, time: timeOf(e), value: v };
  });
  return { points: points.reverse(), absent, notNumber };
}

/** The evenly spaced versions a sampled document chart reads (newest and oldest included). */
export function documentSample(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return sampleEvenly(entries, SAMPLE_VERSIONS);
}

/** A type chart's query. */
export interface TypeChart {
  namespace: string;
  type: string;
  aggregate: SeriesAggregate;
  field?: string;
}

const GAP_NOTE: Record<NonNullable<TypeSeriesPoint['gap']>, (field: string) => string> = {
  'no-index': () => 'the type has no index at this version',
  'field-not-indexed': (field) => `${field} is not indexed at this version`,
  'no-numbers': (field) => `no document holds a number at ${field}`,
};

/** A type's aggregate at `entries` (newest first), as chart points oldest first. */
export async function typePoints(
  client: DocDbClient,
  chart: TypeChart,
  entries: readonly HistoryEntry[],
): Promise<ChartPoint[]> {
  const { points } = await client.typeSeries(
    chart,
    entries.map((e) => e.version),
  );
  return entries
    .map((e, i): ChartPoint => {
      const p = points[i] as TypeSeriesPoint;
      const note = p.gap ? GAP_NOTE[p.gap](chart.field ?? '') : undefined;
      return { version: e.version, time: timeOf(e), value: p.value, ...(note ? { note } : {}) };
    })
    .reverse();
}

/**
 * The versions a sampled type chart reads within {@link SAMPLE_BUDGET} in all, `before` requests being spent
 * already (the ref, the commits, the index declaration: 3): for a count a manifest each (17); for a sum, mean,
 * min or max, as many as fit when each costs its manifest and its parts — the tip's manifest, read first,
 * says how many parts.
 */
export async function typeSample(
  client: DocDbClient,
  chart: TypeChart,
  entries: readonly HistoryEntry[],
  before = 3,
): Promise<HistoryEntry[]> {
  if (chart.aggregate === 'count' || entries.length === 0) return sampleEvenly(entries, SAMPLE_BUDGET - before);
  const tip = await client.typeSeries({ ...chart, aggregate: 'count' }, [(entries[0] as HistoryEntry).version]);
  return sampleEvenly(entries, sampledFieldVersions(tip.points[0]?.parts ?? 1, before + 1));
}
