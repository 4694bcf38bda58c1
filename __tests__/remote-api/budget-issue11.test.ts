/**
 * Issue 11's request budget, counted in the emulator's request log (exact counts, fresh stores per test):
 * the store computes the trees of its own writes locally, so what it just wrote costs nothing to read.
 */
import { describe, expect, it } from 'vitest';
import { NotFound } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { emulator, emulatorPerFile, freshRepo, OWNER, ops, store } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

function docs(n: number, salt = 's') {
  return Array.from({ length: n }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `group-${i % 20}/item-${i}`,
    data: { i, salt },
  }));
}

function commitsOnRef(name = fx.repo): number {
  const db = fx.em.state.repo(`${OWNER}/${name}`).db;
  let n = 0;
  for (let sha = db.readRef(REF); sha; sha = db.getCommit(sha).parents[0]) n++;
  return n;
}

/** A clock 10 minutes further on every reading: counts must not depend on elapsed time (issue 21). */
function jumpingClock(): () => number {
  let t = 1_700_000_000_000;
  return () => (t += 600_000);
}

describe('issue 11 request budget', () => {
  it('a no-op write right after the store’s own 1,000-document write costs 1 request (the ref read), whatever the clock', async () => {
    const s = store(fx.em, fx.repo, { now: jumpingClock() });
    const d = new DocumentStore(s);
    const first = await d.putMany(docs(1000));
    expect(first.changed).toBe(true);
    const from = fx.em.requests.length;
    const again = await d.putMany(docs(1000));
    expect(again.changed).toBe(false);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
    expect(again.requests).toBe(1);
  });

  it('a get right after the store’s own write: 1 request for a key it wrote, 2 for one it did not', async () => {
    const seeder = store(fx.em, fx.repo);
    await seeder.commit([
      { op: 'put', key: 'a/old.json', value: 'old' },
      { op: 'put', key: 'b/c/other.json', value: 'other' },
    ]);
    const s = store(fx.em, fx.repo);
    await s.list(); // warm: the tree levels are cached, so the write computes its new levels locally
    await s.put('a/new.json', 'new');
    let from = fx.em.requests.length;
    const mine = await s.get('a/new.json');
    expect(text(mine?.value)).toBe('new');
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
    from = fx.em.requests.length;
    const theirs = await s.get('b/c/other.json');
    expect(text(theirs?.value)).toBe('other');
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 304', 'GET git/get-blob 200']);
    // A cold write reads only the levels on the key's path (one GraphQL query, issue 20), and still knows
    // every level it creates: a get after it costs the ref read alone.
    const cold = store(fx.em, fx.repo);
    await cold.put('a/cold.json', 'c');
    from = fx.em.requests.length;
    expect(text((await cold.get('a/cold.json'))?.value)).toBe('c');
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
  });

  it('a cold get at a pinned version costs 2: the section commit page (proves the version is in the section), one contents read', async () => {
    const seeder = store(fx.em, fx.repo);
    const v1 = (await seeder.put('x/y.json', 'v1')).version as string;
    await seeder.put('x/y.json', 'v2');
    const from = fx.em.requests.length;
    const got = await store(fx.em, fx.repo).get('x/y.json', { version: v1 });
    expect(text(got?.value)).toBe('v1');
    expect(ops(fx.em, from)).toEqual(['GET repos/list-commits 200', 'GET repos/get-content 200']);
  });

  it('the first write to a new section costs 4 and no repository check', async () => {
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const r = await s.put('k.json', '1');
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 404',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'POST git/create-ref 201',
    ]);
    expect(r.requests).toBe(4);
  });

  it('a first write right after seeing the section absent (an Action run: head, then commit) reads the ref again: 4, no repository check', async () => {
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    expect(await s.head()).toBeNull();
    const r = await s.put('k.json', '1');
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 404',
      'GET repos/get 200', // head() tells a missing section from a missing repository
      'GET git/get-ref 404', // the write's own read: a section created meanwhile is built on, no orphan commit
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'POST git/create-ref 201',
    ]);
    expect(r.requests).toBe(4);
  });

  it('…and when another writer created the section in between, the create is refused and the write lands on it', async () => {
    const s = store(fx.em, fx.repo);
    expect(await s.head()).toBeNull();
    const other = await store(fx.em, fx.repo).put('theirs.json', 'x');
    const r = await s.put('mine.json', 'y');
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBe(other.version);
    expect((await store(fx.em, fx.repo).list()).entries.map((e) => e.key)).toEqual(['mine.json', 'theirs.json']);
  });

  it('a write to a missing repository still fails as NotFound (the check moved to the create-tree 404)', async () => {
    const s = store(fx.em, 'no-such-repo');
    await expect(s.put('k.json', '1')).rejects.toBeInstanceOf(NotFound);
  });

  it('after its own write the store caches every level it built: a read elsewhere costs no tree request', async () => {
    const s = store(fx.em, fx.repo);
    await s.commit(
      Array.from({ length: 50 }, (_, i) => ({ op: 'put' as const, key: `d${i % 5}/k${i}.json`, value: `${i}` })),
    );
    await s.put('d1/k1.json', 'changed');
    const from = fx.em.requests.length;
    const l = await s.list();
    expect(l.entries).toHaveLength(50);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
    expect(text((await s.get('d1/k1.json'))?.value)).toBe('changed');
  });

  it('a key the cached levels show absent is answered without a request (a page asking for an optional file)', async () => {
    const s = store(fx.em, fx.repo);
    await s.commit([{ op: 'put', key: 'd/k.json', value: '1' }]);
    const from = fx.em.requests.length;
    expect(await s.get('d/absent.json')).toBeNull();
    expect(await s.get('absent/k.json')).toBeNull();
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200', 'GET git/get-ref 304']);
  });
});

