/**
 * A virtual clock for runs against the in-process emulator (bench/secondary-limits.ts and the pacing
 * tests): time moves only when someone sleeps and no request is in flight. Sleepers wake one at a time,
 * earliest deadline first, with the clock at their deadline — as if every request and computation took no
 * time — so an hour of GitHub's rate-limit windows passes in seconds, nothing waits for real, and a
 * request sent too early is sent at a time the emulator can see is inside the window it announced.
 */
import type { HttpTransport } from '../src/transport/types.js';

export interface VirtualClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Wrap a transport so the clock knows when requests are in flight. */
  track(inner: HttpTransport): HttpTransport;
  /** Wrap a fetch function likewise. */
  trackFetch(inner: typeof globalThis.fetch): typeof globalThis.fetch;
}

/**
 * @example
 * const clock = virtualClock(Date.UTC(2026, 10, 27));
 * const app = createEmulatorApp({ now: clock.now, secondaryLimits: true });
 * const store = new RemoteApiRefStore({ transport: clock.track(fetchTransport({ fetch: app.fetchFunction })), now: clock.now, sleep: clock.sleep, … });
 */
export function virtualClock(start: number): VirtualClock {
  let t = start;
  const sleepers: { until: number; wake: () => void }[] = [];
  let inFlight = 0;
  let pumping = false;
  const pump = () => {
    if (pumping) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      if (sleepers.length === 0) return;
      if (inFlight > 0) return pump();
      sleepers.sort((a, b) => a.until - b.until);
      const first = sleepers.shift() as { until: number; wake: () => void };
      t = Math.max(t, first.until);
      first.wake();
      pump();
    });
  };
  const during = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await work();
    } finally {
      inFlight--;
    }
  };
  return {
    now: () => t,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        sleepers.push({ until: t + ms, wake });
        pump();
      }),
    track: (inner) => ({ request: (req) => during(() => inner.request(req)) }),
    trackFetch: (inner) => ((input, init) => during(() => inner(input, init))) as typeof globalThis.fetch,
  };
}
