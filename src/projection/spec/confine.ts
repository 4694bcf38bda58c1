/**
 * The workspace rule for files a spec names (reducer modules, `schema:` files): the file's real path, with
 * symbolic links resolved, must be inside the workspace directory. One check, so a module and a schema can
 * never be held to different rules (Node only: imports node:fs and node:path when called).
 */

/** Where a file really is, and whether that is inside the root. */
export interface Confined {
  /** The file's real path (symbolic links resolved). */
  real: string;
  /** The root's real path. */
  root: string;
  inside: boolean;
}

/**
 * Resolve `real` (an already-resolved real path) against `rootDir` (resolved here, symbolic links too).
 *
 * @example
 * const { inside, root } = await confinedTo(await realpath(file), workspace);
 * if (!inside) throw new InvalidSpec(`${file} is outside the workspace ${root}`, { field });
 */
export async function confinedTo(real: string, rootDir: string): Promise<Confined> {
  const { resolve, sep } = await import('node:path');
  const { realpath } = await import('node:fs/promises');
  const root = await realpath(rootDir).catch(() => resolve(rootDir));
  const inside = real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  return { real, root, inside };
}
