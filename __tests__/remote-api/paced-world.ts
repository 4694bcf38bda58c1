/**
 * A world for pacing tests: the emulator in process (no socket) with GitHub's secondary limits on, and
 * stores that share its virtual clock (bench/virtual-clock.ts: time moves only when someone sleeps and
 * nothing is in flight, so nothing waits for real).
 */
import { virtualClock } from '../../bench/virtual-clock.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { createEmulatorApp, type EmulatorApp, type SecondaryLimitFigures } from '../../src/emulator/index.js';
import type { RemoteApiRefStoreOptions } from '../../src/stores/remote-api/config.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { untimedFetch } from './helpers.js';

let worlds = 0;

export const seeded = seededRandom;

export interface PacedWorld {
  app: EmulatorApp;
  /** The token every store of the world uses (unique per world: pacing gates are per token). */
  token: string;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Every request a store sent: its method, path and the clock when it was sent. */
  sent: { method: string; path: string; at: number }[];
  /** Most mutating requests in flight at once. */
  maxMutatingInFlight: number;
  store(extra?: Partial<RemoteApiRefStoreOptions>): RemoteApiRefStore;
  /** A store with another token (its own limits and gate), to check what the writers left. */
  reader(): RemoteApiRefStore;
}

/**
 * @example
 * const w = pacedWorld({ contentPerMinute: 3 });
 * await w.store().put('a.json', '1');
 */
export function pacedWorld(limits: boolean | Partial<SecondaryLimitFigures> = true): PacedWorld {
  const n = ++worlds;
  const clock = virtualClock(Date.UTC(2026, 10, 27, 12, 0, 0));
  const { now, sleep } = clock;
  const app = createEmulatorApp({ now, secondaryLimits: limits });
  const token = `ghp_paced${String(n).padStart(31, '0')}`;
  app.state.createRepo('octo/data');
  app.state.addToken(token, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  app.state.addToken(`${token}r`, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  // No request timer: the clock is virtual, and a real-time timer would only fire on a busy machine.
  const inner = clock.track(untimedFetch({ fetch: app.fetchFunction }));
  const world: PacedWorld = {
    app,
    token,
    now,
    sleep,
    sent: [],
    maxMutatingInFlight: 0,
    store: (extra = {}) =>
      new RemoteApiRefStore({
        transport,
        apiUrl: 'http://127.0.0.1:9',
        owner: 'octo',
        repo: 'data',
        token,
        now,
        sleep,
        mutationSpacingMs: 0,
        ...extra,
      }),
    reader: () => world.store({ token: `${token}r` }),
  };
  let mutating = 0;
  const transport: HttpTransport = {
    async request(req) {
      const mutates = req.method !== 'GET' && !req.url.endsWith('/graphql');
      world.sent.push({ method: req.method, path: new URL(req.url).pathname, at: now() });
      if (mutates) world.maxMutatingInFlight = Math.max(world.maxMutatingInFlight, ++mutating);
      try {
        return await inner.request(req);
      } finally {
        if (mutates) mutating--;
      }
    },
  };
  return world;
}
