/**
 * SQL names in the export. Namespaces, types and field names come from the section — untrusted data — so every
 * identifier is quoted (SQLite's standard double quotes, a quote inside doubled:
 * https://www.sqlite.org/lang_keywords.html) and every value is bound as a parameter, never spliced into SQL.
 * SQLite compares table and column names without regard to ASCII case, so names are kept unique that way
 * (`a_b` from namespace `a` type `b`, and from namespace `a_b`… get `_2`, `_3`: ../names.ts).
 */
import { NameSet as BaseNameSet } from '../names.js';

/** Tables (and prefixes) docdb itself uses: a type never takes these names. */
export const META_TABLE = '_docdb';
export const TABLES_TABLE = '_docdb_tables';
export const COMMITS_TABLE = 'commits';
/** The columns every type table (and `<table>_versions` table) has, besides the field columns. */
export { columnName, ROW_COLUMNS, VERSION_COLUMNS } from '../columns.js';

/**
 * `name` as an SQL identifier: in double quotes, each `"` doubled. A NUL cannot be in an identifier at all.
 *
 * @example
 * quoteIdent('x"; DROP TABLE t; --'); // '"x""; DROP TABLE t; --"'
 */
export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new Error(`an SQL name cannot hold NUL: ${JSON.stringify(name)}`);
  return `"${name.replaceAll('"', '""')}"`;
}

/** The set of names taken in one database, compared as SQLite compares them; SQLite's and docdb's tables reserved. */
export class NameSet extends BaseNameSet {
  constructor(names: Iterable<string> = []) {
    super(names, reserved);
  }
}

/** SQLite's own tables (`sqlite_…` cannot be created) and docdb's; `f` is ASCII case folded. */
function reserved(f: string): boolean {
  return f.startsWith('sqlite_') || f === META_TABLE || f === TABLES_TABLE || f === COMMITS_TABLE;
}
