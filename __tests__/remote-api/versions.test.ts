/**
 * Versions on the GitHub API, counted in the emulator's request log: the cost of checking that a
 * version is a commit of the section, of `changes()` on a 10,000-document section, of compare-and-set
 * under a race, and of `watch()` (idle polls are 304s that cost no rate limit).
 */
import { describe, expect, it } from 'vitest';
import { InvalidVersion, PreconditionFailed } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { type WatchChange, watch } from '../../src/core/watch.js';
import { emulatorPerFile, meteredTransport, newMeter, OWNER, ops, since, store } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const N = 10_000;

function seed(files: Record<string, string | null>, message = 'seed'): string {
  const fresh = fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef(REF) === undefined;
  const all = fresh ? { 'README.md': null, ...files } : files;
  return fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files: all, message });
}

const sha = (s: string) => blobSha(new TextEncoder().encode(s));

describe('versions must be commits of the section', () => {
  it("get at the default branch's tip (a commit of the repository, not of the section) is InvalidVersion", async () => {
    const s = store(fx.em, fx.repo);
    await s.put('a.json', '1');
    await s.put('a.json', '2');
    const main = fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef('refs/heads/main')!;
    const other = (await store(fx.em, fx.repo, { ref: 'refs/docdb/other' }).put('a.json', 'other')).version!;
    const fresh = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const e = await fresh.get('README.md', { version: main }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InvalidVersion);
    // One page of the section's commits (2 < 100) decides it; nothing of main is read.
    expect(ops(fx.em, from)).toEqual(['GET repos/list-commits 200']);
    await expect(fresh.list({ version: main })).rejects.toBeInstanceOf(InvalidVersion);
    await expect(fresh.get('a.json', { version: other })).rejects.toBeInstanceOf(InvalidVersion);
  });

  it('a version 150 commits back costs 2 list pages once, then 0 (positive answers are cached)', async () => {
    const v0 = seed({ 'k.json': 'v0' });
    for (let i = 1; i <= 150; i++) seed({ 'k.json': `v${i}` });
    const s = store(fx.em, fx.repo);
    let from = fx.em.requests.length;
    expect(new TextDecoder().decode((await s.get('k.json', { version: v0 }))!.value)).toBe('v0');
    expect(ops(fx.em, from).filter((o) => o.includes('list-commits'))).toEqual([
      'GET repos/list-commits 200',
      'GET repos/list-commits 200',
    ]);
    from = fx.em.requests.length;
    await s.get('k.json', { version: v0 });
    expect(ops(fx.em, from)).toEqual([]);
  });
});

describe('changes() on a 10,000-document section', () => {
  const key = (i: number) => `d/g${String(i % 100).padStart(2, '0')}/k${i}.json`;
  function seedBig(): { v1: string; v2: string } {
    const files: Record<string, string> = {};
    for (let i = 0; i < N; i++) files[key(i)] = `{"i":${i}}`;
    const v1 = seed(files);
    const v2 = seed({ [key(4242)]: '{"i":"changed"}' });
    return { v1, v2 };
  }

  it('between adjacent versions touching one document: ref, one compare, one GraphQL query for the old blob SHA', async () => {
    const { v1, v2 } = seedBig();
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const r = await s.changes({ from: v1 });
    expect(r.to).toBe(v2);
    expect(r.changed).toEqual([
      { key: key(4242), blobSha: sha('{"i":"changed"}'), previousBlobSha: sha('{"i":4242}') },
    ]);
    expect(r.added).toEqual([]);
    expect(r.removed).toEqual([]);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET repos/compare-commits-with-basehead 200',
      'POST graphql 200',
    ]);
    expect(since(fx.em, from)[1]!.query).toBe('per_page=1');
    expect(r.requests).toBe(3);
  });

  it('100 of 10,000 changed: ≤ 3 requests and ≤ 100 KB down (issue 20), the same answer as the tree diff', async () => {
    const { v2 } = seedBig();
    const changes: Record<string, string | null> = {};
    for (let i = 0; i < 90; i++) changes[key(i * 97)] = `{"i":"changed ${i}"}`;
    for (let i = 0; i < 5; i++) changes[key(i * 101 + 1)] = null;
    for (let i = 0; i < 5; i++) changes[`d/new/n${i}.json`] = `{"n":${i}}`;
    const v3 = seed(changes);
    const meter = newMeter();
    const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
    const r = await s.changes({ from: v2 });
    expect([r.changed.length, r.removed.length, r.added.length]).toEqual([90, 5, 5]);
    expect(r.requests).toBeLessThanOrEqual(3);
    expect(meter.received).toBeLessThan(100 * 1024);
    // The tree diff (a host whose compare refuses) gives the same answer.
    fx.em.inject({ kind: 'status', status: 404, path: /\/compare\//, times: 5 });
    const viaTrees = await store(fx.em, fx.repo).changes({ from: v2, to: v3 });
    fx.em.clearFaults();
    expect(viaTrees).toMatchObject({ added: r.added, changed: r.changed, removed: r.removed });
  });

  it("301 changed (over the compare's 300-file cap): the tree diff answers, every change listed", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1_000; i++) files[key(i)] = `{"i":${i}}`;
    const v1 = seed(files);
    const edits: Record<string, string> = {};
    for (let i = 0; i < 301; i++) edits[key(i * 3)] = `{"i":"edit ${i}"}`;
    const v2 = seed(edits);
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const r = await s.changes({ from: v1 });
    expect(r.to).toBe(v2);
    // Exactly the edits, with both blob SHAs — a compare alone would have named only 300 of them.
    const expected = Object.entries(edits)
      .map(([k, v]) => ({ key: k, blobSha: sha(v), previousBlobSha: sha(files[k] as string) }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(r.changed).toEqual(expected);
    expect([r.added, r.removed]).toEqual([[], []]);
    // The compare is read and set aside; then both commits (from is the tip's parent: in the section, no
    // commit list needed) and both listings (the tree diff).
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET repos/compare-commits-with-basehead 200',
      'GET git/get-commit 200',
      'GET git/get-commit 200',
      'GET git/get-tree 200',
      'GET git/get-tree 200',
    ]);
    expect(r.requests).toBe(6);
  });

  it('warm: the next change costs the same 3 requests, whatever the section size', async () => {
    const { v2 } = seedBig();
    const s = store(fx.em, fx.repo);
    await s.list(); // warms the cache at v2
    const v3 = seed({ [key(7)]: 'seven' });
    const from = fx.em.requests.length;
    const r = await s.changes({ from: v2 });
    expect(r.to).toBe(v3);
    expect(r.changed.map((c) => c.key)).toEqual([key(7)]);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET repos/compare-commits-with-basehead 200',
      'POST graphql 200',
    ]);
  });
});

