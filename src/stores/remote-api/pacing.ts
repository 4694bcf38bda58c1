/**
 * Pacing the requests of every remote-api store of a process as GitHub asks
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api,
 * https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits):
 * - after a rate-limit answer, no request is sent before the window ends: `retry-after` seconds; with
 *   `x-ratelimit-remaining: 0`, until `x-ratelimit-reset`; otherwise at least a minute, doubling while
 *   the answers keep coming. One "not before" gate per (API origin, token identity) (core/rate-gate.ts)
 *   is shared by every store of the process, and closed too by the Octokit instances of createOctokit
 *   when their throttling meets a limit, so one answer holds back every store that uses the token;
 * - mutating requests are sent one at a time, `mutationSpacingMs` apart (default 1 s for GitHub's own
 *   API origins, 0 — no pacing — elsewhere: GitHub Enterprise Server has its limits off by default, the
 *   emulator and tests set their own).
 * A wait longer than `maxRetryAfterSeconds` is not sat out: the request is not sent and the operation
 * fails with `RateLimited` whose data says when to retry (`retryAfter` seconds, `retryAt` ISO time).
 * The clock and sleep are the store's (injectable), so tests never wait.
 */
import { type ErrorData, InvalidConfig, RateLimited } from '../../core/errors.js';
import { closeRateGate, rateGate } from '../../core/rate-gate.js';

/** A rate-limit answer, as status.ts reads it. */
export interface LimitWindow {
  kind: 'primary' | 'secondary';
  /** `retry-after` in seconds, when the answer gave one. */
  retryAfter?: number;
  /** `x-ratelimit-reset` (epoch seconds) of an exhausted primary budget. */
  reset?: number;
}

/** GitHub's fallback when a secondary limit gives no end: wait at least a minute, then back off exponentially. */
const UNKNOWN_END_MS = 60_000;
/** Longest fallback wait (the 6th consecutive answer without an end waits an hour). */
const UNKNOWN_END_CAP_MS = 3_600_000;
/** Default spacing of mutating requests to GitHub's own API origins: "wait at least one second". */
export const GITHUB_MUTATION_SPACING_MS = 1000;

/** What an operation remembers of the gate: the closing it already waited for, and how long it waited. */
export interface PacedOperation {
  tokenId: string;
  operation: string;
  gateServed?: number;
  /** Milliseconds this operation spent waiting for rate limits (excluded from its write retry budget). */
  rateWaitMs?: number;
}

/** Where a request goes, for messages. */
export interface RequestName {
  step: string;
  method: string;
  path: string;
}

export interface PacerConfig {
  apiOrigin: string;
  mutationSpacingMs: number;
  maxRetryAfterSeconds: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** The store's diagnostics sink (its RemoteApiLogEvent). */
  logger:
    | ((event: { level: 'debug' | 'info' | 'warn'; message: string; data?: Record<string, unknown> }) => void)
    | undefined;
}

/**
 * `mutationSpacingMs`: an integer from 0 to 60,000, or by default 1,000 for GitHub's API origins
 * (api.github.com, api.SUBDOMAIN.ghe.com) and 0 elsewhere.
 *
 * @example
 * resolveMutationSpacing(undefined, 'https://api.github.com'); // 1000
 * resolveMutationSpacing(0, 'https://api.github.com'); // 0
 */
export function resolveMutationSpacing(v: unknown, apiOrigin: string): number {
  if (v === undefined) return isGitHubApiOrigin(apiOrigin) ? GITHUB_MUTATION_SPACING_MS : 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 60_000) {
    throw new InvalidConfig(
      'mutationSpacingMs',
      `mutationSpacingMs must be an integer from 0 to 60000, got ${JSON.stringify(v)}`,
      {
        allowed: 'integer 0..60000 (default 1000 for api.github.com, 0 elsewhere)',
      },
    );
  }
  return v;
}

function isGitHubApiOrigin(origin: string): boolean {
  return origin === 'https://api.github.com' || /^https:\/\/api\.[a-z0-9-]+\.ghe\.com$/i.test(origin);
}

/**
 * The store's side of the shared gates: wait before a request, take a turn for a mutating one, close
 * the gate on a rate-limit answer.
 *
 * @example
 * const pacer = new Pacer(cfg);
 * const release = await pacer.turn(ctx, true); // one mutating request at a time, spaced
 * try { await pacer.waitForGate(ctx, name); send(); } finally { release(); }
 */
