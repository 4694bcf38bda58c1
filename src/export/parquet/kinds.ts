/**
 * The Parquet type of a field column, inferred over every value the column holds in the file (not a sample): a
 * column of integers is INT64, of numbers DOUBLE, of booleans BOOLEAN, of strings STRING (UTF8), of objects and
 * arrays JSON (their JSON text, with Parquet's JSON type); a column whose values are of more than one of these is
 * STRING holding each value's JSON text (`1`, `"a"`, `true`), so nothing is lost or coerced. A missing field (or
 * a JSON `null`) is NULL; a column with no value at all is STRING. The table is in docs/export.md.
 */
import type { SchemaElement } from 'hyparquet-writer';

/** What the values of a column seen so far are. `none`: no value yet (every row NULL). */
export type ColumnKind = 'none' | 'int' | 'double' | 'boolean' | 'string' | 'json' | 'mixed';

/** The Parquet type each kind is written as, as `_docdb.json` names it. */
export type ParquetType = 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING' | 'JSON';

const TYPE_OF: Record<ColumnKind, ParquetType> = {
  none: 'STRING',
  int: 'INT64',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  string: 'STRING',
  json: 'JSON',
  mixed: 'STRING',
};

/**
 * The kind of one value (`none` for a missing field or JSON `null`). An integer beyond ±2^53 is not exact in
 * JavaScript (JSON.parse already rounded it), so it counts as a DOUBLE, not an INT64 it would misstate.
 *
 * @example
 * kindOf(3); // 'int'
 * kindOf(2 ** 60); // 'double'
 * kindOf({ a: 1 }); // 'json'
 */
export function kindOf(value: unknown): ColumnKind {
  if (value === undefined || value === null) return 'none';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'json';
}

/**
 * The kind of a column holding values of kinds `a` and `b`: integers and other numbers are DOUBLE; any other
 * two kinds are `mixed`.
 *
 * @example
 * joinKinds('int', 'double'); // 'double'
 * joinKinds('int', 'string'); // 'mixed'
 */
export function joinKinds(a: ColumnKind, b: ColumnKind): ColumnKind {
  if (a === b || b === 'none') return a;
  if (a === 'none') return b;
  if ((a === 'int' && b === 'double') || (a === 'double' && b === 'int')) return 'double';
  return 'mixed';
}

/**
 * The Parquet type a column of `kind` is written as.
 *
 * @example
 * parquetType('mixed'); // 'STRING'
 */
export function parquetType(kind: ColumnKind): ParquetType {
  return TYPE_OF[kind];
}

/**
 * The schema element of an optional column of `kind`. JSON columns are written as UTF8 text docdb encodes itself
 * and declared JSON once written (json-columns.ts), so it is BYTE_ARRAY/UTF8 here.
 *
 * @example
 * schemaElement('stars', 'int'); // { name: 'stars', type: 'INT64', repetition_type: 'OPTIONAL' }
 */
export function schemaElement(name: string, kind: ColumnKind): SchemaElement {
  const type = parquetType(kind);
  if (type === 'INT64' || type === 'DOUBLE' || type === 'BOOLEAN') return { name, type, repetition_type: 'OPTIONAL' };
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
}

/** A value as the writer takes it for a column of `kind` (INT64 wants a bigint; JSON and mixed: JSON text). */
export type CellValue = string | number | bigint | boolean | null;

/**
 * `value` (of a column of `kind`) as the writer takes it.
 *
 * @example
 * cellValue('int', 3); // 3n
 * cellValue('mixed', 'a'); // '"a"'
 * cellValue('json', ['a']); // '["a"]'
 */
export function cellValue(kind: ColumnKind, value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'int':
      return BigInt(value as number);
    case 'double':
    case 'boolean':
    case 'string':
      return value as number | boolean | string;
    default:
      return JSON.stringify(value);
  }
}
