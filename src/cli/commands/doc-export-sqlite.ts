/**
 * `docdb doc export --format sqlite --out FILE [--history]`: the section as an SQLite database (src/export/sqlite/,
 * docs/export.md), created, or brought up to date in place when FILE already holds this export.
 */
import { exportSqlite } from '../../export/sqlite/export-sqlite.js';
import type { CommandContext } from '../command.js';
import { EXIT, printResult } from '../io.js';
import { exportTargetOptions, runTargetExport } from './doc-export-target.js';

/** The lines `docdb doc export --help` gives the SQLite format. */
export const SQLITE_USAGE = `  --format sqlite --out FILE
               an SQLite database (Node's built-in node:sqlite: Node 22.13 or later): a table per type,
               <namespace>_<type>, with id (primary key), a column per indexed field (else per leaf field of
               its first documents), data (the document's JSON) and _version; _docdb says which section, ref
               and commit the file holds. --history adds a commits table and <namespace>_<type>_versions: one
               row per document version (_commit, _committed_at, _deleted, the columns, _changed).
               Run again on the same FILE: only what changed since the recorded commit is read and written
               (nothing when the section has not moved). A FILE that holds anything else is refused.
               Open it with sqlite3 FILE, or datasette FILE (docs/export.md).`;

/** Flags the SQLite format does not take (it always writes one file). */
const ONE_FILE = 'it writes one database file: --out FILE';
const NOT_WITH_SQLITE = { dir: ONE_FILE, fields: ONE_FILE, force: ONE_FILE } as const;

/**
 * Run the SQLite export. `progress` is the command's stderr progress line (terminals only).
 *
 * @example
 * return sqliteExport(ctx, progressPrinter(ctx, false));
 */
export async function sqliteExport(
  ctx: CommandContext,
  progress: { tick(n: number): void; done(n: number): void },
): Promise<number> {
  const opts = {
    ...exportTargetOptions(ctx, 'sqlite', NOT_WITH_SQLITE, 'writes a database file: give --out FILE'),
    history: ctx.values.history === true,
  };
  const result = await runTargetExport(ctx, opts, (docs, where, version) =>
    exportSqlite(docs, {
      ...opts.filter,
      file: opts.out,
      section: where,
      version,
      history: opts.history,
      onProgress: (n) => progress.tick(n),
    }),
  );
  progress.done(result.rows);
  const { path, version, mode, rows } = result;
  printResult(ctx.io, ctx.json, { version, mode, rows, path }, () =>
    mode === 'unchanged'
      ? `${path} is up to date (${version.slice(0, 7)})`
      : `${rows} ${opts.history ? 'version row(s)' : 'row(s)'} ${mode === 'created' ? 'written' : 'updated'} → ${path} (${version.slice(0, 7)})`,
  );
  return EXIT.ok;
}