describe('compare-and-set under a race (remote)', () => {
  it('the loser (planning on a stale cached tip) loses the fast-forward, re-checks ifMatch on the new tip and fails', async () => {
    seed({ 'doc.json': 'base' });
    const a = store(fx.em, fx.repo);
    // b trusts its cached tip (the opt-in `trustCachedTipMs`): the race of a write landing between b's
    // ref read and its ref update. By default b would read the ref first and fail without writing.
    const b = store(fx.em, fx.repo, { trustCachedTipMs: Number.MAX_SAFE_INTEGER });
    const etag = (await a.get('doc.json'))!.blobSha;
    await b.get('doc.json');
    await a.put('doc.json', 'A', { ifMatch: etag });
    const tip = await a.head();
    const from = fx.em.requests.length;
    // b's cached tip is stale: its precondition passes there, the ref update is refused (not a fast
    // forward), and on the re-read tip the precondition fails: nothing of b's lands.
    const e = (await b.put('doc.json', 'B', { ifMatch: etag }).catch((x: unknown) => x)) as PreconditionFailed;
    expect(e).toBeInstanceOf(PreconditionFailed);
    expect(e.data).toMatchObject({ actual: sha('A'), version: tip });
    expect(ops(fx.em, from).filter((o) => o.startsWith('PATCH'))).toEqual(['PATCH git/update-ref 422']);
    expect(await a.head()).toBe(tip);
    expect(new TextDecoder().decode((await a.get('doc.json'))!.value)).toBe('A');
  });
});

describe('watch()', () => {
  it('N idle polls cost N requests (304s, 0 rate-limit budget); one change gives exactly one callback with its keys', async () => {
    seed({ 'w/a.json': '1', 'elsewhere/x.json': '1' });
    const watcher = store(fx.em, fx.repo);
    const writer = store(fx.em, fx.repo);
    const stop = new AbortController();
    const seen: WatchChange[] = [];
    const marks: number[] = [];
    let polls = 0;
    // The injected sleep drives the test: no timers, no wall-clock races.
    const sleep = async () => {
      polls++;
      marks.push(fx.em.requests.length);
      if (polls === 6) await writer.put('w/b.json', 'new');
      if (polls === 7) await writer.put('elsewhere/x.json', '2'); // outside the prefix: no callback
      if (polls === 12) stop.abort();
    };
    await watch(watcher, { prefix: 'w/', interval: 1000, signal: stop.signal, sleep, visibility: null }, (c) => {
      seen.push(c);
    });
    // Polls 2..6 are idle: exactly one request each, a 304 that costs no budget.
    const idle = fx.em.requests.slice(marks[0], marks[5]);
    expect(idle).toHaveLength(5);
    expect(idle.every((r) => r.status === 304 && r.costsBudget === false)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.added).toEqual([{ key: 'w/b.json', blobSha: sha('new') }]);
    expect(seen[0]!.changed).toEqual([]);
    // After the moves, idle polls are 304s again.
    const tail = fx.em.requests.slice(marks[9], marks[11]);
    expect(tail.map((r) => r.status)).toEqual([304, 304]);
  });
});
