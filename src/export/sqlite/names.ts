/**
 * SQL names in the export. Namespaces, types and field names come from the section — untrusted data — so every
 * identifier is quoted (SQLite's standard double quotes, a quote inside doubled:
 * https://www.sqlite.org/lang_keywords.html) and every value is bound as a parameter, never spliced into SQL.
 * SQLite compares table and column names without regard to ASCII case, so names are kept unique that way
 * (`a_b` from namespace `a` type `b`, and from namespace `a_b`… get `_2`, `_3`).
 */

/** Tables (and prefixes) docdb itself uses: a type never takes these names. */
export const META_TABLE = '_docdb';
export const TABLES_TABLE = '_docdb_tables';
export const COMMITS_TABLE = 'commits';
/** The columns every type table has, before its field columns. */
export const ROW_COLUMNS = ['id', 'data', '_version'] as const;
/** The columns every `<table>_versions` table has, besides the field columns. */
export const VERSION_COLUMNS = ['_id', '_commit', '_committed_at', '_deleted', '_changed', 'id', 'data'] as const;

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

/** The set of names taken in one database, compared as SQLite compares them (ASCII case folded). */
export class NameSet {
  private readonly taken = new Set<string>();

  constructor(names: Iterable<string> = []) {
    for (const n of names) this.add(n);
  }

  has(name: string): boolean {
    return this.taken.has(fold(name));
  }

  add(name: string): void {
    this.taken.add(fold(name));
  }

  /**
   * `base`, or `base_2`, `base_3`… — the first that neither this set nor `also(candidate)` holds; taken.
   *
   * @example
   * names.claim('github_repo', (t) => [`${t}_versions`]); // 'github_repo' (and its versions table is free too)
   */
  claim(base: string, also: (candidate: string) => readonly string[] = () => []): string {
    for (let i = 1; ; i++) {
      const candidate = i === 1 ? base : `${base}_${i}`;
      const all = [candidate, ...also(candidate)];
      if (all.some((n) => this.has(n) || reserved(n))) continue;
      for (const n of all) this.add(n);
      return candidate;
    }
  }
}

/** SQLite's own tables (`sqlite_…` cannot be created) and docdb's. */
function reserved(name: string): boolean {
  const f = fold(name);
  return f.startsWith('sqlite_') || f === META_TABLE || f === TABLES_TABLE || f === COMMITS_TABLE;
}

/** ASCII case folded: SQLite's comparison of identifiers (non-ASCII letters are compared as they are). */
const fold = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase());

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
