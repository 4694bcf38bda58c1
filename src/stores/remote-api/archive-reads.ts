/**
 * A section read from GitHub's archive of one commit (`GET /repos/{o}/{r}/tarball/{sha}`, a 302 to
 * codeload.github.com; https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar).
 * The download itself is platform code (`nodeArchiveReader` in `docdb/node`: codeload sends no CORS header,
 * so pages cannot use it); this module judges what came back, which is untrusted:
 * - every entry must sit under ONE top directory ending in the commit's short SHA, with no absolute path,
 *   no `.`/`..`/empty segment, no NUL, and no backslash unless the archive verifies (below: then the name is the
 *   commit's own — git allows it — and the tree API would list it just the same); only files, symlinks and
 *   directories;
 * - the tree is rebuilt from the entries with the git object model and must hash to the commit's tree:
 *   then the archive IS the commit (every path, byte and mode), and its levels and blobs are cached. An
 *   archive that differs (a `.gitattributes` `export-ignore`/`export-subst`, a submodule) is still used,
 *   but only for blobs whose bytes hash to the SHA the tree listing names.
 */
import type { CachedTreeEntry } from '../../cache/git-cache.js';
import { utf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { blobSha } from '../../core/git/objects.js';
import type { ArchiveLimits } from './archive-limits.js';
import { levelSha } from './local-trees.js';
import type { TarEntry } from './tar-stream.js';

/** One entry of a tar as the platform reader hands it over (paths as in the tar). */
export type ArchiveEntry = TarEntry;

/** What a platform archive reader returns: the answer that ended the download. */
export interface ArchiveDownload {
  /** HTTP requests made (the API's 302 and codeload's answer: 2). */
  requests: number;
  /** Status and headers of the API's answer when it was not a redirect (an error to map), else of codeload's. */
  status: number;
  headers: Record<string, string>;
  /** The head of an error answer (at most {@link ERROR_BODY_BYTES}); empty on a 200. */
  body: Uint8Array;
  /**
   * Set when a 200 archive was larger than `maxBytes` or `maxEntries` (what an honest big section and a
   * bomb both look like): the read stopped there, and the bulk reader falls back to batched reads.
   */
  overLimit?: InvalidResponse;
}

/** Most bytes read of an error answer's body (the rest is cancelled): enough for GitHub's JSON message. */
export const ERROR_BODY_BYTES = 4096;

export { type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS } from './archive-limits.js';

/**
 * Download an archive: GET `url` with `headers` (the API's), follow ONE redirect by hand WITHOUT the
 * `Authorization` header (the redirect URL carries its own credential), read the gzip'd tar within `limits`
 * and hand each entry to `onEntry` as it streams (it throws to stop the read: a bad path).
 */
export type ArchiveReader = (request: {
  url: string;
  headers: Record<string, string>;
  limits: ArchiveLimits;
  onEntry: (entry: ArchiveEntry) => void;
}) => Promise<ArchiveDownload>;

/** A commit's content as the archive gave it. */
export interface ArchiveSection {
  /** True when the rebuilt tree hashes to the commit's tree: levels and blobs are the commit's. */
  verified: boolean;
  /** Tree SHA → entries (only meaningful when verified). */
  levels: Map<string, CachedTreeEntry[]>;
  /** Blob SHA → bytes (each hashed here from its bytes). */
  blobs: Map<string, Uint8Array>;
}

/**
 * The commit's tree rebuilt one entry at a time, as the archive streams: each entry's path is judged when
 * it arrives (a bad one throws and stops the read), and only its blob and a tree entry are kept.
 *
 * @example
 * const builder = new ArchiveSectionBuilder(commitSha, commit.tree);
 * await reader({ url, headers, limits, onEntry: (e) => builder.add(e) });
 * const section = builder.finish();
 */
export class ArchiveSectionBuilder {
  private readonly root = new DirNode();
  private readonly blobs = new Map<string, Uint8Array>();
  private prefix: string | undefined;
  /** Directories and files held so far: implied directories count too (`a/b/c/x` holds three). */
  private held = 0;
  /** The first entry whose path holds a backslash: refused unless the archive verifies (see {@link finish}). */
  private backslash: string | undefined;

  /**
   * `maxEntries` bounds what is held, implied directories included: a path like `a/a/…/a/x` holds one
   * directory per segment that no tar header announced (issue 27), so without this a 100 MiB tar of deep
   * paths built millions of them.
   */
  constructor(
    private readonly commit: string,
    private readonly rootTree: string,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  /** Judge one entry's path and keep its blob and tree entry. */
  add(e: ArchiveEntry): void {
    this.prefix ??= topDirectory(e.path, this.commit);
    const rel = relativePath(e.path, this.prefix);
    if (rel === '') return;
    if (rel.includes('\\')) this.backslash ??= e.path;
    if (e.type === 'directory') {
      this.dir(rel.split('/'));
      return;
    }
    const bytes = e.type === 'symlink' ? utf8(e.linkname ?? '') : e.bytes;
    const sha = blobSha(bytes);
    if (!this.blobs.has(sha)) this.blobs.set(sha, bytes);
    const mode = e.type === 'symlink' ? '120000' : e.mode & 0o111 ? '100755' : '100644';
    const segments = rel.split('/');
    const name = segments.pop() as string;
    const parent = this.dir(segments);
    if (!parent.entries.has(name)) this.hold();
    parent.entries.set(name, { name, mode, type: 'blob', sha });
  }

  /** Hash the rebuilt tree and say whether it is the commit's. */
  finish(): ArchiveSection {
    if (this.prefix === undefined) topDirectory('', this.commit); // an archive without entries: refused
    const levels = new Map<string, CachedTreeEntry[]>();
    const root = hashLevels(this.root, levels);
    // A backslash is a Windows separator to anything that might write these paths: only the commit's own names pass.
    if (root !== this.rootTree && this.backslash !== undefined) {
      throw unsafe(`entry ${JSON.stringify(this.backslash)} has an unsafe path`);
    }
    return { verified: root === this.rootTree, levels, blobs: this.blobs };
  }

  /** The directory at `segments` below the root, created (and counted) as needed. */
  private dir(segments: readonly string[]): DirNode {
    let node = this.root;
    for (const name of segments) {
      let child = node.children.get(name);
      if (!child) {
        this.hold();
        child = new DirNode();
        node.children.set(name, child);
      }
      node = child;
    }
    return node;
  }

  private hold(): void {
    if (++this.held > this.maxEntries) {
      throw new InvalidResponse(
        `readMany: read archive returned an unexpected answer: the archive holds more than ${this.maxEntries} files and directories, implied ones included (maxEntries)`,
        { operation: 'readMany', step: 'read archive', limit: 'maxEntries', allowed: this.maxEntries },
      );
    }
  }
}

/** One directory of the rebuilt tree: its files by name and its subdirectories by name (no full paths held). */
class DirNode {
  readonly entries = new Map<string, CachedTreeEntry>();
  readonly children = new Map<string, DirNode>();
}

/** Hash `node` bottom-up as git writes trees, recording every level; its SHA. */
function hashLevels(node: DirNode, levels: Map<string, CachedTreeEntry[]>): string {
  for (const [name, child] of node.children) {
    node.entries.set(name, { name, mode: '040000', type: 'tree', sha: hashLevels(child, levels) });
  }
  const entries = [...node.entries.values()];
  const sha = levelSha(entries);
  levels.set(sha, entries);
  return sha;
}

/**
 * Check an archive's entries and rebuild the commit's tree from them.
 *
 * @example
 * const section = sectionFromArchive(entries, commitSha, commit.tree);
 * if (section.verified) for (const [sha, level] of section.levels) await cache.putTree(sha, level);
 */
export function sectionFromArchive(entries: readonly ArchiveEntry[], commit: string, rootTree: string): ArchiveSection {
  const builder = new ArchiveSectionBuilder(commit, rootTree);
  for (const e of entries) builder.add(e);
  return builder.finish();
}

/** The one top directory `<owner>-<repo>-<short sha>/` every entry must sit under (named by the first). */
function topDirectory(first: string, commit: string): string {
  const top = first.slice(0, first.indexOf('/') + 1);
  if (!/^[A-Za-z0-9._-]+\/$/.test(top) || !top.endsWith(`-${commit.slice(0, 7)}/`)) {
    throw unsafe(`the archive's top directory ${JSON.stringify(top)} does not name commit ${commit.slice(0, 7)}`);
  }
  return top;
}

/** The path below the top directory, refused when it could leave the section. */
function relativePath(path: string, prefix: string): string {
  if (!path.startsWith(prefix)) throw unsafe(`entry ${JSON.stringify(path)} is outside the archive's top directory`);
  const rel = path.slice(prefix.length).replace(/\/$/, '');
  if (rel === '') return '';
  if (rel.includes('\0') || rel.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw unsafe(`entry ${JSON.stringify(path)} has an unsafe path`);
  }
  return rel;
}

function unsafe(what: string): InvalidResponse {
  return new InvalidResponse(`readMany: read archive returned an unexpected body: ${what}`, {
    operation: 'readMany',
    step: 'read archive',
  });
}
