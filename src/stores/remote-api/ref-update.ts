/**
 * Moving the section's ref to a new commit: `PATCH /git/refs/{ref}` `{ sha, force: false }` (GitHub checks
 * only that the new commit descends from the tip: 422 otherwise), or `POST /git/refs` for the section's
 * first commit or a ref's first commit on its `startAt` (422 when the ref appeared meanwhile). A write may be applied while its reply is lost, so
 * after a 422 or no reply (no response or 5xx) the ref is re-read and only what it shows decides:
 * - our commit → applied;
 * - the ref unmoved → not applied (a lost reply is sent again, up to `readRetries` times);
 * - anything else → a lost race, unless a reply was lost earlier and the new tip descends from our commit
 *   (applied, then built on by another writer).
 * A plain lost race is read with one compare against the ref name (catch-up.ts) instead of a ref read.
 * https://docs.github.com/rest/git/refs#update-a-reference
 */
import type { CachedCommit, GitCache } from '../../cache/git-cache.js';
import type { WriteRetry } from '../../core/backoff.js';
import { type DocDbError, InvalidResponse, TransportError, UpstreamUnavailable } from '../../core/errors.js';
import type { CatchUp, Caught, TouchedBy } from './catch-up.js';
import type { GitHubClient, OpContext, SendOptions } from './client.js';
import type { ResolvedConfig } from './config.js';
import { reachesBack } from './stale-tip.js';
import type { TipMemory } from './tip-memory.js';

/** Ref re-reads (each with the client's own retries) after a lost update reply before "unknown". */
const MAX_REREADS_AFTER_LOST_REPLY = 8;

/** Commits walked back (first parents) to find our commit below a new tip when no compare answers. */
const MAX_PARENTS_WALKED = 20;

/** `ok`: the ref is at our commit (or at a descendant of it). Else the tip another writer left. */
export type RefUpdateOutcome = { ok: true } | { ok: false; tip: string | null; caught?: Caught };

/** What the updater needs of the store. */
export interface RefUpdaterDeps {
  ref: string;
  /** The ref as URLs name it (ref-reader.ts `refUrlPath`). */
  path: string;
  cfg: Pick<ResolvedConfig, 'logger' | 'sleep' | 'readRetries'>;
  client: GitHubClient;
  cache: Pick<GitCache, 'setRefTip' | 'deleteRefTip'>;
  tips: Pick<TipMemory, 'saw'>;
  catchUp: Pick<CatchUp, 'from' | 'compareByRef'>;
  readRef(ctx: OpContext): Promise<string | null>;
  /** True when a write built on `parent` creates the ref (absent, read as `startAt`: ref-reader.ts). */
  createsOn(parent: string | null): boolean;
  getCommit(ctx: OpContext, sha: string): Promise<CachedCommit>;
}

/** The one request that moves the ref (create or update). */
type RefRequest = Pick<SendOptions, 'step' | 'method' | 'path' | 'body'>;

/**
 * @example
 * const refs = new RefUpdater({ ref, path, cfg, client, cache, tips, catchUp, readRef, createsOn, getCommit });
 * const outcome = await refs.update(ctx, tip, commit, retry);
 * if (!outcome.ok) rebaseOnto(outcome.tip);
 */
export class RefUpdater {
  constructor(private readonly deps: RefUpdaterDeps) {}

  /**
   * Advance the ref from `parent` to `commit` (fast-forward only; `POST /git/refs` when `parent` is
   * null, or the `startAt` of an absent ref). `{ ok: false, tip }` when another writer won; `touchedBy` tells the catch-up which changed
   * files touch the write.
   */
  async update(
    ctx: OpContext,
    parent: string | null,
    commit: string,
    retry?: WriteRetry,
    touchedBy: TouchedBy = () => true,
  ): Promise<RefUpdateOutcome> {
    let lost = 0; // replies lost so far: from then on our update may have been applied at any time
    for (;;) {
      const request = this.request(parent, commit);
      const noReply = await this.send(ctx, request, commit);
      if (noReply === 'applied') return { ok: true };
      if (noReply) lost++;
      // Unconditional: after an update attempt a cached ETag proves nothing about our write.
      await this.deps.cache.deleteRefTip(this.deps.ref, ctx.tokenId);
      if (!noReply && lost === 0 && parent !== null && request.method === 'PATCH' && this.deps.catchUp.compareByRef) {
        const caught = await this.lostRace(ctx, parent, touchedBy);
        if (caught) return { ok: false, tip: caught.commit.sha, caught };
      }
      const now = await this.reread(ctx, commit, lost, retry);
      if (now === commit) return { ok: true };
      if (now !== parent) {
        if (lost > 0 && now !== null && (await this.landedBelow(ctx, now, commit, parent))) return { ok: true };
        return { ok: false, tip: now };
      }
      // Created meanwhile at our parent by someone else: the move is an update now (the request follows the read).
      if (!noReply && request.method === 'POST' && now !== null && !this.deps.createsOn(now)) continue;
      // The ref did not move, so our update was not applied.
      await this.sendAgain(ctx, request.step, noReply, lost);
    }
  }

