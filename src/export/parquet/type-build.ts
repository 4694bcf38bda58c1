/**
 * One type's file being built: its first rows are held until its columns are chosen (from its index declaration
 * or those first documents, as the SQLite export chooses them), then every row goes to a spill file, and at the
 * end the Parquet file is written from it under a temporary name.
 */
import { SAMPLE_SIZE } from '../../document/columns.js';
import type { FieldColumn } from '../columns.js';
import { Spill } from './spill.js';
import type { Staging } from './staging.js';
import { type FileColumn, writeTypeFile } from './write-file.js';

interface Held {
  id: string;
  version: string;
  data: unknown;
  json: string | undefined;
}

/** The columns of a type: known (a re-export keeps them), or chosen from a sample of its documents' data. */
export type Columns = readonly FieldColumn[] | ((sample: readonly unknown[]) => Promise<FieldColumn[]>);

/**
 * A type's rows on their way to its file.
 *
 * @example
 * const build = new TypeBuild('github', 'repo', staging, (sample) => chooser.columns('github', 'repo', sample));
 * await build.add('o/r1', commit, { stars: 1 });
 * const { path, columns } = await build.finish();
 */
export class TypeBuild {
  private held: Held[] = [];
  private spill: Spill | undefined;
  rows = 0;

  constructor(
    readonly namespace: string,
    readonly type: string,
    private readonly staging: Staging,
    private readonly columns: Columns,
    private readonly rowGroupRows?: number,
  ) {}

  /** Add a document's row; `json` is its data's JSON text when already at hand (a previous file's). */
  async add(id: string, version: string, data: unknown, json?: string): Promise<void> {
    this.rows++;
    if (this.spill) return this.spill.add(id, version, data, json);
    this.held.push({ id, version, data, json });
    if (typeof this.columns !== 'function' || this.held.length >= SAMPLE_SIZE) await this.startSpill();
  }

  /** Write the file under a temporary name in the staging directory; its path and columns. */
  async finish(): Promise<{ path: string; columns: FileColumn[] }> {
    if (!this.spill) await this.startSpill();
    const spill = this.spill as Spill;
    const path = this.staging.tempPath('part');
    try {
      return { path, columns: await writeTypeFile(spill, path, this.rowGroupRows) };
    } finally {
      await spill.remove();
    }
  }

  private async startSpill(): Promise<void> {
    const columns =
      typeof this.columns === 'function' ? await this.columns(this.held.map((h) => h.data)) : this.columns;
    const spill = await Spill.create(this.staging.tempPath('spill'), columns);
    this.staging.whenDiscarded(() => spill.remove());
    this.spill = spill;
    for (const h of this.held) await spill.add(h.id, h.version, h.data, h.json);
    this.held = [];
  }
}