export class Pacer {
  constructor(private readonly cfg: PacerConfig) {}

  /**
   * Wait until the gate of the operation's token opens (once per closing); a wait longer than
   * `maxRetryAfterSeconds` throws `RateLimited` instead, with nothing sent.
   */
  async waitForGate(ctx: PacedOperation, name: RequestName): Promise<void> {
    const gate = rateGate(this.cfg.apiOrigin, ctx.tokenId);
    for (;;) {
      const wait = gate.notBefore - this.cfg.now();
      if (wait <= 0 || ctx.gateServed === gate.generation) return;
      if (wait > this.cfg.maxRetryAfterSeconds * 1000) throw this.notSent(ctx, name, gate.notBefore);
      const generation = gate.generation;
      this.cfg.logger?.({
        level: 'warn',
        message: `${name.step}: waiting ${wait} ms for the rate limit of this token to pass`,
        data: { path: name.path, wait },
      });
      await this.waited(ctx, wait);
      ctx.gateServed = generation;
    }
  }

  /** A turn in the write lane: mutating requests one at a time, `mutationSpacingMs` apart. */
  async turn(ctx: PacedOperation, mutates: boolean): Promise<() => void> {
    const spacing = this.cfg.mutationSpacingMs;
    if (!mutates || spacing === 0) return () => {};
    const gate = rateGate(this.cfg.apiOrigin, ctx.tokenId);
    const before = gate.lane;
    let release!: () => void;
    gate.lane = new Promise<void>((r) => {
      release = r;
    });
    try {
      await before;
      const wait = gate.lastMutationAt + spacing - this.cfg.now();
      if (wait > 0) await this.cfg.sleep(wait);
    } catch (e) {
      release(); // the lane must never stay taken
      throw e;
    }
    gate.lastMutationAt = this.cfg.now();
    return release;
  }

  /**
   * Close the gate after a rate-limit answer; the seconds to wait. The operation that got the answer
   * counts the closing as its own (it waits, or fails, itself).
   */
  close(ctx: PacedOperation, window: LimitWindow): number {
    const gate = rateGate(this.cfg.apiOrigin, ctx.tokenId);
    const now = this.cfg.now();
    let until: number;
    if (window.retryAfter !== undefined) until = now + window.retryAfter * 1000;
    else if (window.kind === 'primary' && window.reset !== undefined) until = window.reset * 1000;
    else until = now + Math.min(UNKNOWN_END_CAP_MS, UNKNOWN_END_MS * 2 ** gate.unknownStreak++);
    ctx.gateServed = closeRateGate(gate, until);
    return Math.max(0, Math.ceil((gate.notBefore - now) / 1000));
  }

  /** An answer that is not a rate limit: the fallback wait starts again from a minute. */
  opened(ctx: PacedOperation): void {
    rateGate(this.cfg.apiOrigin, ctx.tokenId).unknownStreak = 0;
  }

  /** Sleep for a rate limit, counted as the operation's waiting time. */
  async waited(ctx: PacedOperation, ms: number): Promise<void> {
    await this.cfg.sleep(ms);
    ctx.rateWaitMs = (ctx.rateWaitMs ?? 0) + ms;
  }

  /** When to retry, for a `RateLimited` raised on an answer: `retryAfter` seconds and `retryAt`. */
  retryData(ctx: PacedOperation): ErrorData {
    const gate = rateGate(this.cfg.apiOrigin, ctx.tokenId);
    const now = this.cfg.now();
    const at = Math.max(now, gate.notBefore);
    return { retryAfter: Math.ceil((at - now) / 1000), retryAt: new Date(at).toISOString() };
  }

  private notSent(ctx: PacedOperation, name: RequestName, notBefore: number): RateLimited {
    const retryAfter = Math.ceil((notBefore - this.cfg.now()) / 1000);
    const retryAt = new Date(notBefore).toISOString();
    return new RateLimited(
      `${ctx.operation}: ${name.step} (${name.method} ${name.path}) was not sent: GitHub asked this token to wait until ${retryAt} (${retryAfter} s), longer than maxRetryAfterSeconds (${this.cfg.maxRetryAfterSeconds} s). Retry after ${retryAt}.`,
      {
        operation: ctx.operation,
        step: name.step,
        method: name.method,
        path: name.path,
        retryAfter,
        retryAt,
        sent: false,
      },
    );
  }
}
