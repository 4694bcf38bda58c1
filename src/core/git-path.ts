/**
 * git's own checks for path components that must never reach a working tree, so that every key docdb
 * accepts can be checked out by git with `core.protectNTFS` and `core.protectHFS` (git's defaults on
 * Windows and macOS; `git fsck` applies both everywhere and reports `hasDotgit`).
 *
 * Mirrors git 2.39: `is_ntfs_dotgit` / `is_ntfs_dot_generic` (path.c), `is_hfs_dotgit` /
 * `is_hfs_dot_generic` (utf8.c) and `verify_path` (read-cache.c), which also splits components at a
 * backslash when NTFS protection is on. Written from the behaviour, checked against real git in
 * `__tests__/core/git-path.test.ts` (every rejected name makes `git fsck --strict` fail).
 */

/** Which git rule a path component breaks. */
export type GitPathRule = 'dot-git' | 'dot-git-ntfs' | 'dot-git-hfs' | 'dot-gitmodules';

/**
 * Code points HFS+ ignores when comparing names, so `.g\u200Cit` *is* `.git` on a Mac (git's
 * `next_hfs_char`, utf8.c).
 */
const HFS_IGNORABLE = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g;

/** ASCII-only lower-casing, as git's `tolower` on its ASCII needles (non-ASCII never matches). */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/**
 * NTFS ignores trailing dots and spaces, and `name:stream` names an alternate data stream of `name`;
 * so `.git`, `.git.`, `.git ..` and `.git::$INDEX_ALLOCATION` all open the `.git` directory. `GIT~1`
 * is the 8.3 short name NTFS gives `.git` (git matches `git` case-insensitively and `~1` exactly).
 */
const NTFS_DOTGIT = /^(?:\.[gG][iI][tT]|[gG][iI][tT]~1)[. ]*(?::|$)/;

/** `.gitmodules` on NTFS: the long name, `gitmod~1`..`gitmod~4`, or the hashed fallback short name. */
function isNtfsDotGitmodules(part: string): boolean {
  const tail = (rest: string) => /^[. ]*(?::|$)/.test(rest);
  if (part.length >= 11 && asciiLower(part.slice(0, 11)) === '.gitmodules') return tail(part.slice(11));
  if (/^gitmod~[1-4]/.test(asciiLower(part.slice(0, 8)))) return tail(part.slice(8));
  // Fallback 8.3 name: a prefix (0-6 chars) of "gi7eba", then "~" and digits, 8 characters in all.
  const head = part.slice(0, 8);
  const m = /^([\x00-\x7f]{0,6})~([1-9][0-9]*)$/.exec(head);
  if (head.length === 8 && m && 'gi7eba'.startsWith(asciiLower(m[1]!))) return tail(part.slice(8));
  return false;
}

/**
 * The git rule that `component` (one `/`-separated part of a path) breaks, or null when git accepts
 * it. A backslash also separates components here, as it does for git with `core.protectNTFS`.
 *
 * @example
 * gitPathRule('.git.')      // 'dot-git-ntfs'
 * gitPathRule('.g\u200Cit') // 'dot-git-hfs'
 * gitPathRule('.gitignore') // null
 */
export function gitPathRule(component: string): GitPathRule | null {
  if (asciiLower(component) === '.git') return 'dot-git';
  const hfs = asciiLower(component.replace(HFS_IGNORABLE, ''));
  if (hfs === '.git') return 'dot-git-hfs';
  for (const part of component.split('\\')) {
    if (NTFS_DOTGIT.test(part)) return 'dot-git-ntfs';
  }
  // `.gitmodules` is read by git as submodule configuration: `git fsck` parses any blob of that name
  // (gitmodulesParse, gitmodulesUrl, …), and a value there could point a clone at another repository.
  if (hfs === '.gitmodules' || component.split('\\').some(isNtfsDotGitmodules)) return 'dot-gitmodules';
  return null;
}

/** What each rule means, for error messages and docs. */
export const GIT_PATH_RULE_TEXT: Record<GitPathRule, string> = {
  'dot-git': 'is ".git" (in some letter case); git refuses to check it out and `git fsck` reports hasDotgit',
  'dot-git-ntfs':
    'names ".git" on Windows (NTFS ignores trailing dots and spaces, "GIT~1" is its short name, and ":" opens a stream); git refuses it',
  'dot-git-hfs':
    'names ".git" on macOS (HFS+ ignores the invisible characters U+200C–U+200F, U+202A–U+202E, U+206A–U+206F and U+FEFF); git refuses it',
  'dot-gitmodules':
    'names ".gitmodules" (possibly as a Windows or macOS variant); git reads it as submodule configuration and `git fsck` checks it',
};
