/**
 * The file each type is written to: `<namespace>_<type>.parquet`, named from the data — untrusted. A name is one
 * path component that cannot leave the export directory: a path separator (`/`, `\`), a character Windows refuses
 * in a file name (`<>:"|?*`) or a control character becomes `_`; a leading `.` (hidden, `..`) becomes `_`; it is
 * cut to stay under file systems' 255-byte limit. Names are kept unique with ASCII case folded, as macOS and
 * Windows compare file names and as the SQLite export names its tables (`a_b` + `c` and `a` + `b_c`: the second
 * gets `_2`). The writer still checks that each path is inside the directory (export-parquet.ts).
 */
import { fold, NameSet } from '../names.js';

export const EXTENSION = '.parquet';
/** What the export directory holds besides the type files: what it holds, and which file is which type. */
export const META_FILE = '_docdb.json';

/** Separators, what Windows refuses in a file name, control characters. */
const UNSAFE = /[/\\<>:"|?*\u0000-\u001f\u007f]/g;

/** Longest base name in UTF-8 bytes: with `_NNN` and `.parquet` it stays under 255. */
const MAX_BASE_BYTES = 200;

/**
 * `<namespace>_<type>` made safe as a file name (see the top of this file).
 *
 * @example
 * safeBase('evil', '../../x'); // 'evil_.._.._x'
 * safeBase('..', 'x'); // '_._x'
 */
export function safeBase(namespace: string, type: string): string {
  let base = `${namespace}_${type}`.replace(UNSAFE, '_').replace(/^\./, '_');
  const bytes = new TextEncoder();
  while (bytes.encode(base).length > MAX_BASE_BYTES) base = Array.from(base).slice(0, -1).join('');
  // A trailing dot or space is dropped by Windows (`a.` is `a`): keep the name as written.
  return base.replace(/[. ]$/, '_');
}

/**
 * The file names taken in one export directory; `taken` are names already there (the export's own files and
 * anything else the directory holds).
 *
 * @example
 * const names = fileNames(['github_repo.parquet']);
 * fileNameFor(names, 'GitHub', 'repo'); // 'GitHub_repo_2.parquet'
 */
export function fileNames(taken: Iterable<string>): NameSet {
  const bases = [...taken].map((n) => (n.endsWith(EXTENSION) ? n.slice(0, -EXTENSION.length) : n));
  return new NameSet(bases, (f) => f === fold(META_FILE));
}

/**
 * A new type's file name, claimed in `names`.
 *
 * @example
 * fileNameFor(fileNames([]), 'github', 'repo'); // 'github_repo.parquet'
 */
export function fileNameFor(names: NameSet, namespace: string, type: string): string {
  return `${names.claim(safeBase(namespace, type))}${EXTENSION}`;
}

/**
 * Whether `name` (read back from `_docdb.json`, so not trusted either) is a file name this export could have given:
 * one component, not hidden, ending in `.parquet`.
 *
 * @example
 * isOwnFileName('../../etc/passwd.parquet'); // false
 */
export function isOwnFileName(name: string): boolean {
  return name.endsWith(EXTENSION) && !name.startsWith('.') && name.replace(UNSAFE, '_') === name;
}
