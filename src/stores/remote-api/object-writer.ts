/**
 * Creating the objects of a write: trees (a chain of `POST /git/trees`, see tree-upload.ts), blobs for
 * values that cannot go inline (`POST /git/blobs`) and the commit (`POST /git/commits`). Trees and blobs
 * are content-addressed, so they are retried like reads; a commit is created exactly once (commit-create.ts:
 * without an author GitHub dates it itself, so a resend would make a second one). After GitHub answers with the new root tree, the
 * same trees are computed locally (local-trees.ts) and, when the roots agree, every new level and every
 * blob written is cached: a read or a no-op write right after this store's own write costs only the ref read.
 * https://docs.github.com/rest/git/trees#create-a-tree · https://docs.github.com/rest/git/commits#create-a-commit
 */
import { DEFAULT_CACHE_MAX_BYTES } from '../../cache/backend.js';
import type { GitCache } from '../../cache/git-cache.js';
import { toBase64 } from '../../core/bytes.js';
import { isSha } from '../../core/git/objects.js';
import type { PlannedTreeChange } from '../../core/plan.js';
import type { GitHubClient, OpContext } from './client.js';
import { commitRequest, createCommitOnce } from './commit-create.js';
import type { ResolvedConfig } from './config.js';
import { buildTreesLocally } from './local-trees.js';
import { badResponse, isObject } from './shapes.js';
import { TreeUpload, type TreeUploadHost } from './tree-upload.js';
import type { TreeWalker } from './tree-walker.js';

/** What the writer needs of the store. */
export interface ObjectWriterDeps {
  ref: string;
  cfg: Pick<ResolvedConfig, 'maxInlineBytes' | 'author' | 'commitDate' | 'logger' | 'readRetries' | 'sleep'>;
  client: Pick<GitHubClient, 'send' | 'backoffMs'>;
  cache: Pick<GitCache, 'getTree' | 'putTree' | 'putBlob' | 'putCommit'>;
  trees: Pick<TreeWalker, 'cacheListing' | 'lastRootTree'>;
}

/**
 * @example
 * const objects = new ObjectWriter({ ref, cfg, client, cache, trees });
 * const tree = await objects.createTrees(ctx, base.tree, plan.treeChanges);
 * await objects.rememberOwnTrees(base.tree, plan.treeChanges, tree);
 * const commit = await objects.createCommit(ctx, tree, tip, 'docdb: update');
 */
export class ObjectWriter {
  constructor(private readonly deps: ObjectWriterDeps) {}

  /** A chained create-tree upload on `baseTree` (see tree-upload.ts). */
  treeUpload(ctx: OpContext, baseTree: string | null, uploaded?: Set<string>): TreeUpload {
    const host: TreeUploadHost = {
      maxInlineBytes: this.deps.cfg.maxInlineBytes,
      createBlob: (bytes, sha) => this.createBlob(ctx, bytes, sha),
      createTree: (body) => this.createTree(ctx, body),
    };
    return new TreeUpload(host, baseTree, uploaded);
  }

  /** Upload `changes` on `baseTree` in as many create-tree requests as their content needs; the new root. */
  async createTrees(
    ctx: OpContext,
    baseTree: string | null,
    changes: PlannedTreeChange[],
    uploaded?: Set<string>,
  ): Promise<string> {
    const up = this.treeUpload(ctx, baseTree, uploaded);
    await up.add(changes);
    return (await up.finish()) as string;
  }

  /**
   * Compute the trees of our own write locally; when the root matches GitHub's reply, cache every new
   * level and every blob written, so the next read or no-op write needs only the ref read.
   */
  async rememberOwnTrees(baseTree: string | null, changes: PlannedTreeChange[], replied: string): Promise<void> {
    const { cache, cfg, trees } = this.deps;
    const built = await buildTreesLocally((sha) => cache.getTree(sha), baseTree, changes);
    if (built?.root !== replied) {
      if (built) {
        cfg.logger?.({
          level: 'warn',
          message: `${this.deps.ref}: the tree computed locally (${built.root}) differs from GitHub's (${replied}); not caching it`,
          data: { local: built.root, upstream: replied },
        });
      }
      return;
    }
    for (const [sha, level] of built.levels) await cache.putTree(sha, level);
    await this.rememberBlobs(changes);
    trees.lastRootTree = replied;
  }

  /**
   * Create the commit of `tree` on `parent` (none: the section's first commit), exactly once: a request
   * whose reply was lost is never sent again blindly (commit-create.ts). Its SHA.
   */
  async createCommit(ctx: OpContext, tree: string, parent: string | null, message: string): Promise<string> {
    const req = commitRequest(tree, parent, message, this.deps.cfg.author, this.deps.cfg.commitDate ?? new Date());
    const c = await createCommitOnce(this.deps, ctx, req);
    if (c.tree !== tree) throw badResponse(ctx, 'create commit', `commit tree ${c.tree} is not ${tree}`);
    await this.deps.cache.putCommit(c);
    return c.sha;
  }

  /** One create-tree request (its JSON body as built by tree-body.ts); its new tree's SHA. */
  private async createTree(ctx: OpContext, json: Uint8Array): Promise<string> {
    const res = await this.deps.client.send(ctx, {
      step: 'create tree',
      method: 'POST',
      path: '/git/trees',
      json,
      retry: true, // content-addressed: repeating it yields the same tree
    });
    const j = res.json();
    if (!isObject(j) || !isSha(j.sha)) throw badResponse(ctx, 'create tree', 'expected { sha }');
    // The reply lists the new root level: cache it so a read after our write skips that request.
    if (Array.isArray(j.tree) && j.truncated !== true) await this.deps.trees.cacheListing(j.sha, j.tree, false);
    return j.sha;
  }

  private async createBlob(ctx: OpContext, bytes: Uint8Array, expected: string): Promise<string> {
    const b64 = toBase64(bytes);
    const res = await this.deps.client.send(ctx, {
      step: 'create blob',
      method: 'POST',
      path: '/git/blobs',
      body: { content: b64, encoding: 'base64' },
      retry: true,
    });
    const j = res.json();
    if (!isObject(j) || !isSha(j.sha)) throw badResponse(ctx, 'create blob', 'expected { sha }');
    if (j.sha !== expected)
      throw badResponse(ctx, 'create blob', `blob SHA ${j.sha} differs from the local ${expected}`);
    return j.sha;
  }

  private async rememberBlobs(changes: PlannedTreeChange[]): Promise<void> {
    // Blobs written are cached up to a quarter of the memory cache's bound: enough for every interactive
    // write, while a 100,000-document batch does not copy its whole payload into a cache it would thrash.
    let budget = DEFAULT_CACHE_MAX_BYTES / 4;
    for (const c of changes) {
      if (c.sha === null || !c.content || c.content.length > budget) continue;
      budget -= c.content.length;
      await this.deps.cache.putBlob(c.sha, c.content.slice());
    }
  }
}
