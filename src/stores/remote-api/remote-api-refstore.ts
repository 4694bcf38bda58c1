/**
 * RemoteApiRefStore: the primary RefStore, on one ref of a GitHub repository, reached only through
 * the Git Database REST API over a pluggable HTTP transport. See docs/remote-api.md.
 *
 * Reads:  ref (conditional, ETag) → commit → tree level(s) → blob, each object cached by SHA.
 * Writes: [blobs for binary/large values] → POST /git/trees (inline content, sha:null deletes, on
 *         base_tree) → POST /git/commits → PATCH /git/refs (force:false) or POST /git/refs.
 *
 * This class is the coordinator: it validates arguments, runs each operation (operation.ts), serialises
 * its own writes, and (through wiring.ts) lends narrow sets of bound readers and writers to the modules
 * that do the work:
 * - reads: ref-reader.ts (tip, ETag), commit-reader.ts, key-reads.ts (get, list), history.ts,
 *   versions.ts (section check, changes), tree-walker.ts (trees and blobs);
 * - writes: write-loop.ts (one commit), parts-loop.ts + parts-gather.ts (a commit in parts), sharing
 *   write-host.ts; object-writer.ts (trees, blobs, commits), ref-update.ts (the fast-forward and lost
 *   replies), catch-up.ts (one compare after the tip moved), tip-memory.ts (tips seen recently);
 * - put and delete are one-change commits (core/key-writes.ts).
 * What a get, a put, a list or a delete does not use (history, versions and changes, bulk and versioned reads,
 * commits in parts, other refs) is reached through features.ts, never imported: the browser bundle loads
 * those modules on first use.
 */

import type { GitCache } from '../../cache/git-cache.js';
import { KeyWritesThroughCommit } from '../../core/key-writes.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import { keyWriteToCommit } from '../../core/plan.js';
import { assertVersionedReads } from '../../core/read-versions.js';
import type {
  Change,
  ChangeParts,
  ChangesOptions,
  ChangesResult,
  CommitOptions,
  CommitPartsOptions,
  GetOptions,
  GetResult,
  HistoryOptions,
  HistoryResult,
  KeyHistoryOptions,
  KeyWriteOptions,
  ListOptions,
  ListResult,
  ReadManyItem,
  ReadManyOptions,
  ReadVersionsOptions,
  RefStore,
  ReplaceHistoryOptions,
  ReplaceHistoryResult,
  VersionedItem,
  VersionedRead,
  WriteResult,
} from '../../core/refstore.js';
import { historyOf } from '../../core/section.js';
import { assertValidVersion, checkChangesOptions, type VersionId } from '../../core/version.js';
import { assertPartsWrite, checkDeletions, historyLimit, type RefDeletion } from './call-checks.js';
import type { OpContext } from './client.js';
import type { RemoteApiRefStoreOptions, ResolvedConfig } from './config.js';
import { remoteApiFeatures as features } from './features.js';
import { listKeys, readKey } from './key-reads.js';
import type { ListedRef } from './matching-refs.js';
import { listTreeOnce, type TreeListing } from './tree-listing.js';
import { type StoreWiring, wireStore } from './wiring.js';
import { checkedWrite, writeOneCommit } from './write-loop.js';

/**
 * A RefStore on `refs/<root>/<section>` of a GitHub repository.
 *
 * @example
 * const store = new RemoteApiRefStore({
 *   transport: fetchTransport(),
 *   owner: 'octo', repo: 'data', ref: 'refs/docdb/documents',
 *   token: process.env.GITHUB_TOKEN,
 * });
 * const { version } = await store.put('github/repo/octo/hello.json', '{"a":1}');
 * const got = await store.get('github/repo/octo/hello.json'); // { value, version, blobSha, requests, rateLimit }
 */
