/**
 * The field columns of a type's table, chosen as the viewer's table chooses its columns (src/viewer/table/cells.ts,
 * reused, not copied): an indexed type's index fields; otherwise the leaf paths of a sample of its documents
 * (two levels into `data`, at most 12 columns). `data` keeps every document whole as JSON text, so a field the
 * columns miss is still one `json_extract(data, '$.path')` away. Values are stored as SQLite has them: numbers,
 * text, booleans as 1/0 (SQLite has no boolean), objects and arrays as JSON text, absent fields as NULL.
 */
import { fieldValue, indexColumns, SAMPLE_SIZE, sampleColumns } from '../../document/columns.js';
import { columnName, NameSet } from './names.js';

export { SAMPLE_SIZE };

/** One field column: the field's path (`data.owner.login`) and the SQL column it fills (`owner.login`). */
export interface FieldColumn {
  field: string;
  column: string;
}

/** A value SQLite binds. */
export type SqlValue = string | number | bigint | null;

/**
 * The field columns of a type: its index fields when it has an index, else the sample's leaf paths; `id` and
 * `data` (always columns of their own) and names SQLite would take for the same column are left out.
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

/**
 * A document's value at `field` as SQLite stores it.
 *
 * @example
 * sqlValue({ tags: ['a'] }, 'data.tags'); // '["a"]'
 */
export function sqlValue(data: unknown, field: string): SqlValue {
  const v = fieldValue('', data, field);
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'string') return v;
  return JSON.stringify(v);
}
