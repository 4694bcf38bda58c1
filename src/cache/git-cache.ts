/**
 * Typed cache layers over a {@link CacheBackend}:
 * - ref tip:  (api origin, owner/repo, ref, token identity) → { sha, etag }   mutable, ETag-validated
 * - commit:   (api origin, owner/repo, sha) → commit metadata                 immutable
 * - tree:     (api origin, owner/repo, sha) → direct entries of ONE tree level immutable
 * - blob:     (api origin, owner/repo, sha) → bytes                           immutable
 * - path:     (api origin, owner/repo, commit sha, path) → blob SHA or absent immutable (single-path reads)
 * - history:  (api origin, owner/repo, ref, key, limit, token identity) → { etag, entries }  ETag-validated
 * Immutable entries are never invalidated, only evicted. The SHA used as key is always the one the
 * upstream returned. Tokens never enter the cache: the ref-tip key holds a one-way hash of the token.
 */
import type { HistoryEntry, Person } from '../core/refstore.js';
import type { CacheBackend } from './backend.js';

export interface RefTip {
  /** Commit SHA the ref pointed at. */
  sha: string;
  /** ETag of the ref read that returned it (absent when learned from our own write). */
  etag?: string;
}

export interface CachedCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: Person;
  committer: Person;
}

/** One entry of one tree level (`name` is a single path segment). */
export interface CachedTreeEntry {
  name: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

/**
 * What one path of one commit holds, as a single-path read learned it: a value's blob SHA, or nothing
 * (absent, a directory, or below a value). Immutable, as the commit is.
 */
export type CachedPath = { sha: string } | { absent: true };

/** A history listing and the ETag of its first page (ETags depend on the token, like the ref tip's). */
export interface CachedHistory {
  etag: string;
  entries: HistoryEntry[];
  /** Where the next page starts (`HistoryResult.nextCursor`), when there is one. */
  nextCursor?: string;
}

/** Identity of a token for cache keys (the one definition lives in core/token-identity.ts). */
export { tokenIdentity } from '../core/token-identity.js';

const personSize = (p: Person) => 2 * (p.name.length + p.email.length + p.date.length);

/** Cache of one repository's git objects and ref tips (`scope` = api origin + owner/repo). */
export class GitCache {
  constructor(
    readonly backend: CacheBackend,
    private readonly scope: string,
  ) {}

  private key(kind: string, id: string): string {
    return `${this.scope}|${kind}|${id}`;
  }

  async getRefTip(ref: string, tokenId: string): Promise<RefTip | undefined> {
    return (await this.backend.get(this.key('ref', `${ref}|${tokenId}`))) as RefTip | undefined;
  }

  async setRefTip(ref: string, tokenId: string, tip: RefTip): Promise<void> {
    const value: RefTip = tip.etag === undefined ? { sha: tip.sha } : { sha: tip.sha, etag: tip.etag };
    await this.backend.set(this.key('ref', `${ref}|${tokenId}`), value, 200 + ref.length * 2);
  }

  async deleteRefTip(ref: string, tokenId: string): Promise<void> {
    await this.backend.delete(this.key('ref', `${ref}|${tokenId}`));
  }

  async getCommit(sha: string): Promise<CachedCommit | undefined> {
    return (await this.backend.get(this.key('commit', sha))) as CachedCommit | undefined;
  }

  async putCommit(c: CachedCommit): Promise<void> {
    const size = 200 + 2 * c.message.length + 48 * c.parents.length + personSize(c.author) + personSize(c.committer);
    await this.backend.set(this.key('commit', c.sha), c, size);
  }

  async getTree(sha: string): Promise<CachedTreeEntry[] | undefined> {
    return (await this.backend.get(this.key('tree', sha))) as CachedTreeEntry[] | undefined;
  }

  async putTree(sha: string, entries: CachedTreeEntry[]): Promise<void> {
    let size = 64;
    for (const e of entries) size += 120 + 2 * e.name.length;
    await this.backend.set(this.key('tree', sha), entries, size);
  }

  async getPath(commit: string, path: string): Promise<CachedPath | undefined> {
    return (await this.backend.get(this.key('path', `${commit}:${path}`))) as CachedPath | undefined;
  }

  async putPath(commit: string, path: string, value: CachedPath): Promise<void> {
    await this.backend.set(this.key('path', `${commit}:${path}`), value, 120 + 2 * path.length);
  }

  /** A key's history as last listed for a token, with the first page's ETag (see history.ts). */
  async getHistory(id: string, tokenId: string): Promise<CachedHistory | undefined> {
    return (await this.backend.get(this.key('history', `${id}|${tokenId}`))) as CachedHistory | undefined;
  }

  async putHistory(id: string, tokenId: string, value: CachedHistory): Promise<void> {
    let size = 200;
    for (const e of value.entries) size += 400 + 2 * e.message.length;
    await this.backend.set(this.key('history', `${id}|${tokenId}`), value, size);
  }

  async getBlob(sha: string): Promise<Uint8Array | undefined> {
    return (await this.backend.get(this.key('blob', sha))) as Uint8Array | undefined;
  }

  async putBlob(sha: string, bytes: Uint8Array): Promise<void> {
    await this.backend.set(this.key('blob', sha), bytes, 64 + bytes.length);
  }
}
