/**
 * `docdb doc export --format parquet --out DIR`: the section as a directory of Parquet files, one per type
 * (src/export/parquet/, docs/export.md), created, or brought up to date when DIR already holds this export.
 */
import { exportParquet } from '../../export/parquet/export-parquet.js';
import type { CommandContext } from '../command.js';
import { EXIT, printResult } from '../io.js';
import { exportTargetOptions, runTargetExport } from './doc-export-target.js';

/** The lines `docdb doc export --help` gives the Parquet format. */
export const PARQUET_USAGE = `  --format parquet --out DIR
               a directory of Parquet files, one per type, <namespace>_<type>.parquet: id, a column per
               indexed field (else per leaf field of its first documents) typed by its values (INT64, DOUBLE,
               BOOLEAN, STRING, JSON; mixed values: their JSON text), data (JSON) and _version; _docdb.json
               says which section, ref and commit DIR holds. Run again on the same DIR: nothing is read when
               the section has not moved, else only the changed types' files are rebuilt. A DIR that holds
               anything else is refused. Read a type with
               duckdb -c "select * from 'DIR/github_repo.parquet'" (types, costs: docs/export.md).`;

/** Flags the Parquet format does not take. */
const NOT_WITH_PARQUET = {
  dir: 'give the directory as --out DIR',
  fields: 'the columns are chosen per type',
  force: 'a DIR holding anything but this export is refused',
  history: 'the Parquet export holds one version (--format sqlite --history keeps every version)',
} as const;

/**
 * Run the Parquet export. `progress` is the command's stderr progress line (terminals only).
 *
 * @example
 * return parquetExport(ctx, progressPrinter(ctx, false));
 */
export async function parquetExport(
  ctx: CommandContext,
  progress: { tick(n: number): void; done(n: number): void },
): Promise<number> {
  const opts = exportTargetOptions(ctx, 'parquet', NOT_WITH_PARQUET, 'writes a directory: give --out DIR');
  const result = await runTargetExport(ctx, opts, (docs, where, version) =>
    exportParquet(docs, {
      ...opts.filter,
      dir: opts.out,
      section: where,
      version,
      onProgress: (n) => progress.tick(n),
    }),
  );
  progress.done(result.rows);
  const { path, version, mode, rows, files, written } = result;
  printResult(ctx.io, ctx.json, { version, mode, rows, path, files: files.map((f) => f.file), written }, () =>
    mode === 'unchanged'
      ? `${path} is up to date (${version.slice(0, 7)})`
      : `${rows} row(s) ${mode === 'created' ? 'written' : 'updated'} in ${written.length} file(s) → ${path} (${version.slice(0, 7)})`,
  );
  return EXIT.ok;
}