  private request(parent: string | null, commit: string): RefRequest {
    if (parent === null || this.deps.createsOn(parent)) {
      return { step: 'create ref', method: 'POST', path: '/git/refs', body: { ref: this.deps.ref, sha: commit } };
    }
    return {
      step: 'update ref',
      method: 'PATCH',
      path: `/git/refs/${this.deps.path}`,
      body: { sha: commit, force: false },
    };
  }

  /**
   * One attempt: `'applied'`, undefined for a 422 (not a fast forward / reference already exists /
   * reference does not exist), or the error when no reply came.
   */
  private async send(ctx: OpContext, request: RefRequest, commit: string): Promise<'applied' | DocDbError | undefined> {
    try {
      const res = await this.deps.client.send(ctx, { ...request, retry: false, accept: [422] });
      if (res.status === 422) return undefined;
      await this.deps.cache.setRefTip(this.deps.ref, ctx.tokenId, { sha: commit });
      this.deps.tips.saw(ctx.tokenId, commit);
      return 'applied';
    } catch (e) {
      if (!(e instanceof TransportError || e instanceof UpstreamUnavailable)) throw e;
      this.deps.cfg.logger?.({
        level: 'warn',
        message: `${ctx.operation}: no reply to the ref update; re-reading ${this.deps.ref}`,
        data: { commit },
      });
      return e;
    }
  }

  /**
   * A plain lost race: one compare against the ref name tells the new tip and what it changed (instead of
   * a ref read, then the new tip's commit and tree levels). Undefined when the compare is unusable.
   */
  private async lostRace(ctx: OpContext, parent: string, touchedBy: TouchedBy): Promise<Caught | undefined> {
    const caught = await this.deps.catchUp.from(ctx, parent, `refs/${this.deps.path}`, touchedBy);
    if (!caught) return undefined;
    await this.deps.cache.setRefTip(this.deps.ref, ctx.tokenId, { sha: caught.commit.sha });
    this.deps.tips.saw(ctx.tokenId, caught.commit.sha);
    return caught;
  }

  /** Read the ref after an attempt; after a lost reply, keep trying while the write's retry budget lasts. */
  private async reread(ctx: OpContext, commit: string, lost: number, retry?: WriteRetry): Promise<string | null> {
    for (let reread = 0; ; reread++) {
      try {
        return await this.deps.readRef(ctx);
      } catch (e) {
        if (lost === 0) throw e;
        // The outcome is knowable as soon as the ref can be read: keep trying (backing off) while the
        // write's retry budget lasts, rather than report "unknown" after one failed read.
        const transient = e instanceof TransportError || e instanceof UpstreamUnavailable;
        if (transient && retry?.withinBudget() && reread < MAX_REREADS_AFTER_LOST_REPLY) {
          await this.deps.cfg.sleep(this.deps.client.backoffMs(Math.min(reread, 4)));
          continue;
        }
        throw new TransportError(
          `${ctx.operation}: the ref update got no reply and re-reading ${this.deps.ref} failed; the write of ${commit} may or may not have been applied`,
          { operation: ctx.operation, commit, outcome: 'unknown' },
          { cause: e },
        );
      }
    }
  }

  /**
   * The ref did not move: a 422 then is a reply GitHub does not give; a lost reply is sent again after a
   * backoff, until `readRetries` replies were lost.
   */
  private async sendAgain(ctx: OpContext, step: string, noReply: DocDbError | undefined, lost: number): Promise<void> {
    if (!noReply) {
      throw new InvalidResponse(
        `${ctx.operation}: ${step} ${this.deps.ref} was rejected (HTTP 422) although the ref did not move`,
        { operation: ctx.operation, step, status: 422 },
      );
    }
    if (lost > this.deps.cfg.readRetries) throw noReply;
    await this.deps.cfg.sleep(this.deps.client.backoffMs(lost - 1));
  }

  /**
   * After a lost reply, whether our commit is below the new tip; a failure to tell leaves the write's
   * outcome unknown (never "not applied": the lost update may have landed).
   */
  private async landedBelow(ctx: OpContext, tip: string, commit: string, parent: string | null): Promise<boolean> {
    try {
      return await this.descendsFrom(ctx, tip, commit, parent);
    } catch (e) {
      throw new TransportError(
        `${ctx.operation}: the ref update got no reply and ${this.deps.ref} has moved on; whether the write of ${commit} is below the new tip could not be read`,
        { operation: ctx.operation, commit, outcome: 'unknown' },
        { cause: e },
      );
    }
  }

  /**
   * True when `ancestor` is in the history of `tip` (docdb's history is linear): one compare at any
   * distance; if its answer is unusable, a walk of first parents that stops at `stop` (the commit
   * `ancestor` was built on: reaching it first means `ancestor` is not there) or after 20 commits.
   */
  private async descendsFrom(ctx: OpContext, tip: string, ancestor: string, stop: string | null): Promise<boolean> {
    const answer = await reachesBack(this.deps.client, ctx, ancestor, tip);
    if (answer !== undefined) return answer;
    let sha: string | undefined = tip;
    for (let i = 0; i < MAX_PARENTS_WALKED && sha !== undefined && sha !== stop; i++) {
      if (sha === ancestor) return true;
      sha = (await this.deps.getCommit(ctx, sha)).parents[0];
    }
    return false;
  }
}
