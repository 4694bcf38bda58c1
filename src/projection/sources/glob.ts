/**
 * Workspace globs for `type: files` (`data/**\/*.json`): `*` and `?` within a path segment, `**` for any
 * number of directories, `{a,b}` alternatives (nested too) and `[abc]`/`[!abc]` classes, matched by
 * `picomatch` (dotfiles included: a workspace file is data whatever its name; POSIX classes, so `[!a]`
 * negates as in a shell). The files source walks only below the glob's literal prefix, never follows
 * symbolic links to directories, and skips `.git`.
 */
import picomatch from 'picomatch';

/**
 * A regular expression for a glob over `/`-separated relative paths.
 *
 * @example
 * globToRegExp('data/**\/*.json').test('data/a/b.json'); // true
 */
export function globToRegExp(glob: string): RegExp {
  return picomatch.makeRe(glob, { dot: true, posix: true });
}

/**
 * The directory below which a glob can match (its segments before the first wildcard; for a plain path,
 * the file's directory).
 *
 * @example
 * globBase('data/*\/x.json'); // 'data'
 */
export function globBase(glob: string): string {
  const scanned = picomatch.scan(glob);
  if (scanned.isGlob) return scanned.base;
  return glob.includes('/') ? glob.slice(0, glob.lastIndexOf('/')) : '';
}
