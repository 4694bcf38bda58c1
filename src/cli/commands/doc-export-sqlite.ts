/**
 * `docdb doc export --format sqlite --out FILE [--history]`: the section as an SQLite database (src/export/sqlite/,
 * docs/export.md), created, or brought up to date in place when FILE already holds this export.
 */
import { ExportTargetError } from '../../export/errors.js';
import { exportSqlite } from '../../export/sqlite/export-sqlite.js';
import { str, versionFlag } from '../args.js';
import type { CommandContext } from '../command.js';
import { EXIT, type NotFoundResult, printResult, UsageError } from '../io.js';
import { missingSection, resolveFlag, withDocuments } from './doc-common.js';

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
const NOT_WITH_SQLITE = ['dir', 'fields', 'force'] as const;

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
  const opts = sqliteOptions(ctx);
  const result = await withDocuments(ctx, async (docs, where) => {
    const version = (await resolveFlag(docs, 'version', opts.version)) ?? (await docs.head());
    if (version === null) throw (await missingSection(docs, where)) as NotFoundResult;
    try {
      return await exportSqlite(docs, {
        ...opts.filter,
        file: opts.out,
        section: where,
        version,
        history: opts.history,
        onProgress: (n) => progress.tick(n),
      });
    } catch (e) {
      if (e instanceof ExportTargetError) throw new UsageError(e.message, '--out');
      throw e;
    }
  });
  progress.done(result.rows);
  const { path, version, mode, rows } = result;
  printResult(ctx.io, ctx.json, { version, mode, rows, path }, () =>
    mode === 'unchanged'
      ? `${path} is up to date (${version.slice(0, 7)})`
      : `${rows} ${opts.history ? 'version row(s)' : 'row(s)'} ${mode === 'created' ? 'written' : 'updated'} → ${path} (${version.slice(0, 7)})`,
  );
  return EXIT.ok;
}

function sqliteOptions(ctx: CommandContext) {
  for (const flag of NOT_WITH_SQLITE) {
    if (ctx.values[flag] !== undefined && ctx.values[flag] !== false) {
      throw new UsageError(
        `--${flag} does not apply to --format sqlite (it writes one database file: --out FILE)`,
        `--${flag}`,
      );
    }
  }
  const out = str(ctx.values, 'out');
  if (out === undefined) throw new UsageError('--format sqlite writes a database file: give --out FILE', '--out');
  const namespace = str(ctx.values, 'namespace');
  const type = str(ctx.values, 'type');
  if (type !== undefined && namespace === undefined) throw new UsageError('--type needs --namespace', '--type');
  return {
    out,
    filter: { ...(namespace !== undefined ? { namespace } : {}), ...(type !== undefined ? { type } : {}) },
    version: versionFlag(ctx.values),
    history: ctx.values.history === true,
  };
}
