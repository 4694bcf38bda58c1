/**
 * Ref tips this store learned itself (its ref reads and its own writes), with when, per token identity.
 * By default (`trustCachedTipMs: 0`) no tip is ever trusted: every write confirms its tip with the
 * conditional ref read (a 304 when unchanged), so request counts never depend on the clock. With the
 * option set, a tip seen within that many ms is written on without the ref read — at the price of an
 * orphan commit, a rejected update and a rebase when another writer moved it meanwhile.
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

  /** True when trusting is on and this store saw the ref at `sha` (null: absent) within `trustCachedTipMs`. */
  recentlySeen(tokenId: string, sha: string | null): boolean {
    if (this.cfg.trustCachedTipMs <= 0) return false; // the default: never trust, never read the clock
    const seen = this.seen.get(tokenId);
    return seen !== undefined && seen.sha === sha && this.cfg.now() - seen.at <= this.cfg.trustCachedTipMs;
  }
}