export class RemoteApiRefStore extends KeyWritesThroughCommit implements RefStore {
  readonly ref: string;
  /** Validated configuration (read-only; contains no secrets beyond the configured token). */
  private readonly cfg: ResolvedConfig;
  /** Object and ref-tip caches (exposed for diagnostics and tests). */
  readonly cache: GitCache;
  /** The modules this store coordinates, and the hosts it lends them (see wiring.ts). */
  private readonly wired: StoreWiring;
  private writeChain: Promise<unknown> = Promise.resolve();

  constructor(options: RemoteApiRefStoreOptions) {
    super();
    this.wired = wireStore(options);
    this.cfg = this.wired.cfg;
    this.ref = this.cfg.ref;
    this.cache = this.wired.cache;
  }

  /** `owner/repo` this store writes to. */
  get repository(): string {
    return `${this.cfg.owner}/${this.cfg.repo}`;
  }

  // ---------------------------------------------------------------- reads

  async head(): Promise<VersionId | null> {
    return this.wired.ops.run('head', (ctx) => this.wired.refs.read(ctx));
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    if (options.version !== undefined) assertValidVersion(options.version);
    return this.wired.ops.run('get', async (ctx) => {
      const found = await readKey(this.wired.keyReads, ctx, key, options.version);
      return found && { key, ...found, ...this.meta(ctx) };
    });
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    if (options.version !== undefined) assertValidVersion(options.version);
    return this.wired.ops.run('list', async (ctx) => {
      const listed = await listKeys(this.wired.keyReads, ctx, prefix, options.version, options.withValues === true);
      return { ...listed, ...this.meta(ctx) };
    });
  }

  /**
   * Every file of the tree at `version` (a commit of this ref) with its size, from ONE recursive listing
   * once the commit is known — for a page that shows a listing. When GitHub cuts the listing (past 100,000
   * entries or 7 MB) `truncated` is true and `files` is only part of the tree: say so; `list()` walks it whole.
   *
   * @example
   * const { files, truncated } = await store.listTree(version);
   */
  async listTree(version: VersionId): Promise<TreeListing> {
    assertValidVersion(version);
    return this.wired.ops.run('listTree', (ctx) =>
      listTreeOnce(this.wired.keyReads, this.wired.versions, ctx, version),
    );
  }

  /**
   * The values of many keys at one version (the tip unless `version` is given): cached values are never
   * fetched again; the rest come from the section's archive (with `archive: nodeArchiveReader()`, Node),
   * GraphQL batches (with a token) or the blobs endpoint; `onMeta` gets the read's `requests` and `rateLimit`
   * before the first item. Prefer `readManyFrom(store, keys)`.
   *
   * @example
   * for await (const { key, value } of store.readMany(['a.json', 'b.json'])) console.log(key, value?.length);
   */
  async *readMany(keys: readonly string[], options: ReadManyOptions = {}): AsyncGenerator<ReadManyItem> {
    for (const k of keys) assertValidKey(k);
    if (options.version !== undefined) assertValidVersion(options.version);
    const { items, meta } = await this.wired.ops.run('readMany', async (ctx) => {
      const { readManyAt } = await features.bulk();
      const host = { ...this.wired.bulk, archives: await this.wired.archives() };
      const fewest = options.fewestRounds === true;
      const items = await readManyAt(host, ctx, keys, options.version, fewest, options.childFiles);
      return { items, meta: this.meta(ctx) };
    });
    options.onMeta?.(meta);
    yield* items;
  }

  /**
   * The value of each `{ key, version }` pair (see `RefStore.readVersions`, versioned-reads.ts): with a token, one
   * GraphQL query per 100 pairs; without one, a contents request per pair. Prefer `readVersionsFrom(store, reads)`.
   *
   * @example
   * const { entries } = await store.history(key, { limit: 100 });
   * const items = await store.readVersions(entries.map((e) => ({ key, version: e.version }))); // 1 request with a token
   */
  async readVersions(reads: readonly VersionedRead[], options: ReadVersionsOptions = {}): Promise<VersionedItem[]> {
    assertVersionedReads(reads);
    const { items, meta } = await this.wired.ops.run('readVersions', async (ctx) => {
      const { readVersionsOnApi } = await features.versioned();
      return {
        items: await readVersionsOnApi(this.wired.versioned, ctx, reads, options.sharedBlobs === true),
        meta: this.meta(ctx),
      };
    });
    options.onMeta?.(meta);
    return items;
  }

