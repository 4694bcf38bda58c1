/**
 * Contention with injected faults (issue 12 §1): 15 % of requests fail (half before reaching the
 * emulator, half after it ran with the reply lost). Every write either succeeds — and its commit is in
 * the section's history — or fails with a typed error; none is reported `outcome: "unknown"` (the ref
 * could always be re-read), and no reported success is missing from the history.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DocDbError } from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { fetchTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulator, freshRepo, OWNER, store } from './helpers.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator({ latencyMs: { min: 0, max: 2 } });
});
afterAll(async () => {
  await em?.stop();
});

/** Deterministic faults: `rate` of requests reset before sending or lose their reply after. */
function faulty(seed: number, rate: number): HttpTransport {
  const inner = fetchTransport({ timeoutMs: 10_000 });
  let x = seed;
  const rnd = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  return {
    async request(req) {
      const r = rnd();
      if (r < rate / 2) throw new TypeError('fetch failed (injected reset)');
      const res = await inner.request(req);
      if (r < rate) throw new TypeError('fetch failed (injected lost reply)');
      return res;
    },
  };
}

it('4 writers × 8 puts with 15 % faults: successes all in history, failures typed, none "unknown"', async () => {
  const repo = freshRepo(em);
  await store(em, repo).put('seed.json', '0');
  const outcomes = await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      const s = store(em, repo, {
        transport: faulty(1000 + w, 0.15),
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
        writeBackoffBaseMs: 2,
      });
      const out: { key: string; version?: string; error?: unknown }[] = [];
      for (let i = 0; i < 8; i++) {
        const key = `k/w${w}-${i}.json`;
        try {
          out.push({ key, version: (await s.put(key, `${w}-${i}`)).version ?? undefined });
        } catch (error) {
          out.push({ key, error });
        }
      }
      return out;
    }),
  );
  const all = outcomes.flat();
  const db = em.state.repo(`${OWNER}/${repo}`).db;
  const history = new Set<string>();
  for (let sha = db.readRef('refs/docdb/documents'); sha; sha = db.getCommit(sha).parents[0]) history.add(sha);
  const tipKeys = new Set(db.flattenTree(db.getCommit(db.readRef('refs/docdb/documents')!).tree).map((e) => e.path));
  for (const o of all) {
    if (o.error === undefined) {
      expect(history.has(o.version!), `${o.key} reported landed at ${o.version}`).toBe(true);
      expect(tipKeys.has(o.key)).toBe(true);
    } else {
      expect(o.error).toBeInstanceOf(DocDbError);
      expect((o.error as DocDbError).data.outcome, (o.error as Error).message).not.toBe('unknown');
      // Not applied: a failed write left nothing behind.
      expect(tipKeys.has(o.key), `${o.key} failed but is in the tip`).toBe(false);
    }
  }
  expect(all.filter((o) => o.error === undefined).length).toBeGreaterThan(all.length / 2);
});
