/**
 * The rows of a type's previous Parquet file, read back with hyparquet (https://github.com/hyparam/hyparquet, the
 * reader hyparquet-writer is built on) a row group at a time: a re-export rebuilds a changed type's file from
 * them and the changed documents, instead of reading every document of the type again from the section.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';

/** One row of a previous file: `id`, `data` as JSON text (as written, not re-encoded) and `_version`. */
export interface PreviousRow {
  id: string;
  json: string;
  version: string;
}

const decoder = new TextDecoder();

/**
 * The rows of `path`, one row group at a time.
 *
 * @example
 * for await (const row of previousRows('/out/github_repo.parquet')) if (!changed.has(row.id)) keep(row);
 */
export async function* previousRows(path: string): AsyncGenerator<PreviousRow> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    const rows = await parquetReadObjects({
      file,
      metadata,
      columns: ['id', 'data', '_version'],
      rowStart: start,
      rowEnd: end,
      // The data column's JSON text as it is: parsing and printing it again could change it.
      parsers: { jsonFromBytes: (bytes: Uint8Array) => decoder.decode(bytes) },
    });
    for (const r of rows) {
      yield {
        id: String(r.id),
        json: r.data === null || r.data === undefined ? 'null' : String(r.data),
        version: String(r._version),
      };
    }
    start = end;
  }
}
