/**
 * Write a repository's objects and refs as a real bare git repository (loose zlib-deflated objects,
 * loose refs, HEAD), so `git fsck --strict` and `git cat-file` can check what the emulator built.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { encodeObject } from '../core/git/objects.js';
import type { RepoRecord } from './model.js';

/**
 * @example
 * await exportBare(em.state.repo('octo-org/widgets'), '/tmp/widgets.git');
 * // git --git-dir /tmp/widgets.git fsck --strict
 */
export async function exportBare(repo: RepoRecord, dir: string): Promise<void> {
  await mkdir(join(dir, 'objects', 'info'), { recursive: true });
  await mkdir(join(dir, 'objects', 'pack'), { recursive: true });
  await mkdir(join(dir, 'refs', 'heads'), { recursive: true });
  await mkdir(join(dir, 'refs', 'tags'), { recursive: true });
  await writeFile(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
  await writeFile(join(dir, 'HEAD'), `ref: refs/heads/${repo.defaultBranch}\n`);
  await writeFile(join(dir, 'description'), `${repo.description ?? repo.fullName}\n`);
  for (const sha of repo.db.objectIds()) {
    const o = repo.db.get(sha);
    if (!o) continue;
    const sub = join(dir, 'objects', sha.slice(0, 2));
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, sha.slice(2)), deflateSync(encodeObject(o.type, o.body)));
  }
  for (const { ref, sha } of repo.db.listRefs('refs/')) {
    const file = join(dir, ...ref.split('/'));
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, `${sha}\n`);
  }
}
