/**
 * GitHttpRefStore: a RefStore on one ref of any git server reachable over smart HTTP (Gitea/Forgejo,
 * GitLab, Bitbucket, GitHub's git endpoint, a self-hosted `git http-backend`), with no git binary —
 * it runs in Node, browsers and workers. Reads ask for the section ref alone (`ls-refs`) and fetch a
 * new tip's changed objects in one round trip; history and old versions deepen on demand. Writes
 * build the commit locally and push it with the old tip as the expected value (the compare-and-swap),
 * rebasing on a lost race through the shared retry loop. See docs/git-stores.md.
 */
import { commitWithRetry } from '../../core/commit-retry.js';
import { readAt } from '../../core/derive.js';
import { InvalidResponse, InvalidVersion } from '../../core/errors.js';
import { commitOnTree } from '../../core/git/commit-on-tree.js';
import { chainTip, checkReplaceHistory, replacementObjects } from '../../core/git/replacement.js';
import { diffTrees } from '../../core/git/tree-diff.js';
import { entryAtPath, listTreeKeys } from '../../core/git/tree-walk.js';
import { KeyWritesThroughCommit } from '../../core/key-writes.js';
import { assertValidKey, assertValidPrefix } from '../../core/keys.js';
import { prepareCommit } from '../../core/plan.js';
import {
  type Change,
  type ChangesOptions,
  type ChangesResult,
  type CommitOptions,
  type GetOptions,
  type GetResult,
  type HistoryOptions,
  type HistoryResult,
  type KeyHistoryOptions,
  keyChanges,
  type ListOptions,
  type ListResult,
  type RefStore,
  type ReplaceHistoryOptions,
  type ReplaceHistoryResult,
  type WriteResult,
} from '../../core/refstore.js';
import { compactedOrNotInSection, historyPage, notInSection } from '../../core/section.js';
import { assertValidVersion, checkChangesOptions, type VersionId } from '../../core/version.js';
import { type HistoryWalk, inSection, keyHistory } from './history.js';
import { GitHttpClient } from './http-client.js';
import { MissingObject, ObjectStore } from './object-store.js';
import { type GitHttpRefStoreOptions, type ResolvedGitHttp, resolveGitHttp } from './options.js';
import { Publisher } from './publish.js';
import { ALL_HISTORY, SectionFetcher } from './section-fetcher.js';

/**
 * A RefStore over git's smart HTTP protocol.
 *
 * @example
 * import { GitHttpRefStore } from 'docdb/git-http'; // or 'docdb/node'
 * const store = new GitHttpRefStore({ remote: 'https://gitea.example.com/org/data.git', token });
 * const { version } = await store.put('notes/hello.txt', 'hi');
 * (await store.get('notes/hello.txt'))?.version === version; // true
 */
export class GitHttpRefStore extends KeyWritesThroughCommit implements RefStore {
  readonly ref: string;
  /** The repository URL (no credentials). */
  readonly remote: string;
  private readonly o: ResolvedGitHttp;
  private readonly client: GitHttpClient;
  private readonly objects: ObjectStore;
  private readonly fetcher: SectionFetcher;
  private readonly publisher: Publisher;
  /** Commits proven to be in the section (a section only moves forward). */
  private readonly known = new Set<string>();
  /** Replacement commits created but not on the server yet (their move lost a race): sent with the next one. */
  private readonly unpushed = new Map<string, { sha: string; type: 'commit'; body: Uint8Array; parent?: string }>();

  constructor(options: GitHttpRefStoreOptions) {
    super();
    this.o = resolveGitHttp(options);
    this.ref = this.o.common.ref;
    this.remote = this.o.remote.url;
    const agent = 'docdb';
    // The token goes to the client alone, which keeps it in a #private field (never shown by inspecting the store).
    this.client = new GitHttpClient({ ...this.o, token: options.token });
    this.objects = new ObjectStore(this.o.cache, `git-http ${this.remote}`);
    const common = { client: this.client, objects: this.objects, ref: this.ref, agent };
    this.fetcher = new SectionFetcher({ ...common, limits: this.o.limits });
    this.publisher = new Publisher({
      ...common,
      fetcher: this.fetcher,
      maxReplyBytes: this.o.limits.maxAdvertisementBytes,
      logger: this.o.logger,
    });
  }

  /** HTTP requests and bytes this store has exchanged (tests and benchmarks read it). */
  get traffic(): Readonly<GitHttpClient['traffic']> {
    return this.client.traffic;
  }