describe('issue 11: a section whose recursive listing is truncated', () => {
  async function coldRerun(limit: number) {
    const small = await emulator({ treeTruncateLimit: limit });
    try {
      const name = freshRepo(small);
      const all = docs(1000); // 1,000 blobs + 20 group trees + bench/ + bench/item/ = 1,022 entries
      await new DocumentStore(store(small, name)).putMany(all);
      const from = small.requests.length;
      const r = await new DocumentStore(store(small, name)).putMany(all);
      const log = small.requests.slice(from);
      // The write-side check: a changed document in the last group still lands (the plan is complete).
      const changed = all.map((d, i) => (i === 999 ? { ...d, data: { i, salt: 'new' } } : d));
      const w = await new DocumentStore(store(small, name)).putMany(changed);
      return { r, log, w };
    } finally {
      await small.stop();
    }
  }

  it('cold re-run at GitHub’s ratio (limit 1,000 for 1,022 entries, as 100,000 for 100,053): ≤ 12 requests, no commit', async () => {
    const { r, log, w } = await coldRerun(1000);
    expect(r.changed).toBe(false);
    expect(log.length).toBeLessThanOrEqual(12);
    expect(log.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(w.written).toEqual(['bench/item/group-19/item-999.json']);
  });

  it('a harsh truncation (limit 300): every tree is requested at most once and complete levels are kept', async () => {
    const { r, log, w } = await coldRerun(300);
    expect(r.changed).toBe(false);
    const trees = log.filter((q) => q.operation === 'git/get-tree').map((q) => q.path);
    expect(new Set(trees).size).toBe(trees.length);
    // ref + commit + trees: fewer tree requests than the 23 levels, since the first listing proves some.
    expect(trees.length).toBeLessThan(23);
    expect(log.length).toBe(2 + trees.length);
    expect(w.written).toEqual(['bench/item/group-19/item-999.json']);
  });
});

describe('issue 11: a put from an instance whose cached tip is stale', () => {
  it('costs 5 requests and leaves no orphan commit, whatever the clock', async () => {
    let clock = 1_000_000;
    const a = store(fx.em, fx.repo, { now: () => clock });
    const b = store(fx.em, fx.repo);
    await a.commit([
      { op: 'put', key: 'docs/a.json', value: 'a' },
      { op: 'put', key: 'docs/b.json', value: 'b' },
    ]);
    await b.put('other/x.json', 'x'); // a's cached tip is now stale
    clock += 600_000; // (any age: every write confirms its cached tip)
    const commitsBefore = commitsOnRef();
    const objectsBefore = fx.em.state.repo(`${OWNER}/${fx.repo}`).db.size;
    const from = fx.em.requests.length;
    const r = await a.put('docs/a.json', 'a2');
    expect(r.changed).toBe(true);
    expect(fx.em.requests.length - from).toBe(5);
    expect(ops(fx.em, from).filter((o) => o.includes('422'))).toEqual([]);
    expect(commitsOnRef()).toBe(commitsBefore + 1);
    // Exactly one new commit object: nothing orphaned (plus its tree levels: root and docs/).
    expect(fx.em.state.repo(`${OWNER}/${fx.repo}`).db.size - objectsBefore).toBe(1 + 2 + 1);
    expect(text((await store(fx.em, fx.repo).get('other/x.json'))?.value)).toBe('x');
    expect(text((await store(fx.em, fx.repo).get('docs/a.json'))?.value)).toBe('a2');
  });
});

describe('issue 11: the stale-tip shortcut never trusts a key another writer touched', () => {
  it('falls back to re-reading the new tree when the compare lists one of the keys', async () => {
    let clock = 1_000_000;
    const a = store(fx.em, fx.repo, { now: () => clock });
    await a.commit([
      { op: 'put', key: 'docs/a.json', value: 'a' },
      { op: 'put', key: 'docs/b.json', value: 'b' },
    ]);
    await store(fx.em, fx.repo).put('docs/a.json', 'theirs'); // touches a key a will write
    clock += 60_000;
    // In a's stale view docs/a.json is already "a": without the guard this would be a silent no-op.
    const r = await a.put('docs/a.json', 'a');
    expect(r.changed).toBe(true);
    expect(r.written).toEqual(['docs/a.json']);
    expect(text((await store(fx.em, fx.repo).get('docs/a.json'))?.value)).toBe('a');
  });

  it('a directory created below a key being written is a conflict, not an overwrite', async () => {
    let clock = 1_000_000;
    const a = store(fx.em, fx.repo, { now: () => clock });
    await a.put('docs/x.json', 'x');
    // Another writer replaces the key by a directory (seeded directly: docdb itself refuses such a batch).
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
      branch: REF,
      files: { 'docs/x.json': null, 'docs/x.json/inner': 'i' },
    });
    clock += 60_000;
    await expect(a.put('docs/x.json', 'y')).rejects.toThrow(/directory of other keys/);
    expect(text((await store(fx.em, fx.repo).get('docs/x.json/inner'))?.value)).toBe('i');
  });

  it('with the opt-in trustCachedTipMs, a tip seen within it is written on without a ref read (3 write requests)', async () => {
    let clock = 1_000_000;
    const a = store(fx.em, fx.repo, { now: () => clock, trustCachedTipMs: 5_000 });
    await a.put('docs/x.json', 'x');
    clock += 1_000;
    const from = fx.em.requests.length;
    await a.put('docs/x.json', 'y');
    expect(ops(fx.em, from)).toEqual([
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
  });
});
