/**
 * Reading a section's trees and blobs through the object cache: one level at a time where the cache
 * already holds the rest (a warm walk fetches only the levels that changed), one recursive listing when
 * cold, and the complete levels of a truncated listing kept so nothing is downloaded twice.
 * https://docs.github.com/rest/git/trees#get-a-tree · https://docs.github.com/rest/git/blobs#get-a-blob
 */
import type { CachedTreeEntry, GitCache } from '../../cache/git-cache.js';
import { fromBase64 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { blobShaAsync, isSha } from '../../core/git/objects.js';
import type { ListEntry } from '../../core/refstore.js';
import type { GitHubClient, OpContext } from './client.js';
import type { ResolvedConfig } from './config.js';
import { verifiedLevels } from './local-trees.js';
import { isObject } from './shapes.js';

/** What is at a path: a blob, a tree, nothing, or a value where the path needs a directory. */
export type Lookup =
  | { kind: 'blob'; sha: string }
  | { kind: 'tree'; sha: string }
  | { kind: 'absent' }
  | { kind: 'conflict'; at: string };

/** `single`: one path (fetch only missing levels when warm); `bulk`: many paths (one recursive listing). */
export type WalkMode = 'single' | 'bulk';

/**
 * @example
 * const trees = new TreeWalker(client, cache, cfg.logger, bad);
 * const at = await trees.lookup(ctx, commit.tree, 'github/repo/o/r.json', 'single');
 * if (at.kind === 'blob') bytes = await trees.blob(ctx, at.sha);
 */
export class TreeWalker {
  /** Root tree of the last tip walked: when it is still cached, reads walk changed levels only. */
  lastRootTree: string | undefined;
  /** Trees whose recursive listing is (or would be) truncated: walked one level at a time. */
  private readonly tooBig = new Set<string>();
  /**
   * Name index of each cached tree level (avoids linear scans of big directories). Keyed by the
   * cached entries array itself, so an index lives exactly as long as its level stays in the cache.
   */
  private readonly levelIndex = new WeakMap<CachedTreeEntry[], Map<string, CachedTreeEntry>>();

  constructor(
    private readonly client: GitHubClient,
    private readonly cache: GitCache,
    private readonly logger: ResolvedConfig['logger'],
    private readonly bad: (ctx: OpContext, step: string, what: string, cause?: unknown) => InvalidResponse,
    /**
     * One request for the tree levels on a path (GraphQL), each verified against its SHA: a cold one-path
     * lookup (a write's) uses it instead of the section's recursive listing. Undefined when it cannot answer.
     */
    private readonly pathLevels?: (
      ctx: OpContext,
      root: string,
      path: string,
    ) => Promise<Map<string, CachedTreeEntry[]> | undefined>,
  ) {}

  /** Fetch a tree (with `recursive`, every level below it too) into the cache; undefined when truncated. */
  private async fetchTree(ctx: OpContext, sha: string, recursive: boolean): Promise<CachedTreeEntry[] | undefined> {
    const step = recursive ? 'read tree (recursive)' : 'read tree';
    const res = await this.client.send(ctx, {
      step,
      method: 'GET',
      path: `/git/trees/${sha}`,
      ...(recursive ? { query: { recursive: '1' } } : {}),
      retry: true,
    });
    const j = res.json();
    if (!isObject(j) || !Array.isArray(j.tree)) throw this.bad(ctx, step, 'expected { sha, tree: [...] }');
    if (j.sha !== undefined && j.sha !== sha) throw this.bad(ctx, step, `asked for ${sha}, got ${String(j.sha)}`);
    // A truncated listing is never used as a whole: only the levels whose entries hash to their SHA are
    // cached, and subtrees it showed mostly are marked too big to list recursively again.
    if (j.truncated === true) {
      if (recursive) await this.keepVerifiedLevels(sha, j.tree);
      return undefined;
    }
    const level = await this.cacheListing(sha, j.tree, recursive);
    if (typeof level === 'string') throw this.bad(ctx, step, level);
    return level;
  }

  /**
   * Split a complete tree listing (`GET /git/trees/{sha}`, or a create-tree reply) into one entry per
   * level and cache them. Returns the root level, or what is malformed (then nothing is cached).
   */
  async cacheListing(sha: string, list: unknown[], recursive: boolean): Promise<CachedTreeEntry[] | string> {
    const dirs = new Map<string, CachedTreeEntry[]>([['', []]]);
    const dirSha = new Map<string, string>([['', sha]]);
    for (const e of list) {
      if (!isObject(e) || typeof e.path !== 'string' || typeof e.mode !== 'string' || !isSha(e.sha)) {
        return 'tree entries need path, mode and sha';
      }
      const type = e.type === 'tree' || e.type === 'commit' ? e.type : 'blob';
      const slash = e.path.lastIndexOf('/');
      if (!recursive && slash >= 0) return 'nested path in a non-recursive listing';
      const parent = slash < 0 ? '' : e.path.slice(0, slash);
      let entries = dirs.get(parent);
      if (!entries) {
        entries = [];
        dirs.set(parent, entries);
      }
      entries.push({ name: e.path.slice(slash + 1), mode: e.mode, type, sha: e.sha });
      if (type === 'tree' && recursive) {
        // Only a recursive listing holds the children of a subtree; a level listing must not
        // cache its subdirectories (as empty).
        dirSha.set(e.path, e.sha);
        if (!dirs.has(e.path)) dirs.set(e.path, []);
      }
    }
    for (const path of dirs.keys()) if (!dirSha.has(path)) return `entry below ${path}/ without a tree entry for it`;
    for (const [path, entries] of dirs) await this.cache.putTree(dirSha.get(path) as string, entries);
    return dirs.get('') as CachedTreeEntry[];
  }

  private async keepVerifiedLevels(sha: string, list: unknown[]): Promise<void> {
    const { levels, tooBig } = verifiedLevels(sha, list, list.length);
    for (const [levelSha, entries] of levels) await this.cache.putTree(levelSha, entries);
    for (const t of tooBig) this.tooBig.add(t);
    this.tooBig.add(sha);
  }

  /** A level if it is cached (never a request). */
  cachedLevel(sha: string): Promise<CachedTreeEntry[] | undefined> {
    return this.cache.getTree(sha);
  }

  private async isWarm(): Promise<boolean> {
    return this.lastRootTree !== undefined && (await this.cache.getTree(this.lastRootTree)) !== undefined;
  }

  /**
   * One level of a tree. Cold (nothing of this section cached) or bulk: one recursive request fills
   * every level. Warm single-path walks fetch just the changed level, so unchanged subtrees are never
   * downloaded again. A truncated recursive listing is discarded and the level fetched on its own.
   */
  async level(ctx: OpContext, sha: string, mode: WalkMode): Promise<CachedTreeEntry[]> {
    const hit = await this.cache.getTree(sha);
    if (hit) return hit;
    if ((mode === 'bulk' || !(await this.isWarm())) && !this.tooBig.has(sha)) {
      const all = await this.fetchTree(ctx, sha, true);
      if (all) return all;
      const proven = await this.cache.getTree(sha);
      if (proven) return proven;
      this.logger?.({
        level: 'info',
        message: 'recursive tree listing truncated; walking subtrees',
        data: { tree: sha },
      });
    }
    const level = await this.fetchTree(ctx, sha, false);
    if (!level) {
      throw new InvalidResponse(
        `${ctx.operation}: tree ${sha} is too large to list even one level (truncated); split the section`,
        { operation: ctx.operation, tree: sha },
      );
    }
    return level;
  }

  private async levelMap(ctx: OpContext, sha: string, mode: WalkMode): Promise<Map<string, CachedTreeEntry>> {
    return this.indexOf(await this.level(ctx, sha, mode));
  }

  /** A level's entries by name (built once per cached level: a bulk read looks up thousands of keys). */
  private indexOf(level: CachedTreeEntry[]): Map<string, CachedTreeEntry> {
    let index = this.levelIndex.get(level);
    if (!index) {
      index = new Map(level.map((e) => [e.name, e]));
      this.levelIndex.set(level, index);
    }
    return index;
  }

  /**
   * What is at `path` in the tree `root`. Cold, one path: the levels on the path in one request (bytes ∝ those
   * levels, not the section) — never the section's recursive listing; warm or bulk: the levels, fetched as
   * needed (a level the probe could not give is fetched on its own).
   */
  async lookup(ctx: OpContext, root: string, path: string, mode: WalkMode): Promise<Lookup> {
    if (mode === 'single' && this.pathLevels && !(await this.isWarm()) && !(await this.lookupCached(root, path))) {
      const levels = await this.pathLevels(ctx, root, path);
      for (const [sha, entries] of levels ?? []) await this.cache.putTree(sha, entries);
    }
    const segs = path.split('/');
    let tree = root;
    for (let i = 0; i < segs.length; i++) {
      const e = (await this.levelMap(ctx, tree, mode)).get(segs[i] as string);
      if (!e) return { kind: 'absent' };
      const last = i === segs.length - 1;
      if (last) {
        if (e.type === 'tree') return { kind: 'tree', sha: e.sha };
        if (e.type === 'commit') return { kind: 'conflict', at: segs.slice(0, i + 1).join('/') };
        return { kind: 'blob', sha: e.sha };
      }
      if (e.type !== 'tree') return { kind: 'conflict', at: segs.slice(0, i + 1).join('/') };
      tree = e.sha;
    }
    return { kind: 'absent' };
  }

  /**
   * What is at `path` in `root` using only cached levels (no request); undefined when a level on the way
   * is not cached.
   */
  async lookupCached(root: string, path: string): Promise<Lookup | undefined> {
    const segs = path.split('/');
    let tree = root;
    for (let i = 0; i < segs.length; i++) {
      const level = await this.cache.getTree(tree);
      if (!level) return undefined;
      const e = this.indexOf(level).get(segs[i] as string);
      if (!e) return { kind: 'absent' };
      if (i === segs.length - 1)
        return e.type === 'tree'
          ? { kind: 'tree', sha: e.sha }
          : e.type === 'commit'
            ? { kind: 'conflict', at: path }
            : { kind: 'blob', sha: e.sha };
      if (e.type !== 'tree') return { kind: 'conflict', at: segs.slice(0, i + 1).join('/') };
      tree = e.sha;
    }
    return { kind: 'absent' };
  }

  async blob(ctx: OpContext, sha: string): Promise<Uint8Array> {
    const hit = await this.cache.getBlob(sha);
    if (hit) return hit;
    const res = await this.client.send(ctx, {
      step: 'read blob',
      method: 'GET',
      path: `/git/blobs/${sha}`,
      retry: true,
    });
    const j = res.json();
    if (!isObject(j) || typeof j.content !== 'string')
      throw this.bad(ctx, 'read blob', 'expected { content, encoding }');
    let bytes: Uint8Array;
    try {
      bytes =
        j.encoding === 'utf-8' || j.encoding === 'utf8' ? new TextEncoder().encode(j.content) : fromBase64(j.content);
    } catch (e) {
      throw this.bad(ctx, 'read blob', 'content is not valid base64', e);
    }
    // Integrity: the bytes must hash to the SHA we asked for (catches truncation and bad proxies).
    if ((await blobShaAsync(bytes)) !== sha) throw this.bad(ctx, 'read blob', `content does not hash to ${sha}`);
    await this.cache.putBlob(sha, bytes);
    return bytes;
  }

  async flatten(ctx: OpContext, tree: string, base: string, out: ListEntry[]): Promise<void> {
    for (const e of await this.level(ctx, tree, 'bulk')) {
      if (e.type === 'tree') await this.flatten(ctx, e.sha, `${base}${e.name}/`, out);
      else if (e.type === 'blob') out.push({ key: `${base}${e.name}`, blobSha: e.sha });
    }
  }
}
