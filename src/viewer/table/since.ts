/**
 * The table's `from=<version>` (issue 40 item 10, flat-viewer's diff view): the rows as they were at an
 * earlier version, so the grid can mark the cells whose value changed since, the rows added since, and
 * say which rows were removed. The cheapest read that answers it:
 * - a type with an index: the index's rows at `from` — ONE query (the parts at `from`; parts whose blob did
 *   not change are the ones the table already read), never a document per row;
 * - a type whose documents the table read all of: its documents at `from` (the same cost, asked first);
 * - a sample (the rate limit did not allow reading every document): not compared, and the page says why.
 */
import type { BudgetVerdict } from '../context.js';
import { cellValue, rowOf, type TableRow } from './cells.js';
import type { SourceQuery, TableSource } from './source.js';

/** What changed in one cell of the grid since `from`. */
export type CellChange = 'added' | 'changed';

export interface Since {
  /** The version compared with. */
  readonly from: string;
  /** Each row's values at `from`, by id (a row missing here was added since). */
  readonly before: ReadonlyMap<string, Record<string, unknown>>;
  /** Documents of the type at `from`. */
  readonly count: number;
}

export type SinceQuery = Pick<SourceQuery, 'client' | 'namespace' | 'type' | 'hasToken'> & {
  from: string;
  budget: (requests: number, what: string) => BudgetVerdict;
};

/**
 * Read the rows of the table's type at `q.from`, in the table's columns.
 *
 * @example
 * const since = await openSince({ client, namespace: 'github', type: 'repo', from, hasToken: false, budget }, source);
 * if ('problem' in since) say(since.problem); else grid.mark = (row, c) => cellChange(since, row, c);
 */
export async function openSince(q: SinceQuery, source: TableSource): Promise<Since | { problem: string }> {
  if (source.mode === 'sample')
    return {
      problem:
        'Changes since a version need every document of the type, which the rate limit left does not allow: not compared.',
    };
  const rows = source.mode === 'index' ? await indexRowsAt(q, source) : await documentRowsAt(q, source);
  if ('problem' in rows) return rows;
  return { from: q.from, before: new Map(rows.map((r) => [r.id, r.values])), count: rows.length };
}

async function indexRowsAt(q: SinceQuery, source: TableSource): Promise<TableRow[] | { problem: string }> {
  const fields = source.columns.filter((c) => c !== 'id');
  try {
    const r = await q.client.query({
      namespace: q.namespace,
      type: q.type,
      fields: fields.length > 0 ? fields : ['id'],
      version: q.from,
      requireIndex: true,
    });
    return r.rows.map((row) => ({ id: row.id, values: row.values }));
  } catch (e) {
    // The type had no index (or not these fields) at `from`: reading its documents there could cost a
    // request per document, so the page says so instead.
    return {
      problem: `Could not read the index of ${q.namespace}/${q.type} at ${q.from.slice(0, 7)}: ${(e as Error).message}`,
    };
  }
}

async function documentRowsAt(q: SinceQuery, source: TableSource): Promise<TableRow[] | { problem: string }> {
  const n = source.typeCount ?? source.rows.length;
  // The same price as the table's own read of every document (documents unchanged since are cached blobs).
  const verdict = q.budget(q.hasToken ? Math.ceil(n / 100) + 1 : n, `Reading the documents at ${q.from.slice(0, 7)}`);
  if (!verdict.ok) return { problem: `${verdict.message ?? ''} Not compared with ${q.from.slice(0, 7)}.` };
  const r = await q.client.query({ namespace: q.namespace, type: q.type, version: q.from });
  return (r.documents ?? []).map((d) => rowOf(d as { id: string; data: unknown }, source.columns));
}

/** Values compared as their JSON text (documents and index rows hold JSON values). */
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * How a cell differs from `from`: `added` for every cell of a row added since, `changed` for a value that
 * is not the one at `from`, undefined when the same.
 *
 * @example
 * cellChange(since, { id: 'a', values: { 'data.n': 2 } }, 'data.n'); // 'changed' when it was 1
 */
export function cellChange(since: Since, row: TableRow, column: string): CellChange | undefined {
  const before = since.before.get(row.id);
  if (!before) return 'added';
  if (column === 'id') return undefined;
  return same(before[column], cellValue(row, column)) ? undefined : 'changed';
}

/** The value a changed cell had at `from` (undefined: absent then). */
export function valueAt(since: Since, row: TableRow, column: string): unknown {
  return since.before.get(row.id)?.[column];
}

export interface SinceSummary {
  changedCells: number;
  changedRows: number;
  added: number;
  /** Ids removed since: every one when the whole type is loaded unfiltered, else undefined. */
  removed?: string[];
  /** Rows removed since, at least (from the type's counts then and now) when `removed` is not known. */
  removedAtLeast: number;
}

/**
 * What changed among the rows loaded, and the rows removed since.
 *
 * @example
 * summarise(since, source); // { changedCells: 3, changedRows: 2, added: 1, removed: ['old'], removedAtLeast: 1 }
 */
export function summarise(since: Since, source: TableSource): SinceSummary {
  const out: SinceSummary = { changedCells: 0, changedRows: 0, added: 0, removedAtLeast: 0 };
  for (const row of source.rows) {
    if (!since.before.has(row.id)) {
      out.added++;
      continue;
    }
    const cells = source.columns.filter((c) => cellChange(since, row, c) === 'changed').length;
    out.changedCells += cells;
    if (cells > 0) out.changedRows++;
  }
  if (source.done && !source.filtered) {
    const now = new Set(source.rows.map((r) => r.id));
    out.removed = [...since.before.keys()].filter((id) => !now.has(id));
    out.removedAtLeast = out.removed.length;
  } else {
    out.removedAtLeast = Math.max(0, since.count - (source.typeCount ?? since.count));
  }
  return out;
}