  async history(key: string, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const limit = historyLimit(options);
    if (options.cursor !== undefined) assertValidVersion(options.cursor);
    return this.wired.ops.run('history', async (ctx) => {
      const versions = this.wired.versions;
      const [{ keyHistory }, { assertInSection }] = await Promise.all([features.history(), features.versions()]);
      // A cursor from an earlier page is known (below): free; any other commit is checked like a version.
      if (options.cursor !== undefined) await assertInSection(versions, ctx, options.cursor);
      const page = await keyHistory({ ...versions, cache: this.cache }, ctx, key, limit, options.cursor);
      // Listed below the tip (or a cursor in the section), so is the next page's start.
      this.inSection(page.nextCursor ? [...page.entries, { version: page.nextCursor }] : page.entries);
      const result = { ...historyOf(page.entries), ...this.meta(ctx) };
      return page.nextCursor ? { ...result, nextCursor: page.nextCursor } : result;
    });
  }

  /** The section's commits, newest first: `GET /commits?sha=<ref>`, 1 request per 100 (see `RefStore.commits`). */
  async commits(options: HistoryOptions = {}): Promise<HistoryResult> {
    const limit = historyLimit(options);
    return this.wired.ops.run('history', async (ctx) => {
      const { keyHistory } = await features.history();
      const { entries } = await keyHistory({ ...this.wired.versions, cache: this.cache }, ctx, '', limit);
      this.inSection(entries);
      return { entries, ...this.meta(ctx) };
    });
  }

  /**
   * Listed from the section's ref (or a cursor in it), these commits are in the section: reading at them (`get`, `readVersions` at
   * a version from the history) needs no second listing to prove it.
   */
  private inSection(entries: readonly { version: string }[]): void {
    for (const e of entries) this.wired.versions.known.add(e.version);
  }

  /**
   * Keys added, changed and removed between two versions of the section. Cold, between adjacent
   * versions: 5 requests (ref, 2 commits, 2 recursive tree listings); warm: the ref read (a 304) plus
   * the tree levels that differ and are not cached yet.
   *
   * @example
   * const { added, modified, removed } = await store.changes({ from: v1 }); // v1 → tip
   */
  async changes(options: ChangesOptions): Promise<ChangesResult> {
    const prefix = checkChangesOptions(options);
    return this.wired.ops.run('changes', async (ctx) => {
      const { changesBetween } = await features.versions();
      const r = await changesBetween(this.wired.versions, ctx, { ...options, prefix });
      return { ...r, ...this.meta(ctx) };
    });
  }

  // ---------------------------------------------------------------- writes

  commit(changes: readonly Change[], options?: CommitOptions): Promise<WriteResult> {
    return this.write('commit', changes, options);
  }

  /**
   * One commit whose changes arrive in parts (pages of a source, slices of a huge batch): each part is
   * planned against the tip's tree and its tree entries join the chain of create-tree requests as soon as
   * one is full, so only one part, one request's worth of content, and each key with its blob SHA are held
   * in memory. Costs what `commit` of all the parts costs. A lost race re-plans from the kept blob SHAs
   * (every blob is on GitHub by then): no value is sent twice. Prefer `commitInParts(store, parts)`.
   *
   * @example
   * async function* pages() { yield [{ op: 'put', key: 'a.json', value: '1' }]; yield [{ op: 'delete', key: 'b.json' }]; }
   * await store.commitParts(pages(), { message: 'backfill' });
   */
  commitParts(parts: ChangeParts, options: CommitPartsOptions = {}): Promise<WriteResult> {
    assertPartsWrite(options);
    return this.serialised('commit', async (ctx) =>
      (await features.parts()).writeInParts(this.wired.writes, ctx, parts, options),
    );
  }

