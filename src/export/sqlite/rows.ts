/**
 * Filling type tables from documents: a whole version (a stream of the section, grouped by type as keys sort)
 * or a list of changed documents. A type seen for the first time gets its table with the columns chosen from
 * its index declaration or from the first documents of it (../column-chooser.ts).
 */
import type { Envelope } from '../../document/envelope.js';
import type { DocumentListEntry } from '../../document/index.js';
import type { ColumnChooser } from '../column-chooser.js';
import { SAMPLE_SIZE } from './columns.js';
import type { TableInfo } from './schema.js';
import type { CommitRow, TypeTables } from './tables.js';

/** Where rows go: the tables, the chooser for new types, and (with history) the commit each row is a version of. */
export interface RowSink {
  tables: TypeTables;
  chooser: ColumnChooser;
  /** With history: each row also becomes a `_versions` row of this commit. */
  commit?: CommitRow;
}

/** The table of a type, created from the data `sample()` gives when new. */
export async function tableFor(sink: RowSink, namespace: string, type: string, sample: () => readonly unknown[]) {
  const known = sink.tables.get(namespace, type);
  if (known) return known;
  const columns = await sink.chooser.columns(namespace, type, sample());
  return sink.tables.ensure(namespace, type, () => columns);
}

/** Write one document's row (and version row); `env` null removes it. */
export function writeRow(sink: RowSink, t: TableInfo, id: string, env: Envelope | null, version: string): void {
  if (sink.commit) sink.tables.addVersion(t, sink.commit, id, env);
  if (env) sink.tables.upsert(t, env, version);
  else sink.tables.remove(t, id);
}

/**
 * Every envelope of `entries` (one version of the section) as rows; returns how many. Entries come sorted by key,
 * so each type's documents are contiguous: the first {@link SAMPLE_SIZE} of a new type are held until its table
 * exists.
 *
 * @example
 * const n = await loadVersion(sink, docs.stream({ version, withData: true }), version);
 */
export async function loadVersion(
  sink: RowSink,
  entries: AsyncIterable<DocumentListEntry>,
  version: string,
  onRow?: (n: number) => void,
): Promise<number> {
  let held: Envelope[] = [];
  let table: TableInfo | undefined;
  let n = 0;
  const flush = async () => {
    const first = held[0];
    if (!first) return;
    table = await tableFor(sink, first.namespace, first.type, () => held.map((e) => e.data));
    for (const e of held) writeRow(sink, table, e.id, e, version);
    held = [];
  };
  for await (const entry of entries) {
    const env = entry.document;
    if (!env) continue;
    n++;
    onRow?.(n);
    if (table && table.namespace === env.namespace && table.type === env.type) {
      writeRow(sink, table, env.id, env, version);
      continue;
    }
    const same = held[0] && held[0].namespace === env.namespace && held[0].type === env.type;
    if (!same) await flush();
    if (!same) table = undefined;
    held.push(env);
    if (held.length >= SAMPLE_SIZE) await flush();
  }
  await flush();
  return n;
}
