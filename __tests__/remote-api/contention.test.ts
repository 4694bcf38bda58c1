/**
 * Bounded contention stress (issue 12 §1): many store instances writing one section with the DEFAULT
 * retry policy (only the backoff base is shortened so the test runs in seconds) — every write lands,
 * and each retry costs a bounded, counted number of requests with no blob re-upload. The full
 * 16 × 50 figures are in bench/contention.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { emulator, freshRepo, OWNER, store } from './helpers.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator({ latencyMs: { min: 0, max: 2 } });
});
afterAll(async () => {
  await em?.stop();
});

it('8 instances × 10 puts on one section: 80/80 land, history complete, each retry ≤ 4 requests, no blob re-upload', async () => {
  const repo = freshRepo(em);
  await store(em, repo).put('seed.json', '0');
  const W = 8;
  const N = 10;
  const from = em.requests.length;
  const perWrite = await Promise.all(
    Array.from({ length: W }, async (_, w) => {
      let retries = 0;
      const s = store(em, repo, {
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        writeBackoffBaseMs: 5,
        logger: (e) => {
          // Every lost fast-forward, whether a race on a confirmed tip or a cached tip gone stale.
          if (e.message.includes('retrying on the new tip') || e.message.includes('was stale')) retries++;
        },
      });
      const out: { requests: number; retries: number; changed: boolean }[] = [];
      for (let i = 0; i < N; i++) {
        retries = 0;
        // Binary values (a NUL byte) go up as blobs: a retry must name the blob by SHA, not upload it again.
        const value = i % 2 === 0 ? `${w}-${i}` : new Uint8Array([w, i, 0]);
        const r = await s.put(`k/w${w}-${i}.json`, value);
        out.push({ requests: r.requests ?? 0, retries, changed: r.changed });
      }
      return out;
    }),
  );
  const all = perWrite.flat();
  expect(all.every((r) => r.changed)).toBe(true);
  const reader = store(em, repo);
  expect((await reader.list({ prefix: 'k/' })).entries).toHaveLength(W * N);
  // Linear history: seed + one commit per write.
  const db = em.state.repo(`${OWNER}/${repo}`).db;
  let commits = 0;
  for (let sha = db.readRef('refs/docdb/documents'); sha; sha = db.getCommit(sha).parents[0]) commits++;
  expect(commits).toBe(1 + W * N);
  // There was contention, and every retry stayed within its request budget: one compare against the ref
  // name (the new tip, its tree and what changed), create tree, create commit, update ref. The first
  // attempt costs at most 6 (a cold instance: ref, commit, tree, create tree, commit, ref update).
  const retried = all.filter((r) => r.retries > 0);
  expect(retried.length).toBeGreaterThan(0);
  for (const r of all) {
    const blob = r.requests > 0 ? 1 : 0; // at most one blob upload per write (odd i), never per retry
    expect(r.requests).toBeLessThanOrEqual(6 + blob + r.retries * 4);
  }
  const log = em.requests.slice(from);
  const blobs = log.filter((q) => q.operation === 'git/create-blob').length;
  expect(blobs).toBe(W * (N / 2));
});