  /**
   * Create `commits` on `onto` (`POST /git/commits` each) and move the ref from `from` to the last of them with
   * GraphQL `updateRefs` (`beforeOid: from`, `force: true`): see `RefStore.replaceHistory`, update-refs.ts.
   *
   * @example
   * const r = await store.replaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
   */
  replaceHistory(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult> {
    // In line with this instance's writes, as they are with each other.
    const run = this.writeChain.then(() =>
      this.wired.ops.run('replaceHistory', async (ctx) => ({
        ...(await (await features.replace()).replaceOnGitHub(this.wired.replace, ctx, options)),
        ...this.meta(ctx),
      })),
    );
    this.writeChain = run.catch(() => {});
    return run;
  }

  /**
   * Delete other refs of this repository, each only while it points at its `oid`, in ONE GraphQL
   * `updateRefs` mutation, all or none (delete-refs.ts): PreconditionFailed when one moved. Not a RefStore
   * operation (a RefStore writes one ref): the shard merge removes the shard refs it folded with it.
   *
   * @example
   * await store.deleteRefs([{ ref: 'refs/docdb/inventory.shards/1', oid: tip1 }, { ref: 'refs/docdb/inventory.shards/2', oid: tip2 }]);
   */
  /**
   * Other refs of this repository under `prefix` (a full ref prefix ending in "/"), each with its commit: one
   * `GET /git/matching-refs` per 100 (matching-refs.ts). Not a RefStore operation: how a section's
   * quarantine refs are listed (docdb section quarantine list).
   *
   * @example
   * await store.listRefs('refs/docdb/documents.quarantine/'); // [{ ref: 'refs/docdb/documents.quarantine/4711.1', oid: 'ab…' }]
   */
  listRefs(prefix: string): Promise<ListedRef[]> {
    return this.wired.ops.run('listRefs', async (ctx) =>
      (await features.listRefs()).listRefsOnGitHub(this.wired.replace, ctx, prefix),
    );
  }

  async deleteRefs(refs: readonly RefDeletion[]): Promise<void> {
    checkDeletions(refs);
    const run = this.writeChain.then(() =>
      this.wired.ops.run('deleteRefs', async (ctx) =>
        (await features.deleteRefs()).deleteRefsOnGitHub(this.wired.replace, ctx, refs),
      ),
    );
    this.writeChain = run.catch(() => {});
    return run;
  }

  /** Every cache entry (diagnostics; used by the token-hygiene test). */
  async dumpCache(): Promise<[string, unknown][]> {
    return [...(await this.cfg.backend.entries())];
  }

  /** `put` and `delete` (core/key-writes.ts), named as their own operation in errors and logs. */
  protected override writeKey(
    operation: 'put' | 'delete',
    change: Change,
    options: KeyWriteOptions | undefined,
  ): Promise<WriteResult> {
    return this.write(operation, [change], keyWriteToCommit(change.key, options));
  }

  private async write(
    operation: string,
    changes: readonly Change[],
    options: CommitOptions = {},
  ): Promise<WriteResult> {
    const checked = checkedWrite(changes, options);
    return this.serialised(operation, (ctx) =>
      writeOneCommit(this.wired.writes, ctx, checked.changes, options, checked.ifMatch),
    );
  }

  /** Serialise writes of this instance: GitHub asks for serial writes, and racing ourselves only burns retries. */
  private serialised(operation: string, fn: (ctx: OpContext) => Promise<WriteResult>): Promise<WriteResult> {
    const run = this.writeChain.then(() => this.wired.ops.run(operation, fn));
    this.writeChain = run.catch(() => {});
    return run;
  }

  private meta(ctx: OpContext) {
    return this.wired.ops.meta(ctx);
  }
}
