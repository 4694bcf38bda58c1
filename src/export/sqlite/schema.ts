/**
 * The export's own tables. `_docdb` (one row) says what the file holds: the section (where it lives and its
 * ref), the commit exported, the namespace/type filter and whether it has history — what a re-export compares
 * to decide it can continue from there. `_docdb_tables` names each type's table and the field columns chosen
 * for it, so a re-export keeps them. Datasette hides tables whose names start with `_` (its documented
 * convention for internal tables), so a Datasette user sees the types, `commits` and the `_versions` tables.
 */
import type { FieldColumn } from './columns.js';
import { COMMITS_TABLE, META_TABLE, quoteIdent as q, TABLES_TABLE } from './names.js';
import type { Database } from './node-sqlite.js';

/** What `_docdb` records about the export in a file. */
export interface ExportMeta {
  /** Where the section lives (`owner/repo refs/docdb/documents`, a directory and ref…), as the CLI names it. */
  section: string;
  /** The section's full ref name. */
  ref: string;
  /** The section commit the file holds. */
  commit: string;
  namespace: string | null;
  type: string | null;
  history: boolean;
}

/** One type's tables, as `_docdb_tables` records them. */
export interface TableInfo {
  name: string;
  namespace: string;
  type: string;
  columns: FieldColumn[];
  /** The `<name>_versions` table (with history), else null. */
  versions: string | null;
}

/** Bumped when the shape of the file changes: an older file is then rebuilt, never patched. */
export const FORMAT = 1;

/**
 * Create `_docdb` and `_docdb_tables` (and `commits` with history) in a new database.
 *
 * @example
 * createMetaTables(db, true);
 */
export function createMetaTables(db: Database, history: boolean): void {
  db.exec(`CREATE TABLE ${q(META_TABLE)} (
    ${q('section')} TEXT NOT NULL, ${q('ref')} TEXT NOT NULL, ${q('commit')} TEXT NOT NULL,
    ${q('namespace')} TEXT, ${q('type')} TEXT, ${q('history')} INTEGER NOT NULL,
    ${q('format')} INTEGER NOT NULL, ${q('exported_at')} TEXT NOT NULL)`);
  db.exec(`CREATE TABLE ${q(TABLES_TABLE)} (
    ${q('name')} TEXT PRIMARY KEY, ${q('namespace')} TEXT NOT NULL, ${q('type')} TEXT NOT NULL,
    ${q('columns')} TEXT NOT NULL, ${q('versions')} TEXT)`);
  if (history) {
    db.exec(`CREATE TABLE ${q(COMMITS_TABLE)} (
      ${q('sha')} TEXT PRIMARY KEY, ${q('committed_at')} TEXT, ${q('message')} TEXT,
      ${q('author')} TEXT, ${q('author_email')} TEXT)`);
  }
}

/**
 * Record (replace) what the file holds.
 *
 * @example
 * writeMeta(db, { section: 'octo/data refs/docdb/documents', ref: 'refs/docdb/documents', commit, namespace: null, type: null, history: false });
 */
export function writeMeta(db: Database, m: ExportMeta, now: Date = new Date()): void {
  db.exec(`DELETE FROM ${q(META_TABLE)}`);
  db.prepare(`INSERT INTO ${q(META_TABLE)} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
    m.section,
    m.ref,
    m.commit,
    m.namespace,
    m.type,
    m.history ? 1 : 0,
    FORMAT,
    now.toISOString(),
  );
}

/**
 * What an existing file says it holds, or undefined when it is not a docdb export of this format (no `_docdb`,
 * another format, not one row).
 *
 * @example
 * const meta = readMeta(db); // { section, ref, commit, … } | undefined
 */
export function readMeta(db: Database): ExportMeta | undefined {
  const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(META_TABLE);
  if (!has) return undefined;
  const rows = db.prepare(`SELECT * FROM ${q(META_TABLE)}`).all() as Record<string, unknown>[];
  const r = rows[0];
  if (rows.length !== 1 || !r || r.format !== FORMAT) return undefined;
  return {
    section: String(r.section),
    ref: String(r.ref),
    commit: String(r.commit),
    namespace: r.namespace === null ? null : String(r.namespace),
    type: r.type === null ? null : String(r.type),
    history: r.history === 1,
  };
}

/** The type tables a file records. */
export function readTables(db: Database): TableInfo[] {
  const rows = db.prepare(`SELECT * FROM ${q(TABLES_TABLE)}`).all() as Record<string, unknown>[];
  return rows.map((r) => ({
    name: String(r.name),
    namespace: String(r.namespace),
    type: String(r.type),
    columns: JSON.parse(String(r.columns)) as FieldColumn[],
    versions: r.versions === null ? null : String(r.versions),
  }));
}

/**
 * Create a type's table (and its `_versions` table) and record it in `_docdb_tables`.
 *
 * @example
 * createTypeTables(db, { name: 'github_repo', namespace: 'github', type: 'repo', columns, versions: 'github_repo_versions' });
 */
export function createTypeTables(db: Database, t: TableInfo): void {
  const fields = t.columns.map((c) => `${q(c.column)}`);
  db.exec(
    `CREATE TABLE ${q(t.name)} (${[`${q('id')} TEXT PRIMARY KEY`, ...fields, `${q('data')} TEXT`, `${q('_version')} TEXT`].join(', ')})`,
  );
  if (t.versions !== null) {
    const cols = [
      `${q('_id')} INTEGER PRIMARY KEY`,
      `${q('_commit')} TEXT REFERENCES ${q(COMMITS_TABLE)}(${q('sha')})`,
      `${q('_committed_at')} TEXT`,
      `${q('_deleted')} INTEGER NOT NULL`,
      `${q('_changed')} TEXT`,
      `${q('id')} TEXT NOT NULL`,
      ...fields,
      `${q('data')} TEXT`,
    ];
    db.exec(`CREATE TABLE ${q(t.versions)} (${cols.join(', ')})`);
    db.exec(`CREATE INDEX ${q(`${t.versions}_by_id`)} ON ${q(t.versions)} (${q('id')}, ${q('_id')})`);
  }
  db.prepare(`INSERT INTO ${q(TABLES_TABLE)} VALUES (?, ?, ?, ?, ?)`).run(
    t.name,
    t.namespace,
    t.type,
    JSON.stringify(t.columns),
    t.versions,
  );
}
