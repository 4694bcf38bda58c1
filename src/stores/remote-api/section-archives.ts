/**
 * Reading a commit's archive (GitHub's tarball: the API's 302, then codeload — 2 requests, no token at codeload)
 * for the bulk reads, and reading it AHEAD of them: a `list` told that the values follow (`withValues`) reads the
 * archive first when the listing is not cached, because the archive's tree, rebuilt and checked against the
 * commit's tree (archive-reads.ts), IS the listing — its levels are cached and the walk that follows costs no
 * request, where GitHub's own listing of a large type costs a truncated recursive listing and the type's level
 * (tens of MB at 100,000 documents). What the read ahead gave is handed to the next bulk read at that commit,
 * which then neither downloads the archive again nor depends on the cache still holding every value.
 */
import type { CachedCommit, GitCache } from '../../cache/git-cache.js';
import { TransportError } from '../../core/errors.js';
import { type ArchiveDownload, type ArchiveSection, ArchiveSectionBuilder } from './archive-reads.js';
import type { GitHubClient, OpContext } from './client.js';
import type { ResolvedConfig } from './config.js';
import { mapStatusError } from './status.js';

/** What reading an archive borrows from the store. */
export interface SectionArchiveHost {
  cfg: Pick<ResolvedConfig, 'archive' | 'archiveLimits' | 'owner' | 'repo' | 'userAgent' | 'logger'>;
  client: Pick<GitHubClient, 'repoBase'>;
  cache: Pick<GitCache, 'putBlob' | 'putTree'>;
  getCommit(ctx: OpContext, sha: string, pinned: boolean): Promise<CachedCommit>;
}

/** What a read ahead left for the bulk read at its commit: the blobs, or none (over the limits, or no reader). */
export interface ReadAhead {
  blobs: ReadonlyMap<string, Uint8Array> | undefined;
}

/**
 * @example
 * const archives = new SectionArchives({ cfg, client, cache, getCommit });
 * const blobs = await archives.read(ctx, commitSha, true); // blob SHA → bytes, or undefined (over the limits)
 */
export class SectionArchives {
  /** The last read ahead, kept until the bulk read at its commit takes it (or the next read ahead replaces it). */
  private ahead: (ReadAhead & { version: string }) | undefined;

  constructor(private readonly h: SectionArchiveHost) {}

  /**
   * Read `version`'s archive for the bulk read that follows a listing (see the module comment); without an archive
   * reader (a browser) nothing is read, and the bulk read takes that answer too (it has no archive to read either).
   *
   * @example
   * if (withValues && !listingCached) await archives.readAhead(ctx, version, pinned);
   */
  async readAhead(ctx: OpContext, version: string, pinned: boolean): Promise<void> {
    this.ahead = undefined; // the one before is for another read: let it go before holding this one
    this.ahead = { version, blobs: await this.read(ctx, version, pinned) };
  }

  /**
   * What a read ahead at `version` gave, taken once; undefined when none was made.
   *
   * @example
   * const ahead = archives.take(job.version); // then no second download of the same archive
   */
  take(version: string): ReadAhead | undefined {
    const got = this.ahead?.version === version ? this.ahead : undefined;
    if (got) this.ahead = undefined;
    return got;
  }

  /**
   * The commit's archive: its blobs (each hashed from its own bytes), cached; a verified archive's tree levels
   * are cached too (after the blobs, see {@link cacheSection}). Undefined when there is no reader, or the archive
   * is over `maxBytes`/`maxEntries` (a warning: the values are then read in batches). A bad archive (a path
   * outside its top directory, another commit's) is `InvalidResponse`; an error answer is mapped as any other.
   *
   * @example
   * const blobs = await archives.read(ctx, version, pinned);
   */
  async read(ctx: OpContext, version: string, pinned: boolean): Promise<Map<string, Uint8Array> | undefined> {
    const reader = this.h.cfg.archive;
    if (!reader) return undefined;
    const commit = await this.h.getCommit(ctx, version, pinned);
    const url = `${this.h.client.repoBase}/tarball/${version}`;
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': this.h.cfg.userAgent,
      ...(ctx.token !== undefined ? { authorization: `Bearer ${ctx.token}` } : {}),
    };
    const limits = this.h.cfg.archiveLimits;
    let section = new ArchiveSectionBuilder(version, commit.tree, limits.maxEntries);
    const got = await downloadWithRetry(() => {
      section = new ArchiveSectionBuilder(version, commit.tree, limits.maxEntries); // each attempt starts afresh
      return reader({ url, headers, limits, onEntry: (e) => section.add(e) });
    });
    ctx.requests += got.requests;
    if (got.overLimit) {
      this.h.cfg.logger?.({
        level: 'warn',
        message: `read archive: ${got.overLimit.message}; reading the values in batches instead`,
        data: { limit: got.overLimit.data.limit, allowed: got.overLimit.data.allowed },
      });
      return undefined;
    }
    if (got.status !== 200) {
      throw mapStatusError(
        {
          operation: ctx.operation,
          step: 'read archive',
          method: 'GET',
          path: new URL(url).pathname,
          repo: `${this.h.cfg.owner}/${this.h.cfg.repo}`,
          authenticated: ctx.token !== undefined,
        },
        { status: got.status, headers: got.headers, body: got.body },
      );
    }
    const finished = section.finish();
    await this.cacheSection(finished);
    return finished.blobs;
  }

  /**
   * The archive's values go to the cache first, its tree levels last: the cache is an LRU, and a type larger than
   * the cache (50,000 documents of ~1.2 KB fill its 64 MiB) would otherwise push out the levels a write right
   * after this read needs (a migration's commit read them all again: 7 requests).
   */
  private async cacheSection(section: ArchiveSection): Promise<void> {
    for (const [sha, bytes] of section.blobs) await this.h.cache.putBlob(sha, bytes);
    if (section.verified) for (const [sha, level] of section.levels) await this.h.cache.putTree(sha, level);
  }
}

/**
 * A download that lost its connection (a kept-alive socket closed under it) is tried again, twice at most.
 * Bytes that arrived and are wrong (`InvalidResponse`) are never downloaded again.
 */
async function downloadWithRetry(download: () => Promise<ArchiveDownload>): Promise<ArchiveDownload> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await download();
    } catch (e) {
      if (!(e instanceof TransportError) || e.data.reason !== 'network' || attempt >= 2) throw e;
    }
  }
}
