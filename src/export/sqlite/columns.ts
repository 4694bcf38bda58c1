/**
 * The field columns of a type's table are chosen as for every tabular export (../columns.ts); a field the
 * columns miss is still one `json_extract(data, '$.path')` away. Values are stored as SQLite has them: numbers,
 * text, booleans as 1/0 (SQLite has no boolean), objects and arrays as JSON text, absent fields as NULL.
 */
import { fieldValue } from '../../document/columns.js';

export { type FieldColumn, fieldColumns, SAMPLE_SIZE } from '../columns.js';

/** A value SQLite binds. */
export type SqlValue = string | number | bigint | null;

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
