/**
 * A type's rows on their way into a Parquet file. A column's type depends on every value it holds, and the file's
 * schema is written before its first row group, so the rows are kept on disk (a temporary file beside the export,
 * one line per row) while their column kinds are worked out, then read back a row group at a time: memory holds
 * one document while it is added and one row group while it is written, whatever the type's size.
 */
import { createReadStream } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fieldValue } from '../../document/columns.js';
import type { FieldColumn } from '../columns.js';
import { type ColumnKind, joinKinds, kindOf } from './kinds.js';

/** One row: the document's id, the commit it was written at, and its data as JSON text. */
export interface SpilledRow {
  id: string;
  version: string;
  /** The document's data as JSON text (`data` column). */
  json: string;
  /** The same, parsed (for the field columns), while the row's group is being written. */
  data: unknown;
}

/** Bytes gathered before they are appended to the file. */
const FLUSH_BYTES = 1 << 20;

/**
 * Rows appended to `path` (created; must not exist) with the kinds of `columns` followed as they come.
 *
 * @example
 * const spill = await Spill.create('/out/.docdb-spill-1a2b', columns);
 * await spill.add('o/r1', commit, { stars: 1 });
 * for await (const group of spill.groups(10_000)) write(group);
 * await spill.remove();
 */
export class Spill {
  readonly kinds: ColumnKind[];
  rows = 0;
  private pending: string[] = [];
  private pendingBytes = 0;

  private constructor(
    readonly path: string,
    readonly columns: readonly FieldColumn[],
    private handle: FileHandle | undefined,
  ) {
    this.kinds = columns.map(() => 'none');
  }

  static async create(path: string, columns: readonly FieldColumn[]): Promise<Spill> {
    return new Spill(path, columns, await open(path, 'wx', 0o600));
  }

  /** Add a row: its field values update the column kinds; `json` is `data`'s JSON text when already at hand. */
  async add(id: string, version: string, data: unknown, json: string = JSON.stringify(data)): Promise<void> {
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i] as FieldColumn;
      this.kinds[i] = joinKinds(this.kinds[i] as ColumnKind, kindOf(fieldValue(id, data, column.field)));
    }
    // JSON text holds no raw tab or line break: the first tab ends the head, the line break ends the row.
    const line = `${JSON.stringify([id, version])}\t${json}\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.rows++;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  /** The rows in the order added, `size` at a time (the file is closed for writing first). */
  async *groups(size: number): AsyncGenerator<SpilledRow[]> {
    await this.flush();
    await this.handle?.close();
    this.handle = undefined;
    const lines = createInterface({ input: createReadStream(this.path, 'utf8'), crlfDelay: Infinity });
    let group: SpilledRow[] = [];
    for await (const line of lines) {
      const tab = line.indexOf('\t');
      const [id, version] = JSON.parse(line.slice(0, tab)) as [string, string];
      const json = line.slice(tab + 1);
      group.push({ id, version, json, data: JSON.parse(json) });
      if (group.length >= size) {
        yield group;
        group = [];
      }
    }
    if (group.length > 0) yield group;
  }

  /** Close and delete the file (also after a failure). */
  async remove(): Promise<void> {
    await this.handle?.close().catch(() => {});
    this.handle = undefined;
    await rm(this.path, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0 || !this.handle) return;
    await this.handle.write(this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }
}
