/**
 * `docdb doc export --format parquet --out DIR`: the section (or one namespace/type) as a directory of Parquet
 * files, one per type (`<namespace>_<type>.parquet`: `id`, a column per field with the type its values give,
 * `data` as JSON, `_version`), and `_docdb.json` saying what the directory holds. Layout, types and DuckDB:
 * docs/export.md.
 *
 * A directory that holds this export is brought up to date: nothing when the section has not moved since the
 * commit `_docdb.json` records (on the GitHub API one request: the ref read), else only the files of the types
 * that changed are rebuilt (build.ts). Files are written beside and renamed (staging.ts): a failed export leaves
 * the directory as it was. A directory that holds anything else is refused, untouched.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { VersionId } from '../../core/version.js';
import type { DocumentStore } from '../../document/document-store.js';
import { ExportTargetError } from '../errors.js';
import { assertStillReal, realTarget } from '../real-path.js';
import { type BuildContext, type Built, buildUpdate, buildWhole } from './build.js';
import { fileNames, META_FILE } from './file-names.js';
import { metaText, type ParquetMeta, readMeta, sameSource, type TypeFile } from './meta.js';
import { isTemporary, Staging } from './staging.js';

export interface ParquetExportOptions {
  /** The directory to write (created, or brought up to date when it holds this export). */
  dir: string;
  /** Where the section lives (`owner/repo refs/docdb/documents`), recorded in `_docdb.json`. */
  section: string;
  /** The commit to export (the CLI passes the tip, or `--version`). */
  version: VersionId;
  namespace?: string;
  type?: string;
  /** Rows per row group (default 10,000): memory holds one group of a type at a time. */
  rowGroupRows?: number;
  /** Documents written so far. */
  onProgress?: (n: number) => void;
}

export interface ParquetExportResult {
  /** The real path of the directory. */
  path: string;
  version: VersionId;
  /** `created` (new, or every file rebuilt), `updated` (the changed types' files), `unchanged` (nothing to do). */
  mode: 'created' | 'updated' | 'unchanged';
  /** Documents written (created), or changed documents written and removed (updated). */
  rows: number;
  /** Every file the directory now holds, with its type, rows and columns (as `_docdb.json` lists them). */
  files: TypeFile[];
  /** The files this run wrote (all of them when created, the changed types' when updated). */
  written: string[];
}

/**
 * Export the section at `version` as Parquet files in `dir`.
 *
 * @example
 * import { DocumentStore, fetchTransport, RemoteApiRefStore } from 'docdb';
 * import { exportParquet } from 'docdb/node';
 *
 * const docs = new DocumentStore(new RemoteApiRefStore({ transport: fetchTransport(), owner: 'octo', repo: 'data', token }));
 * const version = await docs.head();
 * const r = await exportParquet(docs, { dir: 'out', section: 'octo/data refs/docdb/documents', version });
 * console.log(r.mode, r.files.map((f) => f.file)); // 'created' [ 'github_repo.parquet', … ]
 */
export async function exportParquet(docs: DocumentStore, o: ParquetExportOptions): Promise<ParquetExportResult> {
  const dir = await realTarget(o.dir);
  const source = {
    section: o.section,
    ref: docs.ref,
    namespace: o.namespace ?? null,
    type: o.type ?? null,
  };
  const { existing, entries } = await inspectTarget(dir, source);
  if (existing?.commit === o.version) {
    return { path: dir, version: o.version, mode: 'unchanged', rows: 0, files: existing.files, written: [] };
  }
  const created = entries === undefined;
  await mkdir(dir, { recursive: true });
  await assertStillReal(dir);
  const staging = new Staging(dir, created);
  const ctx: BuildContext = {
    docs,
    staging,
    names: fileNames(entries ?? []),
    version: o.version,
    filter: { ...(o.namespace !== undefined ? { namespace: o.namespace } : {}), ...(o.type ? { type: o.type } : {}) },
    rowGroupRows: o.rowGroupRows,
    onProgress: o.onProgress,
  };
  try {
    const update = existing ? await buildUpdate(ctx, existing) : undefined;
    const built: Built = update ?? (await buildWhole(ctx, existing));
    const meta: ParquetMeta = { ...source, commit: o.version, files: built.files };
    await staging.place(built.placed, metaText(meta), built.gone);
    const written = built.placed.map((p) => p.name);
    const mode = update ? 'updated' : 'created';
    return { path: dir, version: o.version, mode, rows: built.rows, files: built.files, written };
  } catch (e) {
    await staging.discard();
    throw e;
  }
}

/**
 * What `dir` holds: nothing (absent: `entries` undefined; empty), this export of the same source, or a refusal
 * (`ExportTargetError`) — anything else, or this export of another section or filter.
 */
async function inspectTarget(
  dir: string,
  source: Omit<ParquetMeta, 'files' | 'commit'>,
): Promise<{ existing: ParquetMeta | undefined; entries: string[] | undefined }> {
  const st = await stat(dir).catch(() => undefined);
  if (!st) return { existing: undefined, entries: undefined };
  if (!st.isDirectory()) throw new ExportTargetError(`${dir} exists and is not a directory`);
  const entries = await readdir(dir);
  // A run that crashed (not one that failed: that cleans up) may leave its temporary files: they are not content.
  if (entries.every(isTemporary)) return { existing: undefined, entries };
  const meta = await readMeta(join(dir, META_FILE));
  if (meta === undefined || meta === 'foreign') {
    throw new ExportTargetError(
      `${dir} is not empty and holds no Parquet export of docdb (no valid ${META_FILE}): give another --out, or an empty directory`,
    );
  }
  if (!sameSource(meta, source)) {
    throw new ExportTargetError(
      `${dir} holds an export of ${describe(meta)}, not of ${describe(source)}: give another --out, or remove the directory`,
    );
  }
  return { existing: meta, entries };
}

function describe(m: Omit<ParquetMeta, 'files' | 'commit'>): string {
  const what = m.type !== null ? `${m.namespace}/${m.type}` : m.namespace !== null ? `${m.namespace}/*` : 'every type';
  return `${m.section} (${what})`;
}
