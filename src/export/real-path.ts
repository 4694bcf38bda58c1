/**
 * Where an export path really leads. A lexical check (`relative(workspace, path)`) is fooled by a
 * symbolic link inside the workspace that points out of it (`site -> /elsewhere`), so the export writers
 * resolve the real path of the deepest part of the target that exists, as the spec, reducer and `files`
 * source checks do (src/projection/spec/load.ts), write only there, and check again before the final
 * rename that the directory still resolves to the same place (a link swapped in meanwhile must not
 * redirect the write).
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ExportChanged } from './errors.js';

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

/**
 * The real path of `path`: its deepest existing ancestor with every symbolic link resolved, followed by
 * the components that do not exist yet. A dangling link as the last component is the link itself (the
 * final rename replaces it; it is never followed).
 *
 * @example
 * // with /work/site -> /srv/www
 * await realTarget('/work/site/docs.jsonl'); // '/srv/www/docs.jsonl'
 */
export async function realTarget(path: string): Promise<string> {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (e) {
      const parent = dirname(current);
      if (!MISSING.has(String((e as NodeJS.ErrnoException).code)) || parent === current) throw e;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Whether `path` is `root` or inside it (both already real paths).
 *
 * @example
 * isInside('/work/out/a.jsonl', '/work'); // true
 */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Throw `ExportChanged` unless the directory `dir` (a real path resolved earlier) still resolves to
 * itself: a component replaced by a symbolic link since would send the bytes somewhere else.
 *
 * @example
 * await assertStillReal('/work/out'); // before renaming the finished export into /work/out
 */
export async function assertStillReal(dir: string): Promise<void> {
  const now = await realpath(dir).catch(() => undefined);
  if (now !== dir) {
    throw new ExportChanged(
      `${dir} changed during the export (it now ${now === undefined ? 'does not exist' : `leads to ${now} through a symbolic link`}); nothing was written there`,
      [dir],
    );
  }
}
