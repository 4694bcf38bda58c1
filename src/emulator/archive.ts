/**
 * The bytes of `GET /repos/{owner}/{repo}/tarball/{ref}`, as `git archive` makes them for GitHub: a gzip'd
 * tar whose first entry is a pax global header with the commit id (`comment=<sha>`), then every directory
 * and file of the commit's tree under the top directory `<owner>-<repo>-<short sha>/`; files 0664, executables
 * 0775, symlinks as links, submodules as empty directories, every mtime the committer's date.
 * `.gitattributes` (`export-ignore`, `export-subst`) is not applied. modern-tar is loaded on first use only,
 * so an in-page emulator that never serves an archive never loads it.
 */
import type { ObjectDb } from '../core/git/object-db.js';

const MODERN_TAR = 'modern-tar';

/** The top directory GitHub gives a commit's archive. */
export function archivePrefix(owner: string, repo: string, commit: string): string {
  return `${owner}-${repo}-${commit.slice(0, 7)}/`;
}

/**
 * A gzip'd tar of the commit's tree.
 *
 * @example
 * const bytes = await commitTarball(repo.db, 'octo', 'data', sha);
 */
export async function commitTarball(db: ObjectDb, owner: string, repo: string, commit: string): Promise<Uint8Array> {
  // A specifier bundlers do not follow: the in-page emulator (playground) never serves archives, and pages
  // could not read codeload anyway, so its bundle stays free of the tar packer.
  const { packTar } = (await import(MODERN_TAR)) as typeof import('modern-tar');
  const c = db.getCommit(commit);
  const mtime = new Date(c.committer.timestamp * 1000);
  const prefix = archivePrefix(owner, repo, commit);
  type Entry = Parameters<typeof packTar>[0][number];
  const entries: Entry[] = [
    { header: { name: 'pax_global_header', type: 'pax-global-header', size: 0, pax: { comment: commit } } },
    { header: { name: prefix, type: 'directory', size: 0, mode: 0o775, mtime } },
  ];
  const walk = (tree: string, base: string) => {
    for (const e of db.getTree(tree)) {
      const name = `${base}${e.name}`;
      if (e.mode === '040000' || e.mode === '160000') {
        entries.push({ header: { name: `${name}/`, type: 'directory', size: 0, mode: 0o775, mtime } });
        if (e.mode === '040000') walk(e.sha, `${name}/`);
      } else if (e.mode === '120000') {
        const linkname = new TextDecoder().decode(db.getBlob(e.sha));
        entries.push({ header: { name, type: 'symlink', size: 0, mode: 0o777, mtime, linkname } });
      } else {
        const body = db.getBlob(e.sha);
        const mode = e.mode === '100755' ? 0o775 : 0o664;
        entries.push({ header: { name, type: 'file', size: body.length, mode, mtime }, body });
      }
    }
  };
  walk(c.tree, prefix);
  const tar = await packTar(entries);
  return gzip(tar);
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
