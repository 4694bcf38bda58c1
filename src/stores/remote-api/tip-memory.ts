/**
 * Ref tips this store learned itself (its ref reads and its own writes), with when, per token identity.
 * A write trusts such a tip for `trustCachedTipMs` and skips the ref read; an older cached tip is
 * confirmed first (a 304 when unchanged), because building on a stale tip costs an orphan commit, a
 * rejected update and a rebase.
 */
import type { ResolvedConfig } from './config.js';

/**
 * @example
 * const tips = new TipMemory(cfg);
 * tips.saw(ctx.tokenId, sha);
 * if (tips.recentlySeen(ctx.tokenId, cached.sha)) buildOn(cached.sha); // no ref read
 */
export class TipMemory {
  private readonly seen = new Map<string, { sha: string | null; at: number }>();

  constructor(private readonly cfg: Pick<ResolvedConfig, 'now' | 'trustCachedTipMs'>) {}

  /** `sha` null: the ref was seen absent (a write right after then creates it without reading it again). */
  saw(tokenId: string, sha: string | null): void {
    this.seen.set(tokenId, { sha, at: this.cfg.now() });
  }

  /** True when this store saw the ref at `sha` (null: absent) within `trustCachedTipMs`. */
  recentlySeen(tokenId: string, sha: string | null): boolean {
    const seen = this.seen.get(tokenId);
    return seen !== undefined && seen.sha === sha && this.cfg.now() - seen.at <= this.cfg.trustCachedTipMs;
  }
}
