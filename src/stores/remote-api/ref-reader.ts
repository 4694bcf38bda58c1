/**
 * Reading the section's ref tip: `GET /git/ref/{ref}` (singular `ref`: an exact match, 404 when the ref
 * is missing), conditional with the cached ETag so an unchanged tip costs a 304 and no rate-limit budget.
 * The ETag cache is keyed by token identity (ETags depend on the token). A 404 is told apart from a
 * missing repository by one read of the repository per store.
 * https://docs.github.com/rest/git/refs#get-a-reference
 */
import type { GitCache, RefTip } from '../../cache/git-cache.js';
import { isSha } from '../../core/git/objects.js';
import type { GitHubClient, OpContext, SendResult } from './client.js';
import type { ResolvedConfig } from './config.js';
import { badResponse, isObject } from './shapes.js';
import type { TipMemory } from './tip-memory.js';

/** What the reader needs of the store. */
export interface RefReaderDeps {
  ref: string;
  cfg: Pick<ResolvedConfig, 'etag' | 'startAt'>;
  client: Pick<GitHubClient, 'send'>;
  cache: Pick<GitCache, 'getRefTip' | 'setRefTip' | 'deleteRefTip'>;
  tips: Pick<TipMemory, 'saw'>;
}

/**
 * The ref as URLs name it: no `refs/` prefix, each segment percent-encoded.
 *
 * @example
 * refUrlPath('refs/docdb/documents'); // 'docdb/documents'
 */
export function refUrlPath(ref: string): string {
  return ref.slice('refs/'.length).split('/').map(encodeURIComponent).join('/');
}

/**
 * @example
 * const refs = new RefReader({ ref, cfg, client, cache, tips });
 * const tip = await refs.read(ctx); // null when the section does not exist yet
 */
export class RefReader {
  /** Ref path as used in URLs: `docdb/documents` for `refs/docdb/documents`, segments percent-encoded. */
  readonly path: string;
  private repoChecked = false;
  /** The last read found the ref absent (and answered `startAt`, when configured). */
  private absent = false;

  constructor(private readonly deps: RefReaderDeps) {
    this.path = refUrlPath(deps.ref);
  }

  /**
   * Whether a write built on `parent` must create the ref: the last read found it absent and answered
   * `startAt` in its place (config.ts), so the write's commit is created on that and the ref ON the commit.
   */
  createsOn(parent: string | null): boolean {
    return parent !== null && this.absent && parent === this.deps.cfg.startAt;
  }

  /**
   * Read the ref tip (conditional when an ETag is cached). Returns null when the ref does not exist
   * (`startAt` instead, when the store has one).
   * `checkRepo` false: a missing ref is not told apart from a missing repository (a write's next request
   * fails the same way on a missing repository).
   */
  async read(ctx: OpContext, checkRepo = true): Promise<string | null> {
    const cached = await this.deps.cache.getRefTip(this.deps.ref, ctx.tokenId);
    const res = await this.request(ctx, cached);
    if (res.status === 304) return this.unchanged(ctx, cached);
    if (res.status === 404) return this.missing(ctx, checkRepo);
    return this.moved(ctx, res);
  }

  /**
   * Record `sha` as the tip, learned by a query that read it with files (tip-files.ts): remembered as a ref
   * read's tip is. A cached ETag stays only when it belongs to this very tip — kept for another, a later 304
   * would answer a tip the ref may have left.
   *
   * @example
   * const got = await tipAndFiles(gql, ctx, ref, keys);
   * if (got?.tip) await refs.learned(ctx, got.tip);
   */
  async learned(ctx: OpContext, sha: string): Promise<void> {
    const cached = await this.deps.cache.getRefTip(this.deps.ref, ctx.tokenId);
    if (cached?.sha !== sha) await this.deps.cache.setRefTip(this.deps.ref, ctx.tokenId, { sha });
    this.absent = false;
    this.deps.tips.saw(ctx.tokenId, sha);
  }

  private request(ctx: OpContext, cached: RefTip | undefined): Promise<SendResult> {
    const headers: Record<string, string> = {};
    if (this.deps.cfg.etag && cached?.etag) headers['if-none-match'] = cached.etag;
    return this.deps.client.send(ctx, {
      step: 'read ref',
      method: 'GET',
      path: `/git/ref/${this.path}`,
      headers,
      retry: true,
      accept: [304, 404],
    });
  }

  private unchanged(ctx: OpContext, cached: RefTip | undefined): string {
    if (!cached) throw badResponse(ctx, 'read ref', 'HTTP 304 to an unconditional request');
    this.absent = false;
    this.deps.tips.saw(ctx.tokenId, cached.sha);
    return cached.sha;
  }

  private async missing(ctx: OpContext, checkRepo: boolean): Promise<string | null> {
    await this.deps.cache.deleteRefTip(this.deps.ref, ctx.tokenId);
    // A write skips the check: its next request (create tree) 404s the same way on a missing repository.
    if (checkRepo) await this.ensureRepo(ctx);
    this.absent = true;
    // Not remembered as "seen absent": a write must read the ref again, then create it on `startAt`.
    if (this.deps.cfg.startAt !== undefined) return this.deps.cfg.startAt;
    this.deps.tips.saw(ctx.tokenId, null);
    return null;
  }

  private async moved(ctx: OpContext, res: SendResult): Promise<string> {
    const sha = this.tipOf(ctx, res.json());
    this.absent = false;
    const etag = res.headers.etag;
    await this.deps.cache.setRefTip(this.deps.ref, ctx.tokenId, etag ? { sha, etag } : { sha });
    this.deps.tips.saw(ctx.tokenId, sha);
    return sha;
  }

  /** The commit SHA of a ref body `{ ref, object: { sha, type } }`. */
  private tipOf(ctx: OpContext, j: unknown): string {
    const ref = this.deps.ref;
    if (!isObject(j))
      throw badResponse(ctx, 'read ref', Array.isArray(j) ? 'a list instead of one ref' : 'not an object');
    const obj = j.object;
    if (j.ref !== ref || !isObject(obj) || !isSha(obj.sha)) {
      throw badResponse(ctx, 'read ref', `expected { ref: "${ref}", object: { sha } }`);
    }
    if (obj.type !== undefined && obj.type !== 'commit') {
      throw badResponse(ctx, 'read ref', `${ref} points at a ${String(obj.type)}, not a commit`);
    }
    return obj.sha;
  }

  /** GET the repository once per store to tell "ref missing" from "repository missing" (both 404). */
  private async ensureRepo(ctx: OpContext): Promise<void> {
    if (this.repoChecked) return;
    await this.deps.client.send(ctx, { step: 'read repository', method: 'GET', path: '', retry: true });
    this.repoChecked = true;
  }
}
