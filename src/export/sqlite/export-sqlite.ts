/**
 * `docdb doc export --format sqlite`: the section (or one namespace/type) as an SQLite file in the shape
 * simonw's git-history gives a file's history — a table per type (`<namespace>_<type>`: `id`, a column per field,
 * `data` as JSON text, `_version`), `_docdb` saying what the file holds, and with `history` a `commits` table and
 * one `<table>_versions` row per document version. Layout and Datasette: docs/export.md.
 *
 * A file that already holds this export is brought up to date in place, in ONE transaction: nothing when the
 * section has not moved since the commit recorded in `_docdb` (one request on the GitHub API: the ref read),
 * else only what changed since. A new file (or one whose commit left the section, e.g. after a compaction) is
 * built under a temporary name beside the target and renamed over it when complete: a failed export leaves the
 * target as it was. A file that is not this export is never touched.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidVersion } from '../../core/errors.js';
import type { HistoryEntry } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import type { DocumentStore } from '../../document/document-store.js';
import { ColumnChooser } from '../column-chooser.js';
import { ExportTargetError } from '../errors.js';
import { assertStillReal, realTarget } from '../real-path.js';
import { applyChanges, changedEnvelopes } from './changes.js';
import { replayHistory, sectionCommits } from './history.js';
import { type Database, loadSqlite, type SqliteModule } from './node-sqlite.js';
import { loadVersion, type RowSink } from './rows.js';
import { createMetaTables, type ExportMeta, readMeta, writeMeta } from './schema.js';
import { TypeTables } from './tables.js';

export interface SqliteExportOptions {
  /** The file to write (created, or brought up to date when it holds this export). */
  file: string;
  /** Where the section lives (`owner/repo refs/docdb/documents`), recorded in `_docdb.section`. */
  section: string;
  /** The commit to export (the CLI passes the tip, or `--version`). */
  version: VersionId;
  namespace?: string;
  type?: string;
  /** Add the `commits` table and a `<table>_versions` table per type. */
  history?: boolean;
  /** Rows written so far (documents, or versions with history). */
  onProgress?: (n: number) => void;
  /** The SQLite module (default: Node's `node:sqlite`; `SqliteUnavailable` when this Node has none). */
  sqlite?: SqliteModule;
}

export interface SqliteExportResult {
  /** The real path written. */
  path: string;
  version: VersionId;
  /** `created` (a new file, or rebuilt), `updated` (only what changed), `unchanged` (nothing to do). */
  mode: 'created' | 'updated' | 'unchanged';
  /** Rows written: documents (with history: document versions) — all of them when created, the changed ones when updated. */
  rows: number;
}

/**
 * Export the section at `version` into the SQLite file `file`.
 *
 * @example
 * const docs = new DocumentStore(store);
 * const version = await docs.head();
 * const r = await exportSqlite(docs, { file: 'data.db', section: 'octo/data refs/docdb/documents', version });
 * console.log(r.mode, r.rows); // 'created' 1200
 */
export async function exportSqlite(docs: DocumentStore, o: SqliteExportOptions): Promise<SqliteExportResult> {
  const sqlite = o.sqlite ?? loadSqlite();
  const target = await realTarget(o.file);
  const meta: ExportMeta = {
    section: o.section,
    ref: docs.ref,
    commit: o.version,
    namespace: o.namespace ?? null,
    type: o.type ?? null,
    history: o.history === true,
  };
  const existing = await existingExport(sqlite, target);
  if (existing && !sameSource(existing, meta)) {
    throw new ExportTargetError(
      `${target} holds an export of ${describe(existing)}, not of ${describe(meta)}: give another --out, or remove the file`,
    );
  }
  if (existing && existing.history === meta.history) {
    if (existing.commit === o.version) return { path: target, version: o.version, mode: 'unchanged', rows: 0 };
    const rows = await updateInPlace(sqlite, docs, target, existing, meta, o.onProgress);
    if (rows !== undefined) return { path: target, version: o.version, mode: 'updated', rows };
  }
  const rows = await createFresh(sqlite, docs, target, meta, o.onProgress);
  return { path: target, version: o.version, mode: 'created', rows };
}

/** What an existing `target` holds: nothing (absent), this kind of export, or a refusal (anything else). */
async function existingExport(sqlite: SqliteModule, target: string): Promise<ExportMeta | undefined> {
  const st = await stat(target).catch(() => undefined);
  if (!st) return undefined;
  const notOurs = `${target} exists and is not a docdb SQLite export (no _docdb table): give another --out, or remove the file`;
  if (!st.isFile()) throw new ExportTargetError(`${target} exists and is not a file`);
  let db: Database | undefined;
  try {
    db = new sqlite.DatabaseSync(target, { readOnly: true });
    const meta = readMeta(db);
    if (!meta) throw new ExportTargetError(notOurs);
    return meta;
  } catch (e) {
    if (e instanceof ExportTargetError) throw e;
    throw new ExportTargetError(notOurs); // not an SQLite file at all ("file is not a database")
  } finally {
    db?.close();
  }
}

