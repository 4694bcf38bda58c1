/**
 * The git objects a GitHttpRefStore has fetched or written, in a cache backend (memory by default,
 * IndexedDB in browsers: `src/cache`), keyed by (remote, SHA). Objects are immutable: entries are
 * evicted, never invalidated. An object the cache no longer holds is a `MissingObject`, which the
 * store answers by fetching again (see section-fetcher.ts). Nothing here ever sees a token.
 */
import type { CacheBackend } from '../../cache/backend.js';
import {
  type CommitFields,
  decodeCommit,
  decodeTree,
  type ObjectType,
  type TreeEntry,
} from '../../core/git/objects.js';

/** A stored object. */
export interface StoredObject {
  type: ObjectType;
  body: Uint8Array;
}

/** An object the cache does not hold (evicted, or never sent): the caller fetches and retries. */
export class MissingObject extends Error {
  constructor(
    readonly sha: string,
    readonly type: ObjectType,
  ) {
    super(`git object ${sha} (${type}) is not in the cache`);
    this.name = 'MissingObject';
  }
}

/** Decoded trees and commits kept beside the cache (small, rebuilt on demand). */
const DECODED_LIMIT = 20_000;

/**
 * Objects of one remote over a cache backend.
 *
 * @example
 * const objects = new ObjectStore(new MemoryCacheBackend(), 'https://git.example.com/o/r.git');
 * await objects.put(sha, 'blob', bytes);
 * (await objects.tree(rootSha)).find((e) => e.name === 'a.json');
 */
export class ObjectStore {
  private readonly decoded = new Map<string, TreeEntry[] | CommitFields>();

  constructor(
    readonly backend: CacheBackend,
    private readonly scope: string,
  ) {}

  private key(sha: string): string {
    return `${this.scope}|object|${sha}`;
  }

  async get(sha: string): Promise<StoredObject | undefined> {
    const o = (await this.backend.get(this.key(sha))) as StoredObject | undefined;
    return o && typeof o === 'object' && o.body instanceof Uint8Array ? o : undefined;
  }

  async has(sha: string): Promise<boolean> {
    return (await this.get(sha)) !== undefined;
  }

  async put(sha: string, type: ObjectType, body: Uint8Array): Promise<void> {
    await this.backend.set(this.key(sha), { type, body }, 64 + body.length);
  }

  /** The object's body, or `MissingObject`; an object of another type is missing too (ids name one object). */
  async body(sha: string, type: ObjectType): Promise<Uint8Array> {
    const o = await this.get(sha);
    if (o?.type !== type) throw new MissingObject(sha, type);
    return o.body;
  }

  private remember<T extends TreeEntry[] | CommitFields>(sha: string, value: T): T {
    if (this.decoded.size >= DECODED_LIMIT) this.decoded.clear();
    this.decoded.set(sha, value);
    return value;
  }

  /** A tree's entries (`MissingObject` when not cached). */
  async tree(sha: string): Promise<TreeEntry[]> {
    const hit = this.decoded.get(sha);
    if (Array.isArray(hit)) return hit;
    return this.remember(sha, decodeTree(await this.body(sha, 'tree')));
  }

  /** A commit (`MissingObject` when not cached). */
  async commit(sha: string): Promise<CommitFields> {
    const hit = this.decoded.get(sha);
    if (hit && !Array.isArray(hit)) return hit;
    return this.remember(sha, decodeCommit(await this.body(sha, 'commit')));
  }

  /** A commit, or undefined when not cached (for walks that stop at what is here). */
  async commitIfPresent(sha: string): Promise<CommitFields | undefined> {
    try {
      return await this.commit(sha);
    } catch (e) {
      if (e instanceof MissingObject) return undefined;
      throw e;
    }
  }
}
