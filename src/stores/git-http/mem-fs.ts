/**
 * The smallest in-memory file system isomorphic-git's `indexPack`/`readObject` run on (its `fs`
 * contract: https://isomorphic-git.org/docs/en/fs). Directories are implicit (a path is a directory
 * when a file lives below it), which is all a pack and its index need. Nothing touches a disk, so the
 * same code runs in Node, browsers and workers.
 */

/** An error with the `code` isomorphic-git tests for (`ENOENT`, `EEXIST`, …). */
function fsError(code: string, path: string): Error & { code: string } {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

const decoder = new TextDecoder();

function statOf(kind: 'file' | 'dir', size: number) {
  const now = new Date(0);
  return {
    type: kind,
    mode: kind === 'file' ? 0o100644 : 0o40000,
    size,
    ino: 0,
    mtimeMs: 0,
    ctimeMs: 0,
    uid: 1,
    gid: 1,
    dev: 1,
    mtime: now,
    ctime: now,
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'dir',
    isSymbolicLink: () => false,
  };
}

/**
 * A promise-style `fs` over a Map of paths to bytes.
 *
 * @example
 * const fs = new MemoryFs();
 * await fs.promises.writeFile('/git/objects/pack/p.pack', packBytes);
 * await git.indexPack({ fs, dir: '/git', gitdir: '/git', filepath: 'objects/pack/p.pack' });
 */
export class MemoryFs {
  private readonly files = new Map<string, Uint8Array>();

  /**
   * @param fallback asked for a file this fs does not hold (e.g. a loose object a thin pack's delta
   * names as its base); undefined means "no such file".
   */
  constructor(private readonly fallback?: (path: string) => Promise<Uint8Array | undefined>) {}

  private readonly dirs = new Set<string>(['/']);
  /** isomorphic-git looks for an enumerable `promises` property to pick the promise API. */
  readonly promises = this.api();

  private isDir(path: string): boolean {
    if (this.dirs.has(path)) return true;
    const prefix = `${path}/`;
    for (const f of this.files.keys()) if (f.startsWith(prefix)) return true;
    return false;
  }

  private api() {
    return {
      readFile: async (path: string, options?: string | { encoding?: string }) => {
        const data = this.files.get(path) ?? (await this.fallback?.(path));
        if (!data) throw fsError(this.isDir(path) ? 'EISDIR' : 'ENOENT', path);
        const encoding = typeof options === 'string' ? options : options?.encoding;
        return encoding ? decoder.decode(data) : data;
      },
      writeFile: async (path: string, data: Uint8Array | string) => {
        this.files.set(path, typeof data === 'string' ? new TextEncoder().encode(data) : data);
      },
      mkdir: async (path: string) => {
        if (this.isDir(path) || this.files.has(path)) throw fsError('EEXIST', path);
        this.dirs.add(path);
      },
      rmdir: async (path: string) => {
        this.dirs.delete(path);
      },
      unlink: async (path: string) => {
        if (!this.files.delete(path)) throw fsError('ENOENT', path);
      },
      stat: async (path: string) => this.stat(path),
      lstat: async (path: string) => this.stat(path),
      readdir: async (path: string) => this.readdir(path),
      readlink: async (path: string) => {
        throw fsError('ENOENT', path);
      },
      symlink: async (_target: string, path: string) => {
        throw fsError('ENOTSUP', path);
      },
    };
  }

  private stat(path: string) {
    const data = this.files.get(path);
    if (data) return statOf('file', data.length);
    if (this.isDir(path)) return statOf('dir', 0);
    throw fsError('ENOENT', path);
  }

  private readdir(path: string): string[] {
    if (!this.isDir(path)) throw fsError('ENOENT', path);
    const prefix = path.endsWith('/') ? path : `${path}/`;
    const names = new Set<string>();
    for (const p of [...this.files.keys(), ...this.dirs]) {
      if (p.startsWith(prefix) && p.length > prefix.length) names.add(p.slice(prefix.length).split('/')[0] as string);
    }
    return [...names].sort();
  }
}
