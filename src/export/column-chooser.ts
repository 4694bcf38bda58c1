/**
 * Choosing a new type's columns in a tabular export (SQLite, Parquet): its index declaration when the section
 * declares one for it, else the first documents of it (columns.ts).
 */
import type { DocumentStore } from '../document/document-store.js';
import { DECLARATION_KEY } from '../document/index.js';
import { type FieldColumn, fieldColumns } from './columns.js';

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