const sameSource = (a: ExportMeta, b: ExportMeta) =>
  a.section === b.section && a.ref === b.ref && a.namespace === b.namespace && a.type === b.type;

function describe(m: ExportMeta): string {
  const what = m.type !== null ? `${m.namespace}/${m.type}` : m.namespace !== null ? `${m.namespace}/*` : 'every type';
  return `${m.section} (${what})`;
}

/**
 * Bring the file from `existing.commit` to `meta.commit` in one transaction; undefined (nothing written) when
 * the recorded commit is no longer an ancestor in the section, so the caller rebuilds the file.
 */
async function updateInPlace(
  sqlite: SqliteModule,
  docs: DocumentStore,
  target: string,
  existing: ExportMeta,
  meta: ExportMeta,
  onProgress?: (n: number) => void,
): Promise<number | undefined> {
  const db = new sqlite.DatabaseSync(target);
  try {
    db.exec('BEGIN IMMEDIATE');
    const chooser = new ColumnChooser(docs, meta.commit, false);
    const sink: RowSink = { tables: new TypeTables(db, meta.history), chooser };
    const rows = await catchUp(docs, sink, existing.commit, meta, onProgress);
    if (rows === undefined) {
      db.exec('ROLLBACK');
      return undefined;
    }
    writeMeta(db, meta);
    db.exec('COMMIT');
    return rows;
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw e;
  } finally {
    db.close();
  }
}

/** The rows `from` → `meta.commit` changes, written into `sink`; undefined when `from` left the section. */
async function catchUp(
  docs: DocumentStore,
  sink: RowSink,
  from: string,
  meta: ExportMeta,
  onProgress?: (n: number) => void,
): Promise<number | undefined> {
  const filter = filterOf(meta);
  try {
    if (meta.history) {
      const all = await sectionCommits(docs.store);
      const start = all.findIndex((c) => c.version === from);
      const end = all.findIndex((c) => c.version === meta.commit);
      if (start < 0 || end < start) return undefined;
      const commits = all.slice(start + 1, end + 1);
      return await replayHistory({
        docs,
        sink,
        filter,
        commits,
        from,
        ...(onProgress ? { onCommit: onProgress } : {}),
      });
    }
    const changes = await docs.changes({ ...filter, from, to: meta.commit, withPatches: true });
    const applied = await applyChanges(sink, changes, await changedEnvelopes(docs.store, sink.tables, changes));
    onProgress?.(applied.written + applied.removed);
    return applied.written + applied.removed;
  } catch (e) {
    if (e instanceof InvalidVersion) return undefined; // `from` was compacted away or rewritten: rebuild
    throw e;
  }
}

/** Build the whole file under a temporary name beside `target`, then rename it over `target`. */
async function createFresh(
  sqlite: SqliteModule,
  docs: DocumentStore,
  target: string,
  meta: ExportMeta,
  onProgress?: (n: number) => void,
): Promise<number> {
  const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  const db = new sqlite.DatabaseSync(temp);
  let open = true;
  try {
    // A temporary file nobody else reads: no journal, no fsync per statement (it is renamed only when complete).
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN');
    createMetaTables(db, meta.history);
    const rows = await fill(docs, new TypeTables(db, meta.history), meta, onProgress);
    writeMeta(db, meta);
    db.exec('COMMIT');
    db.close();
    open = false;
    await assertStillReal(dirname(target));
    await rename(temp, target);
    return rows;
  } catch (e) {
    if (open) db.close();
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * Every row of a new file. Columns are chosen where the documents were just read whole (the tip; with history the
 * oldest commit), so looking for the index declaration there costs nothing.
 */
async function fill(
  docs: DocumentStore,
  tables: TypeTables,
  meta: ExportMeta,
  onProgress?: (n: number) => void,
): Promise<number> {
  const filter = filterOf(meta);
  if (!meta.history) {
    const sink: RowSink = { tables, chooser: new ColumnChooser(docs, meta.commit, true) };
    return loadVersion(sink, docs.stream({ ...filter, version: meta.commit, withData: true }), meta.commit, onProgress);
  }
  const all = await sectionCommits(docs.store);
  const end = all.findIndex((c) => c.version === meta.commit);
  if (end < 0) throw new InvalidVersion(meta.commit, `${meta.commit} is not among the section's commits`);
  const commits = all.slice(0, end + 1);
  const sink: RowSink = { tables, chooser: new ColumnChooser(docs, (commits[0] as HistoryEntry).version, true) };
  return replayHistory({ docs, sink, filter, commits, from: null, ...(onProgress ? { onCommit: onProgress } : {}) });
}

function filterOf(m: ExportMeta): { namespace?: string; type?: string } {
  return { ...(m.namespace !== null ? { namespace: m.namespace } : {}), ...(m.type !== null ? { type: m.type } : {}) };
}
