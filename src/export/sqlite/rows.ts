/**
 * Filling type tables from documents: a whole version (a stream of the section, grouped by type as keys sort)
 * or a list of changed documents. A type seen for the first time gets its table with the columns chosen from
 * its index declaration or from the first documents of it (columns.ts).
 */
import type { DocumentStore } from '../../document/document-store.js';
import type { Envelope } from '../../document/envelope.js';
import { DECLARATION_KEY, type DocumentListEntry } from '../../document/index.js';
import { type FieldColumn, fieldColumns, SAMPLE_SIZE } from './columns.js';
import type { TableInfo } from './schema.js';
import type { CommitRow, TypeTables } from './tables.js';

/**
 * Chooses a new type's columns; reads the section's index declaration once, when first needed. With `listed`
 * (the section was just read whole at `version`, so its tree is in the store's cache), the declaration's key is
 * first looked up in the listing — free — and not read at all when absent (most sections).
 */
export class ColumnChooser {
  private declared: Promise<Map<string, readonly string[]>> | undefined;

  constructor(
    private readonly docs: DocumentStore,
    private readonly version: string,
    private readonly listed: boolean,
  ) {}

  /**
   * The columns of `namespace/type`: its index fields, else the sample's leaf paths.
   *
   * @example
   * const columns = await chooser.columns('github', 'repo', [doc.data]);
   */
  async columns(namespace: string, type: string, sample: readonly unknown[]): Promise<FieldColumn[]> {
    this.declared ??= this.declaration();
    return fieldColumns((await this.declared).get(`${namespace}\n${type}`), sample);
  }

  private async declaration(): Promise<Map<string, readonly string[]>> {
    if (this.listed) {
      const { entries } = await this.docs.store.list({ prefix: DECLARATION_KEY, version: this.version });
      if (!entries.some((e) => e.key === DECLARATION_KEY)) return new Map();
    }
    const d = await this.docs.indexes({ version: this.version });
    return new Map(d.indexes.map((t) => [`${t.namespace}\n${t.type}`, t.fields]));
  }
}

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
