/** The pacer keeps content-creating requests within per-minute and per-hour limits, on an injected clock. */
import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../src/core/errors.js';
import { pacer } from '../../src/retention/index.js';

function fakeTime() {
  let t = 0;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
    slept,
  };
}

/** The most calls within any window of `ms` (calls at `times`). */
function busiest(times: number[], ms: number): number {
  return Math.max(...times.map((s) => times.filter((x) => x >= s && x < s + ms).length));
}

describe('pacer', () => {
  it('never lets more than perMinute calls into a minute, nor perHour into an hour', async () => {
    const clock = fakeTime();
    const pace = pacer({ perMinute: 5, perHour: 12 }, clock.now, clock.sleep);
    const at: number[] = [];
    for (let i = 0; i < 30; i++) {
      await pace();
      at.push(clock.now());
    }
    expect(busiest(at, 60_000)).toBe(5);
    expect(busiest(at, 3_600_000)).toBe(12);
    // Calls 1–12 in the first hour (5 at 0, 5 at 1 min, 2 at 2 min), 13–24 from 1 h on, 25–29 at 2 h and
    // the 30th a minute later: the minute limit holds inside each hour too.
    expect(at[29]! - at[0]!).toBe(2 * 3_600_000 + 60_000);
  });

  it('does not wait while under the limits', async () => {
    const clock = fakeTime();
    const pace = pacer({ perMinute: 80, perHour: 500 }, clock.now, clock.sleep);
    for (let i = 0; i < 80; i++) await pace();
    expect(clock.slept).toEqual([]);
    await pace();
    expect(clock.slept).toEqual([60_000]);
  });

  it('refuses limits that are not positive integers', () => {
    const clock = fakeTime();
    expect(() => pacer({ perMinute: 0, perHour: 500 }, clock.now, clock.sleep)).toThrow(InvalidConfig);
    expect(() => pacer({ perMinute: 80, perHour: 1.5 }, clock.now, clock.sleep)).toThrow(/pacing.perHour/);
  });
});
