/**
 * How the modules of RemoteApiRefStore fit together: one validated configuration, one client, one cache
 * and one tree walker, shared by the read and write modules, each given only the bound readers and
 * writers it uses (its `…Host`/`…Deps` interface). Kept out of remote-api-refstore.ts so the store reads
 * as its operations, and each module can be followed from here to what it borrows.
 */
import { GitCache } from '../../cache/git-cache.js';
import type { BulkReadHost } from './bulk-reads.js';
import { CatchUp } from './catch-up.js';
import { GitHubClient, type OpContext } from './client.js';
import { CommitReader } from './commit-reader.js';
import { type RemoteApiRefStoreOptions, type ResolvedConfig, resolveConfig } from './config.js';
import { remoteApiFeatures as features } from './features.js';
import { type GraphqlDeps, pathLevels } from './graphql.js';
import { graphqlUrl } from './graphql-url.js';
import type { KeyReadHost } from './key-reads.js';
import { ObjectWriter } from './object-writer.js';
import { OperationRunner } from './operation.js';
import { RefReader } from './ref-reader.js';
import { RefUpdater } from './ref-update.js';
import type { SectionArchives } from './section-archives.js';
import { badResponse } from './shapes.js';
import { TipMemory } from './tip-memory.js';
import { TreeWalker } from './tree-walker.js';
import type { ReplaceHost } from './update-refs.js';
import type { VersionedReadHost } from './versioned-reads.js';
import type { VersionsHost } from './versions.js';
import type { WriteHost } from './write-host.js';

/** What RemoteApiRefStore coordinates. */
export interface StoreWiring {
  cfg: ResolvedConfig;
  /** Object and ref-tip caches. */
  cache: GitCache;
  ops: OperationRunner;
  refs: RefReader;
  /** Lent to key-reads.ts (get, list). */
  keyReads: KeyReadHost;
  /** Lent to versions.ts (section check, changes) and history.ts. */
  versions: VersionsHost;
  /** Lent to write-loop.ts and parts-loop.ts. */
  writes: WriteHost;
  /** Lent to bulk-reads.ts (readMany), with {@link archives}. */
  bulk: Omit<BulkReadHost, 'archives'>;
  /** The section's archives (section-archives.ts): loaded and built on first use, then kept. */
  archives(): Promise<SectionArchives>;
  /** Lent to versioned-reads.ts (readVersions). */
  versioned: VersionedReadHost;
  /** Lent to update-refs.ts (replaceHistory). */
  replace: ReplaceHost;
}

/** The readers every part of the store shares. */
interface Shared {
  cfg: ResolvedConfig;
  client: GitHubClient;
  cache: GitCache;
  trees: TreeWalker;
  tips: TipMemory;
  refs: RefReader;
  commits: CommitReader;
  ops: OperationRunner;
  repository: string;
  gql: GraphqlDeps;
  archives(): Promise<SectionArchives>;
}

/**
 * Validate `options` (`InvalidConfig` naming the field) and build the store's modules.
 *
 * @example
 * const wired = wireStore({ transport, owner: 'octo', repo: 'data', token });
 * const tip = await wired.ops.run('head', (ctx) => wired.refs.read(ctx));
 */
