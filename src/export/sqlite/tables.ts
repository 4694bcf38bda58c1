/**
 * Rows of the type tables: one row per document (`id`, the field columns, `data` as JSON text, `_version`), and
 * with history one `<table>_versions` row per document version. Every value is a bound parameter; every name is
 * quoted (names.ts). Statements are prepared once per table.
 */
import type { Envelope } from '../../document/envelope.js';
import { type FieldColumn, type SqlValue, sqlValue } from './columns.js';
import { COMMITS_TABLE, NameSet, quoteIdent as q } from './names.js';
import type { Database } from './node-sqlite.js';
import { createTypeTables, readTables, type TableInfo } from './schema.js';

/** One commit as the `commits` table holds it. */
export interface CommitRow {
  sha: string;
  committedAt: string;
  message: string;
  author: string;
  authorEmail: string;
}

type Statement = ReturnType<Database['prepare']>;

interface Prepared {
  upsert: Statement;
  remove: Statement;
  current: Statement;
  data: Statement;
  version: Statement | undefined;
}

const typeKey = (namespace: string, type: string) => `${namespace}\n${type}`;

/**
 * The type tables of one database file.
 *
 * @example
 * const tables = new TypeTables(db, true);
 * const t = tables.ensure('github', 'repo', () => columns);
 * tables.upsert(t, envelope, commit);
 */
export class TypeTables {
  private readonly byType = new Map<string, TableInfo>();
  private readonly prepared = new Map<string, Prepared>();
  private readonly names: NameSet;
  private commitInsert: Statement | undefined;

  constructor(
    private readonly db: Database,
    private readonly history: boolean,
  ) {
    const known = readTables(db);
    const all = db.prepare(`SELECT name FROM sqlite_master`).all() as { name: string }[];
    this.names = new NameSet(all.map((r) => r.name));
    for (const t of known) this.byType.set(typeKey(t.namespace, t.type), t);
  }

  /** The table of a type, if the file has one. */
  get(namespace: string, type: string): TableInfo | undefined {
    return this.byType.get(typeKey(namespace, type));
  }

  /** The table of a type, created (with the columns `columns()` chooses) when the file has none yet. */
  ensure(namespace: string, type: string, columns: () => FieldColumn[]): TableInfo {
    const known = this.get(namespace, type);
    if (known) return known;
    const also = (n: string) => (this.history ? [`${n}_versions`, `${n}_versions_by_id`] : []);
    const name = this.names.claim(`${namespace}_${type}`, also);
    const info: TableInfo = {
      name,
      namespace,
      type,
      columns: columns(),
      versions: this.history ? `${name}_versions` : null,
    };
    createTypeTables(this.db, info);
    this.byType.set(typeKey(namespace, type), info);
    return info;
  }

  /** Insert or replace a document's row. */
  upsert(t: TableInfo, env: Envelope, version: string): void {
    this.statements(t).upsert.run(params([env.id, values(t.columns, env.data), JSON.stringify(env.data), version]));
  }

  /** A document's `data` as its row holds it (JSON text), or undefined when it has no row. */
  dataOf(t: TableInfo, id: string): string | undefined {
    const row = this.statements(t).data.get(id) as { data: string } | undefined;
    return row?.data;
  }

  /** Remove a document's row (no row: nothing happens). */
  remove(t: TableInfo, id: string): void {
    this.statements(t).remove.run(id);
  }

  /**
   * Add a `_versions` row: the document as of `commit` (null: deleted there), with the field columns whose
   * value differs from its row in the type table (the version before) as a JSON array in `_changed`. Call it
   * before `upsert`/`remove` of the same change.
   */
  addVersion(t: TableInfo, commit: CommitRow, id: string, env: Envelope | null): void {
    const s = this.statements(t);
    if (!s.version) return;
    const before = s.current.get(id) as Record<string, SqlValue> | undefined;
    const now = env ? values(t.columns, env.data) : t.columns.map(() => null);
    const changed = env ? t.columns.filter((c, i) => (before ? before[c.column] : null) !== now[i]) : [];
    s.version.run(
      params([
        commit.sha,
        commit.committedAt,
        env ? 0 : 1,
        env ? JSON.stringify(changed.map((c) => c.column)) : null,
        id,
        now,
        env ? JSON.stringify(env.data) : null,
      ]),
    );
  }

  /** Add (or keep) a row of the `commits` table. */
  addCommit(c: CommitRow): void {
    this.commitInsert ??= this.db.prepare(`INSERT OR IGNORE INTO ${q(COMMITS_TABLE)} VALUES (?, ?, ?, ?, ?)`);
    this.commitInsert.run(c.sha, c.committedAt, c.message, c.author, c.authorEmail);
  }

  private statements(t: TableInfo): Prepared {
    let s = this.prepared.get(t.name);
    if (s) return s;
    const cols = t.columns.map((c) => q(c.column));
    const table = q(t.name);
    const marks = (n: number) => Array.from({ length: n }, (_, i) => `:p${i}`).join(', ');
    s = {
      upsert: this.db.prepare(
        `INSERT OR REPLACE INTO ${table} (${[q('id'), ...cols, q('data'), q('_version')].join(', ')}) VALUES (${marks(cols.length + 3)})`,
      ),
      remove: this.db.prepare(`DELETE FROM ${table} WHERE ${q('id')} = ?`),
      current: this.db.prepare(`SELECT ${[q('id'), ...cols].join(', ')} FROM ${table} WHERE ${q('id')} = ?`),
      data: this.db.prepare(`SELECT ${q('data')} AS data FROM ${table} WHERE ${q('id')} = ?`),
      version:
        t.versions === null
          ? undefined
          : this.db.prepare(
              `INSERT INTO ${q(t.versions)} (${[q('_commit'), q('_committed_at'), q('_deleted'), q('_changed'), q('id'), ...cols, q('data')].join(', ')}) VALUES (${marks(cols.length + 6)})`,
            ),
    };
    this.prepared.set(t.name, s);
    return s;
  }
}

/**
 * Values bound by name (`:p0`, `:p1`…, in the order given; arrays are flattened in place): a row has as many
 * values as its table has columns, bound without spreading them into a call.
 */
function params(list: readonly (SqlValue | readonly SqlValue[])[]): Record<string, SqlValue> {
  const out: Record<string, SqlValue> = {};
  let i = 0;
  for (const v of list) {
    if (Array.isArray(v)) for (const x of v) out[`p${i++}`] = x;
    else out[`p${i++}`] = v as SqlValue;
  }
  return out;
}

function values(columns: readonly FieldColumn[], data: unknown): SqlValue[] {
  return columns.map((c) => sqlValue(data, c.field));
}
