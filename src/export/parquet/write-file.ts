/**
 * Writing one type's Parquet file with hyparquet-writer (https://github.com/hyparam/hyparquet-writer): `id`, the
 * field columns with the types their values give (kinds.ts), `data` (the document's JSON text, JSON type) and
 * `_version`, a row group at a time from the type's spilled rows.
 *
 * JSON columns are written as UTF8 text docdb encodes itself, and declared JSON in the footer once every row group
 * is written: the writer's own JSON encoding copies each value through hyparquet's `toJson`, which drops an own
 * `__proto__` key — data a section may hold — so it never sees the values. Their min/max statistics are off (a
 * truncated prefix of JSON text is not JSON).
 */
import type { SchemaElement } from 'hyparquet-writer';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { fieldValue } from '../../document/columns.js';
import { type CellValue, cellValue, type ParquetType, parquetType, schemaElement } from './kinds.js';
import type { Spill, SpilledRow } from './spill.js';

/** Rows per row group: memory holds one group while it is written (readers fetch and skip by group). */
export const ROW_GROUP_ROWS = 10_000;

/** One column of a file, as `_docdb.json` records it: its name, the field it holds (field columns), its type. */
export interface FileColumn {
  name: string;
  field?: string;
  type: ParquetType;
}

const ID: SchemaElement = { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' };
const DATA: SchemaElement = { name: 'data', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
const VERSION: SchemaElement = {
  name: '_version',
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: 'REQUIRED',
};

/**
 * Write the rows of `spill` to `path` (a new file) in row groups of `rowGroupRows`; returns the file's columns.
 *
 * @example
 * const columns = await writeTypeFile(spill, '/out/.docdb-tmp-1a2b.parquet.part');
 */
export async function writeTypeFile(spill: Spill, path: string, rowGroupRows = ROW_GROUP_ROWS): Promise<FileColumn[]> {
  const fields = spill.columns.map((c, i) => ({ c, kind: spill.kinds[i] ?? 'none' }));
  const elements = fields.map(({ c, kind }) => schemaElement(c.column, kind));
  const schema: SchemaElement[] = [
    { name: 'root', num_children: elements.length + 3 },
    { ...ID },
    ...elements,
    { ...DATA },
    { ...VERSION },
  ];
  const jsonColumns = new Set(fields.filter((f) => parquetType(f.kind) === 'JSON').map((f) => f.c.column));
  const writer = new ParquetWriter({ writer: fileWriter(path), schema, createdBy: 'docdb (hyparquet-writer)' });
  for await (const group of spill.groups(rowGroupRows)) {
    const columnData = [
      { name: 'id', data: group.map((r) => r.id) },
      ...fields.map(({ c, kind }) => ({
        name: c.column,
        data: group.map((r): CellValue => cellValue(kind, fieldValue(r.id, r.data, c.field))),
        ...(jsonColumns.has(c.column) ? { statistics: false } : {}),
      })),
      { name: 'data', data: group.map((r: SpilledRow) => r.json), statistics: false },
      { name: '_version', data: group.map((r) => r.version) },
    ];
    await writer.write({ columnData, rowGroupSize: group.length });
  }
  // Every value is written: from here on the footer says what the text columns hold (see the top of this file).
  for (const element of schema) {
    if (element.name === 'data' || jsonColumns.has(element.name)) element.converted_type = 'JSON';
  }
  await writer.finish();
  return [
    { name: 'id', type: 'STRING' },
    ...fields.map(({ c, kind }) => ({ name: c.column, field: c.field, type: parquetType(kind) })),
    { name: 'data', type: 'JSON' },
    { name: '_version', type: 'STRING' },
  ];
}