  /** The remote tip: one `ls-refs` round trip (no fetch). */
  head(): Promise<VersionId | null> {
    return this.fetcher.tip();
  }

  /** The remote tip with its objects here. */
  private async syncedTip(): Promise<string | null> {
    const tip = await this.fetcher.tip();
    if (tip) await this.fetcher.ensure(tip);
    return tip;
  }

  private walk(): HistoryWalk {
    return {
      objects: this.objects,
      deepen: (tip, boundary, by) => this.fetcher.deepen(tip, boundary, by),
      maxRounds: this.o.limits.maxRounds,
      url: this.remote,
    };
  }

  /** The commit to read at and the tip: `version` (checked to be in the section) or the tip. */
  private async resolve(version: VersionId | undefined): Promise<{ at: string | null; tip: string | null }> {
    if (version !== undefined) assertValidVersion(version);
    const tip = await this.syncedTip();
    if (version === undefined || version === tip) return { at: tip, tip };
    if (tip === null) throw notInSection(version, this.ref);
    if (!(await inSection(this.walk(), version, tip, this.known))) {
      const log = await keyHistory(this.walk(), tip, '', Number.POSITIVE_INFINITY);
      throw compactedOrNotInSection(version, this.ref, log);
    }
    return { at: version, tip };
  }

