/**
 * Pacing of content-creating requests within a host's limits. GitHub: "no more than 80
 * content-generating requests per minute and no more than 500 per hour" (docs: "Rate limits for the REST
 * API" → secondary rate limits). A sliding window over the times of the requests already sent; the clock
 * and the wait are injected, so tests never depend on elapsed time.
 */
import { InvalidConfig } from '../core/errors.js';

export interface PacingLimits {
  perMinute: number;
  perHour: number;
}

/** GitHub's content-creation limits. */
export const GITHUB_CONTENT_LIMITS: PacingLimits = { perMinute: 80, perHour: 500 };

const WINDOWS = [
  { key: 'perMinute', ms: 60_000 },
  { key: 'perHour', ms: 3_600_000 },
] as const;

/**
 * A `pace()` to await before each content-creating request.
 *
 * @example
 * const pace = pacer(GITHUB_CONTENT_LIMITS, Date.now, (ms) => new Promise((r) => setTimeout(r, ms)));
 * await pace(); // returns at once until 80 requests were paced within a minute
 */
export function pacer(
  limits: PacingLimits,
  now: () => number,
  sleep: (ms: number) => Promise<void>,
): () => Promise<void> {
  for (const { key } of WINDOWS) {
    if (!Number.isInteger(limits[key]) || limits[key] < 1) {
      throw new InvalidConfig(`pacing.${key}`, `pacing.${key} must be an integer >= 1 (got ${String(limits[key])})`, {
        allowed: 'integer >= 1',
      });
    }
  }
  const sent: number[] = [];
  return async () => {
    for (;;) {
      const t = now();
      while (sent.length > 0 && (sent[0] as number) <= t - 3_600_000) sent.shift();
      const wait = Math.max(
        0,
        ...WINDOWS.map(({ key, ms }) => {
          const inWindow = sent.filter((s) => s > t - ms);
          return inWindow.length < limits[key] ? 0 : (inWindow[inWindow.length - limits[key]] as number) + ms - t;
        }),
      );
      if (wait === 0) break;
      await sleep(wait);
    }
    sent.push(now());
  };
}
