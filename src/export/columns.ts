/**
 * The field columns of a type in a tabular export (SQLite, Parquet), chosen as the viewer's table chooses its
 * columns (src/document/columns.ts, reused, not copied): an indexed type's index fields; otherwise the leaf paths
 * of a sample of its documents (two levels into `data`, at most 12 columns). `data` keeps every document whole as
 * JSON text, so a field the columns miss is still one JSON function away. Both exports name a type's columns the
 * same way, so a query written for one reads the other.
 */
import { indexColumns, SAMPLE_SIZE, sampleColumns } from '../document/columns.js';
import { NameSet } from './names.js';

export { SAMPLE_SIZE };

/** The columns every type table or file has, besides its field columns. */
export const ROW_COLUMNS = ['id', 'data', '_version'] as const;
/** The columns every SQLite `<table>_versions` table has, besides the field columns (kept free in every format). */
export const VERSION_COLUMNS = ['_id', '_commit', '_committed_at', '_deleted', '_changed', 'id', 'data'] as const;

/** One field column: the field's path (`data.owner.login`) and the column it fills (`owner.login`). */
export interface FieldColumn {
  field: string;
  column: string;
}

/**
 * The column name a field gets: its path without `data.` (`data.owner.login` → `owner.login`), or the whole path
 * when that would collide with a column every row has (`data.id` stays `data.id`). Duplicates (`data.Stars` and
 * `data.stars`) are left out by the caller through a NameSet.
 *
 * @example
 * columnName('data.stars'); // 'stars'
 * columnName('data._version'); // 'data._version'
 */
export function columnName(field: string): string {
  const short = field.startsWith('data.') ? field.slice(5) : field;
  const fixed = new NameSet([...ROW_COLUMNS, ...VERSION_COLUMNS]);
  return fixed.has(short) ? field : short;
}

/**
 * The field columns of a type: its index fields when it has an index, else the sample's leaf paths; `id` and
 * `data` (always columns of their own) and names a reader would take for the same column (ASCII case folded)
 * are left out.
 *
 * @example
 * fieldColumns(undefined, [{ stars: 1, owner: { login: 'o' } }]); // [{ field: 'data.stars', column: 'stars' }, { field: 'data.owner.login', column: 'owner.login' }]
 */
export function fieldColumns(indexFields: readonly string[] | undefined, sample: readonly unknown[]): FieldColumn[] {
  const fields = indexFields ? indexColumns(indexFields) : sampleColumns(sample.slice(0, SAMPLE_SIZE));
  const seen = new NameSet(['id', 'data']);
  const out: FieldColumn[] = [];
  for (const field of fields) {
    if (field === 'id' || field === 'data' || field.includes('\u0000')) continue;
    const column = columnName(field);
    if (seen.has(column)) continue;
    seen.add(column);
    out.push({ field, column });
  }
  return out;
}