  /**
   * Run a read; when the cache lost an object it needs (evicted), fetch the top `depth` commits again
   * without claiming anything, and run it once more.
   */
  private async reading<T>(tip: string, depth: number, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof MissingObject)) throw e;
      this.o.logger?.({ level: 'debug', message: `refetching ${this.ref}: ${e.message}`, data: { sha: e.sha } });
      await this.fetcher.refetch(tip, depth);
      try {
        return await read();
      } catch (again) {
        if (!(again instanceof MissingObject)) throw again;
        throw new InvalidResponse(`${this.remote} did not send ${again.sha}, which ${this.ref} needs`, {
          sha: again.sha,
        });
      }
    }
  }

  private count<T extends object>(before: number, result: T): T & { requests: number } {
    return { ...result, requests: this.client.traffic.requests - before };
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult | null> {
    assertValidKey(key);
    const before = this.client.traffic.requests;
    const { at, tip } = await this.resolve(options.version);
    if (at === null || tip === null) return null;
    const found = await this.reading(tip, at === tip ? 1 : ALL_HISTORY, async () => {
      const e = await entryAtPath((await this.objects.commit(at)).tree, key, (sha) => this.objects.tree(sha));
      if (!e || e.mode === '040000' || e.mode === '160000') return null;
      return { blobSha: e.sha, value: await this.objects.body(e.sha, 'blob') };
    });
    return found && this.count(before, { key, value: found.value, version: at, blobSha: found.blobSha });
  }

  async list(options: ListOptions = {}): Promise<ListResult> {
    const prefix = options.prefix ?? '';
    assertValidPrefix(prefix);
    const before = this.client.traffic.requests;
    const { at, tip } = await this.resolve(options.version);
    if (at === null || tip === null) return this.count(before, { entries: [], version: null });
    const entries = await this.reading(tip, at === tip ? 1 : ALL_HISTORY, async () =>
      listTreeKeys((await this.objects.commit(at)).tree, prefix, (sha) => this.objects.tree(sha)),
    );
    return this.count(before, { entries, version: at });
  }

  /**
   * Keys added, changed and removed between two versions of the section (see RefStore.changes).
   *
   * @example
   * const { added, modified, removed } = await store.changes({ from: v1 }); // v1 → tip
   */
  async changes(options: ChangesOptions): Promise<ChangesResult> {
    const prefix = checkChangesOptions(options);
    const before = this.client.traffic.requests;
    const { at: to, tip } = await this.resolve(options.to);
    if (to === null || tip === null) throw notInSection(options.from, this.ref);
    if (!(await inSection(this.walk(), options.from, tip, this.known))) throw notInSection(options.from, this.ref);
    if (!(await inSection(this.walk(), options.from, to, new Set()))) {
      throw new InvalidVersion(
        options.from,
        `from ${options.from} is not an ancestor of to ${to}; pass the older version as from`,
      );
    }
    const diff = await this.reading(tip, ALL_HISTORY, async () =>
      diffTrees(
        (await this.objects.commit(options.from)).tree,
        (await this.objects.commit(to)).tree,
        (sha) => this.objects.tree(sha),
        prefix,
      ),
    );
    return this.count(before, { from: options.from, to, ...keyChanges(diff) });
  }

  async history(key: string, options: KeyHistoryOptions = {}): Promise<HistoryResult> {
    assertValidKey(key);
    const before = this.client.traffic.requests;
    const { at, tip } = await this.resolve(options.cursor);
    if (!at || !tip) return this.count(before, { entries: [] });
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    // One entry past the page tells whether there is a next page, and where it starts.
    const entries = await this.reading(tip, ALL_HISTORY, () => keyHistory(this.walk(), tip, key, limit + 1, at));
    return this.count(before, historyPage(entries, limit));
  }

  /** The section's first-parent chain, newest first (see `RefStore.commits`), deepening as needed. */
  async commits(options: HistoryOptions = {}): Promise<HistoryResult> {
    const before = this.client.traffic.requests;
    const tip = await this.syncedTip();
    if (!tip) return this.count(before, { entries: [] });
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const entries = await this.reading(tip, ALL_HISTORY, () => keyHistory(this.walk(), tip, '', limit));
    return this.count(before, { entries });
  }

  /**
   * Create `commits` on `onto` and push the last of them with `<from> <new> <ref>` — receive-pack's
   * compare-and-swap, which allows a non-fast-forward update unless the server denies those
   * (`receive.denyNonFastForwards`: then `moved: false` with the ref unmoved). See `RefStore.replaceHistory`.
   *
   * @example
   * const r = await store.replaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
   */
  async replaceHistory(options: ReplaceHistoryOptions): Promise<ReplaceHistoryResult> {
    checkReplaceHistory(options);
    const before = this.client.traffic.requests;
    const tip = await this.syncedTip();
    // The trees are the section's own (its objects are here after the sync); refuse any other.
    for (const t of new Set(options.commits.map((c) => c.tree))) {
      if ((await this.objects.get(t))?.type !== 'tree')
        throw new InvalidVersion(t, `${t} is not a tree of ${this.ref}`);
    }
    const chain = replacementObjects(options);
    const created = chain.map((o) => o.sha);
    const target = chainTip(options, created);
    await options.pace?.();
    for (const o of chain)
      this.unpushed.set(o.sha, { sha: o.sha, type: o.type, body: o.body, parent: o.fields.parents[0] });
    const objects: { sha: string; type: 'commit'; body: Uint8Array }[] = [];
    // The pack carries every commit of the chain the server lacks: this call's and earlier unmoved ones (`onto`).
    for (let at: string | undefined = target; at !== undefined && this.unpushed.has(at); ) {
      const o: { sha: string; type: 'commit'; body: Uint8Array; parent?: string } = this.unpushed.get(at)!;
      objects.unshift({ sha: o.sha, type: o.type, body: o.body });
      at = o.parent;
    }
    const moved = tip === options.from && (await this.publisher.publish(options.from, target, objects));
    if (moved) {
      this.known.clear();
      for (const o of objects) this.unpushed.delete(o.sha);
    }
    return this.count(before, { created, moved, tip: moved ? target : await this.fetcher.tip() });
  }

  async commit(changes: readonly Change[], options: CommitOptions = {}): Promise<WriteResult> {
    const { changes: normalized, ifMatch } = prepareCommit(changes, options);
    const before = this.client.traffic.requests;
    const built = new Map<string, Awaited<ReturnType<typeof commitOnTree>>['objects']>();
    const result = await commitWithRetry({
      ref: this.ref,
      retry: this.o.common.retry,
      ...this.o.backoff,
      readTip: () => this.syncedTip(),
      build: async (tip, derived) => {
        const plan = await this.reading(tip ?? '', 1, async () =>
          commitOnTree({
            readTree: (sha) => this.objects.body(sha, 'tree'),
            tip,
            baseTree: tip ? (await this.objects.commit(tip)).tree : null,
            changes: [...normalized, ...derived],
            author: this.o.common.identity.author,
            now: this.o.common.identity.now(),
            message: options.message,
            ifMatch,
          }),
        );
        if (plan.commit) built.set(plan.commit, plan.objects);
        return plan;
      },
      derive: { hook: options.derive, own: normalized, read: (tip) => readAt(this, tip) },
      publish: (tip, commit) => this.publisher.publish(tip, commit, built.get(commit) ?? []),
    });
    if (result.version) this.known.add(result.version);
    return this.count(before, result);
  }
}
