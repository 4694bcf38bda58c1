/**
 * `_docdb.json`, what a Parquet export directory holds: the section (where it lives and its ref), the commit
 * exported, the namespace/type filter, and each type's file with its columns and their types — what a re-export
 * compares to decide it can continue from there, and what a reader needs to find a type's file. It is read back
 * from disk, so it is checked like any untrusted input: a file name that is not one this export gives makes the
 * directory "not ours".
 */
import { readFile } from 'node:fs/promises';
import { isOwnFileName } from './file-names.js';
import type { ParquetType } from './kinds.js';
import type { FileColumn } from './write-file.js';

/** Says that a `_docdb.json` is this export's; bumped with `FORMAT` when the layout changes. */
export const KIND = 'docdb-parquet-export';
/** Bumped when the shape of the export changes: an older directory is then rebuilt, never patched. */
export const FORMAT = 1;

/** One type's file. */
export interface TypeFile {
  file: string;
  namespace: string;
  type: string;
  rows: number;
  columns: FileColumn[];
}

/** What the directory holds. */
export interface ParquetMeta {
  /** Where the section lives (`owner/repo refs/docdb/documents`, a directory and ref…), as the CLI names it. */
  section: string;
  ref: string;
  /** The section commit the files hold. */
  commit: string;
  namespace: string | null;
  type: string | null;
  files: TypeFile[];
}

/** The same section and filter (a directory of another one is refused, not overwritten). */
export const sameSource = (a: Omit<ParquetMeta, 'files' | 'commit'>, b: Omit<ParquetMeta, 'files' | 'commit'>) =>
  a.section === b.section && a.ref === b.ref && a.namespace === b.namespace && a.type === b.type;

/**
 * The text of `_docdb.json` for `meta`.
 *
 * @example
 * await writeFile(join(dir, META_FILE), metaText(meta));
 */
export function metaText(meta: ParquetMeta, now: Date = new Date()): string {
  const { section, ref, commit, namespace, type, files } = meta;
  const body = { kind: KIND, format: FORMAT, section, ref, commit, namespace, type, exported_at: now.toISOString() };
  return `${JSON.stringify({ ...body, files }, null, 2)}\n`;
}

/**
 * What `path` says the directory holds: undefined when absent; `'foreign'` when it is not this export's
 * `_docdb.json` (or of another format, or names a file this export would not write).
 *
 * @example
 * const meta = await readMeta('/out/_docdb.json');
 */
export async function readMeta(path: string): Promise<ParquetMeta | 'foreign' | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return 'foreign'; // a directory or an unreadable file named _docdb.json
  }
  try {
    return parseMeta(JSON.parse(text)) ?? 'foreign';
  } catch {
    return 'foreign';
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const TYPES = new Set<ParquetType>(['INT64', 'DOUBLE', 'BOOLEAN', 'STRING', 'JSON']);

function parseMeta(v: Record<string, unknown>): ParquetMeta | undefined {
  if (v.kind !== KIND || v.format !== FORMAT || !Array.isArray(v.files)) return undefined;
  const { section, ref, commit, namespace, type } = v;
  if (!isString(section) || !isString(ref) || !isString(commit)) return undefined;
  if (!(namespace === null || isString(namespace)) || !(type === null || isString(type))) return undefined;
  const files = (v.files as unknown[]).map(parseFile);
  if (files.some((f) => f === undefined)) return undefined;
  return { section, ref, commit, namespace, type, files: files as TypeFile[] };
}

function parseFile(v: unknown): TypeFile | undefined {
  const f = v as Record<string, unknown> | null;
  if (f === null || typeof f !== 'object' || !isString(f.file) || !isOwnFileName(f.file)) return undefined;
  if (!isString(f.namespace) || !isString(f.type) || typeof f.rows !== 'number' || !Array.isArray(f.columns)) {
    return undefined;
  }
  const columns = f.columns as Record<string, unknown>[];
  const ok = columns.every(
    (c) =>
      c !== null &&
      isString(c.name) &&
      (c.field === undefined || isString(c.field)) &&
      TYPES.has(c.type as ParquetType),
  );
  return ok ? { file: f.file, namespace: f.namespace, type: f.type, rows: f.rows, columns: f.columns } : undefined;
}