export function wireStore(options: RemoteApiRefStoreOptions): StoreWiring {
  const cfg = resolveConfig(options);
  const client = new GitHubClient(cfg);
  const cache = new GitCache(cfg.backend, `${cfg.apiBase}/${cfg.owner}/${cfg.repo}`);
  const gql = { client, url: graphqlUrl(cfg.apiBase), owner: cfg.owner, repo: cfg.repo };
  const trees = new TreeWalker(client, cache, cfg.logger, badResponse, (ctx, root, path) =>
    pathLevels(gql, ctx, root, path),
  );
  const tips = new TipMemory(cfg);
  const refs = new RefReader({ ref: cfg.ref, cfg, client, cache, tips });
  const repository = `${cfg.owner}/${cfg.repo}`;
  const commits = new CommitReader(client, cache, repository);
  const ops = new OperationRunner(cfg);
  const archives = once(async () => {
    const { SectionArchives } = await features.archives();
    return new SectionArchives({ cfg, client, cache, getCommit: (ctx, sha, pinned) => commits.get(ctx, sha, pinned) });
  });
  const shared: Shared = { cfg, client, cache, trees, tips, refs, commits, ops, repository, gql, archives };
  const versions = versionsHost(shared);
  const keyReads = keyReadHost(shared, versions);
  return {
    cfg,
    cache,
    ops,
    refs,
    keyReads,
    versions,
    writes: writeHost(shared),
    bulk: {
      ...keyReads,
      cfg,
      cache,
      graphql: gql,
      sawTip: (ctx, sha) => refs.learned(ctx, sha),
      tipQuery: { unseen: false },
    },
    archives,
    versioned: { keyReads, cache, graphql: gql },
    replace: {
      ref: cfg.ref,
      owner: cfg.owner,
      repo: cfg.repo,
      graphqlUrl: gql.url,
      cfg,
      client,
      readRefFresh: async (ctx) => {
        await cache.deleteRefTip(cfg.ref, ctx.tokenId);
        return refs.read(ctx);
      },
      forgetSection: async (ctx) => {
        versions.known.clear();
        await cache.deleteRefTip(cfg.ref, ctx.tokenId);
      },
      memo: cfg.repositoryId ? { repositoryId: cfg.repositoryId } : {},
    },
  };
}

function versionsHost({ cfg, client, cache, trees, refs, commits, gql }: Shared): VersionsHost {
  return {
    ref: cfg.ref,
    apiOrigin: cfg.apiOrigin,
    send: (ctx, opts) => client.send(ctx, opts),
    readRef: (ctx) => refs.read(ctx),
    cachedTip: async (ctx) => (await cache.getRefTip(cfg.ref, ctx.tokenId))?.sha,
    cachedCommit: (sha) => cache.getCommit(sha),
    putCommit: (c) => cache.putCommit(c),
    getCommit: (ctx, sha, pinned) => commits.get(ctx, sha, pinned),
    treeLevel: (ctx, sha) => trees.level(ctx, sha, 'bulk'),
    // Commits proven to be in the section (commits are immutable: a positive answer is kept).
    known: new Set<string>(),
    graphql: gql,
  };
}

function keyReadHost({ trees, refs, commits, client, cache, archives }: Shared, versions: VersionsHost): KeyReadHost {
  return {
    readRef: (ctx) => refs.read(ctx),
    getCommit: (ctx, sha, pinned) => commits.get(ctx, sha, pinned),
    cachedCommit: (sha) => cache.getCommit(sha),
    assertInSection: async (ctx, version) => (await features.versions()).assertInSection(versions, ctx, version),
    trees,
    paths: { client, cache, trees },
    archives: { readAhead: async (ctx, version, pinned) => (await archives()).readAhead(ctx, version, pinned) },
  };
}

function writeHost(s: Shared): WriteHost {
  const { cfg, client, cache, trees, tips, refs, commits, ops, gql } = s;
  const getCommit = (ctx: OpContext, sha: string) => commits.get(ctx, sha);
  const catchUp = new CatchUp(client, cache);
  const updater = new RefUpdater({
    ref: cfg.ref,
    path: refs.path,
    cfg,
    client,
    cache,
    tips,
    catchUp,
    readRef: (ctx) => refs.read(ctx),
    createsOn: (parent) => refs.createsOn(parent),
    getCommit,
  });
  return {
    ref: cfg.ref,
    repository: s.repository,
    cfg,
    tips,
    trees,
    objects: new ObjectWriter({ ref: cfg.ref, cfg, client, cache, trees }),
    refs: updater,
    catchUp,
    derived: { cache, trees, paths: { client, cache, trees }, graphql: gql },
    cachedTip: (ctx) => cache.getRefTip(cfg.ref, ctx.tokenId),
    cachedCommit: (sha) => cache.getCommit(sha),
    readRef: (ctx, checkRepo) => refs.read(ctx, checkRepo),
    getCommit,
    meta: (ctx) => ops.meta(ctx),
  };
}

/**
 * `make` called on first use; every later call gets the same promise — unless it failed (a browser chunk that
 * could not be fetched): then the next call tries again rather than failing for the store's lifetime.
 */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((e: unknown) => {
      made = undefined;
      throw e;
    });
    return made;
  };
}
