/**
 * Putting a finished one-file-per-document export in place without deleting anything the export did not
 * create or was not asked to replace. The export is written into a fresh sibling directory first; then:
 * - the target was absent or empty: one `rename` onto it, which POSIX performs only while it is still
 *   absent or empty (it fails with ENOTEMPTY otherwise; elsewhere an empty directory is removed with
 *   `rmdir`, which also refuses a directory that is not empty) — a file that appeared meanwhile stays,
 *   and the export fails;
 * - with `--force`, the target held files: what it held when the export started was recorded; the target
 *   is moved aside, compared with that record, and put back untouched if anything appeared or changed;
 *   otherwise the export takes its place and only the recorded entries are removed.
 */
import { randomBytes } from 'node:crypto';
import { lstat, readdir, rename, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ExportChanged, ExportTargetError } from './errors.js';

/** A directory's entries (relative paths with `/`) and what each was: kind, size, mtime, inode. */
export type Snapshot = Map<string, string>;

/**
 * Every entry under `dir`, recursively, without following symbolic links.
 *
 * @example
 * const before = await snapshot('./out'); // Map { 'a.json' => 'f:12:1732…:4211', … }
 */
export async function snapshot(dir: string): Promise<Snapshot> {
  const out: Snapshot = new Map();
  async function walk(rel: string): Promise<void> {
    for (const name of await readdir(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = await lstat(join(dir, path));
      // A directory's size and mtime move with its entries; the entries themselves are compared.
      out.set(
        path,
        st.isDirectory() ? `d:${st.ino}` : `${st.isSymbolicLink() ? 'l' : 'f'}:${st.size}:${st.mtimeMs}:${st.ino}`,
      );
      if (st.isDirectory()) await walk(path);
    }
  }
  await walk('');
  return out;
}

/** Entries of `after` that `before` did not have, or had as something else. */
function differences(before: Snapshot, after: Snapshot): string[] {
  return [...after].filter(([path, sig]) => before.get(path) !== sig).map(([path]) => path);
}

function changed(target: string, entries: string[], what: string): ExportChanged {
  const shown = entries.slice(0, 5).join(', ') + (entries.length > 5 ? `, … (${entries.length} in all)` : '');
  return new ExportChanged(
    `${target} changed during the export (${shown}): ${what}. Run the export again when nothing else writes there.`,
    entries,
  );
}

const code = (e: unknown) => String((e as NodeJS.ErrnoException).code);

/**
 * Move the finished export `temp` to `target`, where `before` is what `target` held when the export
 * started (empty: absent or an empty directory). Throws `ExportChanged` — having removed nothing — when
 * `target` changed meanwhile; the caller removes `temp`.
 *
 * @example
 * await placeDirectory('/work/out.tmp-1a2b', '/work/out', new Map());
 */
export async function placeDirectory(temp: string, target: string, before: Snapshot): Promise<void> {
  if (before.size === 0) await placeOverEmpty(temp, target);
  else await replaceRecorded(temp, target, before);
}

async function placeOverEmpty(temp: string, target: string): Promise<void> {
  try {
    await rename(temp, target);
    return;
  } catch (e) {
    if (code(e) === 'ENOTDIR') throw new ExportTargetError(`${target} exists and is not a directory`);
    if (!['ENOTEMPTY', 'EEXIST', 'EPERM', 'EACCES', 'EISDIR'].includes(code(e))) throw e;
  }
  // Not POSIX (a rename does not replace a directory there), or something appeared: rmdir refuses the latter.
  try {
    await rmdir(target);
  } catch (e) {
    if (code(e) !== 'ENOTEMPTY' && code(e) !== 'EEXIST') throw e;
    const appeared = [...(await snapshot(target)).keys()];
    throw changed(target, appeared, 'nothing in it was removed and the export was not put in place');
  }
  await rename(temp, target);
}

async function replaceRecorded(temp: string, target: string, before: Snapshot): Promise<void> {
  const aside = `${target}.old-${randomBytes(6).toString('hex')}`;
  await rename(target, aside);
  const moved = differences(before, await snapshot(aside));
  if (moved.length > 0) {
    const back = await rename(aside, target).then(
      () => 'nothing in it was removed and the export was not put in place',
      () => `its content was kept in ${aside} and the export was not put in place`,
    );
    throw changed(target, moved, back);
  }
  try {
    await rename(temp, target);
  } catch (e) {
    if (code(e) !== 'ENOTEMPTY' && code(e) !== 'EEXIST') throw e;
    throw changed(
      target,
      ['(recreated)'],
      `its previous content was kept in ${aside}; the export was not put in place`,
    );
  }
  await removeRecorded(aside, before, target);
}

/** Remove from `dir` the entries of `before` only, deepest first; `dir` goes last, if nothing else is left. */
async function removeRecorded(dir: string, before: Snapshot, target: string): Promise<void> {
  const paths = [...before.keys()].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const path of paths) {
    const isDir = before.get(path)?.startsWith('d:') === true;
    await (isDir ? rmdir(join(dir, path)) : unlink(join(dir, path))).catch((e: unknown) => {
      if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes(code(e))) throw e;
    });
  }
  try {
    await rmdir(dir);
  } catch (e) {
    if (code(e) !== 'ENOTEMPTY' && code(e) !== 'EEXIST') throw e;
    const left = [...(await snapshot(dir)).keys()];
    throw changed(target, left, `the export is in place; what appeared in the replaced directory was kept in ${dir}`);
  }
}
