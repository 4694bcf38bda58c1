/**
 * compactSection against the emulator (GitHub's API): the request budget, pacing, a host without
 * updateRefs, a token that may not write. Eight writers landing mid-compaction, on every backend:
 * compact-writers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Forbidden, InvalidConfig, NotFound } from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { compactSection } from '../../src/retention/index.js';
import { emulator, freshRepo, OWNER, store as remoteStore, since } from '../remote-api/helpers.js';

const REF = 'refs/docdb/documents';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator();
});
afterAll(async () => {
  await em?.stop();
});

/** A section of `n` commits written straight into the emulator's state (no requests). */
function seeded(n: number): string {
  const repo = freshRepo(em);
  for (let i = 0; i < n; i++) {
    em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: REF,
      orphan: i === 0,
      files: { [`log/${i}.json`]: `{"i":${i}}`, 'state.json': `{"n":${i}}` },
      message: `run ${i}`,
    });
  }
  return repo;
}

const treeOf = (repo: string, sha: string) => em.state.repo(`${OWNER}/${repo}`).db.getCommit(sha).tree;

describe('compactSection on GitHub (emulator)', () => {
  it('keeping k commits costs ≤ k + 10 requests: ⌈(k+1)/100⌉ listing pages, k commits, 1 id query, 1 updateRefs', async () => {
    const repo = seeded(200);
    const store = remoteStore(em, repo, { ref: REF, author: { name: 'Compactor', email: 'c@example.com' } });
    const start = em.requests.length;
    const r = await compactSection(store, { keepCommits: 150 }, { pacing: false });
    const sent = since(em, start).map((q) => `${q.method} ${q.operation}`);
    expect(sent.length).toBeLessThanOrEqual(150 + 10);
    expect(sent.filter((s) => s === 'GET repos/list-commits')).toHaveLength(2);
    expect(sent.filter((s) => s === 'POST git/create-commit')).toHaveLength(150);
    expect(sent.filter((s) => s === 'POST graphql')).toHaveLength(2);
    expect(sent).toHaveLength(154);
    expect(r.requests).toBe(154);
    const after = (await store.commits()).entries;
    expect(after).toHaveLength(150);
    for (const [original, now] of Object.entries(r.replaced)) expect(treeOf(repo, now)).toBe(treeOf(repo, original));
  });

  it('a dry run lists the section and writes nothing; its plan is what the compaction then takes', async () => {
    const repo = seeded(250);
    const store = remoteStore(em, repo, { ref: REF });
    const tip = em.state.repo(`${OWNER}/${repo}`).db.readRef(REF);
    const db = em.state.repo(`${OWNER}/${repo}`).db;
    const versions: string[] = [];
    for (let c = tip; c; c = db.getCommit(c).parents[0]) versions.push(c);
    let start = em.requests.length;
    const dry = await compactSection(store, { keepCommits: 100 }, { dryRun: true });
    // Only the listing (3 pages of 100: all 250, to count them), no write of any kind.
    expect(since(em, start).map((q) => `${q.method} ${q.operation}`)).toEqual(Array(3).fill('GET repos/list-commits'));
    expect(em.state.repo(`${OWNER}/${repo}`).db.readRef(REF)).toBe(tip);
    expect(dry).toMatchObject({ dryRun: true, compacted: false, version: tip, kept: 100, removed: 150, requests: 3 });
    expect(dry.plan).toMatchObject({
      listed: 250,
      kept: 100,
      removed: 150,
      oldestKept: { version: versions[99] },
      // The compaction lists 101 (2 pages), creates 100 commits, asks the id and moves: 104, 101 of them
      // content-creating; at 80 a minute the 81st waits for the minute to pass.
      githubRequests: 104,
      contentCreating: 101,
      pacedMs: 60_000,
    });
    start = em.requests.length;
    const real = await compactSection(store, { keepCommits: 100 }, { pacing: false });
    expect(real.requests).toBe(dry.plan.githubRequests);
    expect(since(em, start)).toHaveLength(dry.plan.githubRequests);
    expect(real.removed).toBeNull(); // keepCommits alone lists only 101: not counted...
    const counted = remoteStore(em, seeded(150), { ref: REF });
    const again = await compactSection(counted, { keepCommits: 20 }, { pacing: false, count: true });
    expect(again).toMatchObject({ compacted: true, removed: 130, requests: 2 + 20 + 2 }); // ...unless asked
  });

  it('paces commit creation within 80 a minute on the injected clock (no real waiting)', async () => {
    const repo = seeded(120);
    const store = remoteStore(em, repo, { ref: REF });
    let t = 0;
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
      t += ms;
    };
    const r = await compactSection(store, { keepCommits: 100 }, { now: () => t, sleep });
    expect(r.compacted).toBe(true);
    // 101 content-creating requests (100 commits + the move): the 81st waited for the minute to pass.
    expect(slept).toEqual([60_000]);
  });

  it('a host without updateRefs: refused (never a blind force), the section untouched', async () => {
    const old = await emulator({ graphqlUpdateRefs: false });
    try {
      const repo = freshRepo(old);
      const store = remoteStore(old, repo, { ref: REF });
      for (let i = 0; i < 3; i++) await store.put('a.json', String(i));
      const tip = await store.head();
      const start = old.requests.length;
      const e = await compactSection(store, { keepCommits: 1 }, { pacing: false }).catch((x) => x);
      expect(e).toBeInstanceOf(InvalidConfig);
      expect(e.message).toMatch(/no updateRefs mutation.*refuses rather than force/);
      expect(await store.head()).toBe(tip);
      // Refused before any commit was created, and never with a forced REST update.
      const sent = old.requests.slice(start).map((q) => `${q.method} ${q.operation}`);
      expect(sent.filter((s) => s.startsWith('PATCH') || s === 'POST git/create-commit')).toEqual([]);
    } finally {
      await old.stop();
    }
  });

  it('a token that may not write, and a section that does not exist, get clear errors', async () => {
    const repo = seeded(3);
    em.state.addToken('ghp_readonly', { login: 'reader', repos: { [`${OWNER}/${repo}`]: 'read' } });
    const reader = remoteStore(em, repo, { ref: REF, token: 'ghp_readonly' });
    const tip = await reader.head();
    await expect(compactSection(reader, { keepCommits: 1 }, { pacing: false })).rejects.toBeInstanceOf(Forbidden);
    expect(await reader.head()).toBe(tip);
    const missing = remoteStore(em, repo, { ref: 'refs/docdb/nothing' });
    await expect(compactSection(missing, { keepCommits: 1 }, { pacing: false })).rejects.toBeInstanceOf(NotFound);
  });
});
