/**
 * The one policy for retrying a write that lost a fast-forward race (every store that retries uses
 * it): full-jitter exponential backoff, bounded by a budget in TIME rather than a small count.
 *
 * Why time: with N writers on one section, a writer may lose up to N-1 races in a row through no
 * fault of its own; a count of 5 fails the 7th of 8 concurrent CI jobs, while 60 s lets every one of
 * them land. Why full jitter (delay = random × min(cap, base × 2^attempt)): it spreads losers out the
 * most, so the next round has the fewest collisions (AWS Architecture Blog, "Exponential Backoff And
 * Jitter"). GitHub asks integrators to serialise writes and back off
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api).
 * See docs/decisions.md ("Write retries under contention") for the trade-off.
 */
import { InvalidConfig } from './errors.js';

/** Default upper bound on retries after lost races; the time budget normally ends retrying first. */
export const DEFAULT_RETRY_CONCURRENT_WRITES = 100;
/** Default time a write keeps retrying after lost races, in milliseconds (from its first attempt). */
export const DEFAULT_WRITE_RETRY_BUDGET_MS = 60_000;
/** Default base of the exponential backoff between retries, in milliseconds (first retry waits < 200 ms). */
export const DEFAULT_WRITE_BACKOFF_BASE_MS = 100;
/** Longest single wait between retries, in milliseconds. */
export const WRITE_BACKOFF_CAP_MS = 2_000;

/** Options every retrying store accepts (validated by {@link resolveWriteRetry}). */
export interface WriteRetryOptions {
  /** Most retries after lost fast-forward races before `ConcurrentUpdate` (default 100; 0 = never retry). */
  retryConcurrentWrites?: number;
  /** Time budget for those retries in ms, counted from the write's first attempt (default 60,000). */
  writeRetryBudgetMs?: number;
  /** Base of the full-jitter exponential backoff in ms (default 100; the cap is 2,000). */
  writeBackoffBaseMs?: number;
}

export interface WriteRetryPolicy {
  maxRetries: number;
  budgetMs: number;
  baseMs: number;
  capMs: number;
}

function check(field: string, v: unknown, def: number, max: number): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
    throw new InvalidConfig(field, `${field} must be an integer from 0 to ${max}, got ${JSON.stringify(v)}`, {
      allowed: `integer 0..${max}`,
    });
  }
  return v;
}

/**
 * Validate the retry options (`InvalidConfig` naming the field) and fill in defaults.
 *
 * @example
 * resolveWriteRetry({ writeRetryBudgetMs: 10_000 }) // { maxRetries: 100, budgetMs: 10000, baseMs: 100, capMs: 2000 }
 */
export function resolveWriteRetry(o: WriteRetryOptions): WriteRetryPolicy {
  return {
    maxRetries: check('retryConcurrentWrites', o.retryConcurrentWrites, DEFAULT_RETRY_CONCURRENT_WRITES, 1000),
    budgetMs: check('writeRetryBudgetMs', o.writeRetryBudgetMs, DEFAULT_WRITE_RETRY_BUDGET_MS, 3_600_000),
    baseMs: check('writeBackoffBaseMs', o.writeBackoffBaseMs, DEFAULT_WRITE_BACKOFF_BASE_MS, 60_000),
    capMs: WRITE_BACKOFF_CAP_MS,
  };
}

/**
 * Full-jitter exponential delay for retry number `attempt` (1-based): uniform in
 * [0, min(cap, base × 2^attempt)).
 *
 * @example
 * fullJitterDelay(3, { baseMs: 100, capMs: 2000 }, () => 0.5) // 400
 */
export function fullJitterDelay(attempt: number, p: Pick<WriteRetryPolicy, 'baseMs' | 'capMs'>, random: () => number) {
  const ceiling = Math.min(p.capMs, p.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * One write's retry state: `next()` returns the wait before the next retry, or `null` when the retry
 * count or the time budget is spent (then the caller throws `ConcurrentUpdate`).
 *
 * @example
 * const retry = new WriteRetry(resolveWriteRetry({}));
 * const wait = retry.next(); // a number of ms, or null: give up
 */
export class WriteRetry {
  private readonly started: number;
  /** Retries granted so far. */
  retries = 0;

  constructor(
    private readonly policy: WriteRetryPolicy,
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Milliseconds since the write started. */
  elapsed(): number {
    return this.now() - this.started;
  }

  /** True while the time budget has not run out (used to keep re-reading a ref after a lost reply). */
  withinBudget(): boolean {
    return this.elapsed() < this.policy.budgetMs;
  }

  next(): number | null {
    if (this.retries >= this.policy.maxRetries) return null;
    const delay = fullJitterDelay(this.retries + 1, this.policy, this.random);
    if (this.elapsed() + delay > this.policy.budgetMs) return null;
    this.retries++;
    return delay;
  }
}
