/**
 * A small unindexed type's aggregate across versions, from its documents (issue 40 item 3): the table reads
 * such a type's documents, and so does its chart — each document at every charted version with
 * `client.versionsOf` (one GraphQL query per 100 versions with a token, one read per version without). The
 * documents followed are those at the newest and at the oldest charted version (one listing each); one that
 * came and went between them is not seen, and the page says which documents it followed.
 */
import type { DocDbClient, Envelope, HistoryEntry, Identity } from '../../browser/index.js';
import type { Aggregate } from '../state.js';
import type { ChartPoint } from './line-chart.js';
import { fieldValue } from './scale.js';

/** The most documents a type chart without an index reads one by one (larger: declare an index). */
export const SMALL_TYPE = 100;

/**
 * The documents of `namespace/type` at the newest and the oldest of `versions`, each once, by id.
 *
 * @example
 * const ids = await typeIdentities(client, 'weather', 'station', entries.map((e) => e.version));
 */
export async function typeIdentities(
  client: DocDbClient,
  namespace: string,
  type: string,
  versions: readonly string[],
): Promise<Identity[]> {
  const ends = [...new Set([versions[0], versions.at(-1)])].filter((v): v is string => v !== undefined);
  const byId = new Map<string, Identity>();
  for (const version of ends) {
    const { documents } = await client.list({ namespace, type, version });
    for (const d of documents) byId.set(d.id, { namespace: d.namespace, doc_type: d.doc_type, id: d.id });
  }
  return [...byId.values()];
}

/**
 * Each charted version's aggregate (`entries` newest first; points oldest first), from the documents of
 * `identities` read at every version.
 *
 * @example
 * const points = await documentTypePoints(client, { aggregate: 'sum', field: 'data.temperature_c' }, ids, entries);
 */
export async function documentTypePoints(
  client: DocDbClient,
  chart: { aggregate: Aggregate; field?: string },
  identities: readonly Identity[],
  entries: readonly HistoryEntry[],
): Promise<{ points: ChartPoint[]; newest: Envelope[] }> {
  const versions = entries.map((e) => e.version);
  const columns: (Envelope | null)[][] = [];
  // One document at a time: an anonymous visitor's reads go out in order, as GitHub asks.
  for (const identity of identities) columns.push((await client.versionsOf(identity, versions)).documents);
  const at = (i: number) => columns.map((c) => c[i]).filter((d): d is Envelope => d != null);
  const points = entries.map((e, i): ChartPoint => {
    const { value, note } = aggregateOf(at(i), chart);
    return { version: e.version, time: Date.parse(e.committer.date), value, ...(note ? { note } : {}) };
  });
  return { points: points.reverse(), newest: at(0) };
}

/**
 * The aggregate of `docs` (count; or sum, mean, min, max of the numbers at `field` — non-numbers left out,
 * as the index-based series does; a sum of none is 0, the others are a gap).
 *
 * @example
 * aggregateOf([{ data: { t: 2 } }, { data: { t: 4 } }], { aggregate: 'mean', field: 'data.t' }); // { value: 3 }
 */
export function aggregateOf(
  docs: readonly unknown[],
  chart: { aggregate: Aggregate; field?: string },
): { value: number | null; note?: string } {
  if (chart.aggregate === 'count') return { value: docs.length };
  const field = chart.field ?? '';
  const numbers = docs
    .map((d) => fieldValue(d, field))
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const sum = numbers.reduce((a, b) => a + b, 0);
  if (chart.aggregate === 'sum') return { value: sum };
  if (numbers.length === 0) return { value: null, note: `no document holds a number at ${field}` };
  if (chart.aggregate === 'mean') return { value: sum / numbers.length };
  // A fold, not Math.min(...numbers): a spread of an unbounded array into a call can overflow the stack.
  const pick = chart.aggregate === 'min' ? Math.min : Math.max;
  return { value: numbers.reduce((a, b) => pick(a, b)) };
}
