/**
 * The request budget (ARCHITECTURE.md § Request budget), counted in the emulator's request log.
 * Every test uses fresh store instances so the cache state is exactly what the test sets up.
 */
import { describe, expect, it } from 'vitest';
import { emulatorPerFile, meteredTransport, newMeter, OWNER, ops, since, store } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const KEY = 'github/repo/octo/hello.json';

/** Seed the section directly in the emulator (costs no HTTP). */
function seed(files: Record<string, string | null>, message = 'seed'): string {
  const fresh = fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef(REF) === undefined;
  // A new ref starts from the default branch's tree: drop its README so the section holds only `files`.
  const all = fresh ? { 'README.md': null, ...files } : files;
  return fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files: all, message });
}

describe('get', () => {
  it('cold get costs 2 requests: the ref and one contents read at the tip commit (no commit, no listing)', async () => {
    seed({ [KEY]: '{"a":1}', 'github/repo/octo/other.json': '{}', 'other/x.json': '1' });
    const meter = newMeter();
    const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
    const from = fx.em.requests.length;
    const got = await s.get(KEY);
    expect(new TextDecoder().decode(got!.value)).toBe('{"a":1}');
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200', 'GET repos/get-content 200']);
    expect(since(fx.em, from)[1]!.query).toBe(`ref=${got!.version}`);
    expect(got!.requests).toBe(2);
    expect(meter.received).toBeLessThan(16 * 1024);
    expect(got!.rateLimit).toMatchObject({ resource: 'core', limit: 1_000_000 });
    expect(got!.rateLimit!.remaining).toBeLessThan(1_000_000);
  });

  it('warm get with an unchanged tip costs 1 request: a 304 that costs no rate-limit budget', async () => {
    seed({ [KEY]: 'v1' });
    const s = store(fx.em, fx.repo);
    await s.get(KEY);
    const from = fx.em.requests.length;
    const got = await s.get(KEY);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 304']);
    expect(since(fx.em, from)[0]!.costsBudget).toBe(false);
    expect(got!.requests).toBe(1);
    expect(new TextDecoder().decode(got!.value)).toBe('v1');
  });

  it("after a write elsewhere, or in the key's own directory: ref + one contents read", async () => {
    seed({ [KEY]: 'v1', 'github/repo/octo/b.json': 'b' });
    const s = store(fx.em, fx.repo);
    await s.get(KEY);
    seed({ 'other/x.json': 'new' });
    const from = fx.em.requests.length;
    expect((await s.get(KEY))!.requests).toBe(2);
    seed({ 'github/repo/octo/sibling.json': 's' });
    const got = await s.get(KEY);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET repos/get-content 200',
      'GET git/get-ref 200',
      'GET repos/get-content 200',
    ]);
    expect(got!.requests).toBe(2);
  });

  it('a changed value costs the same 2 (the contents answer carries it)', async () => {
    seed({ [KEY]: 'v1' });
    const s = store(fx.em, fx.repo);
    await s.get(KEY);
    seed({ [KEY]: 'v2' });
    const from = fx.em.requests.length;
    const got = await s.get(KEY);
    expect(new TextDecoder().decode(got!.value)).toBe('v2');
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200', 'GET repos/get-content 200']);
  });

  it('a pinned version: the section check (1 page per 100 commits back) + one contents read; 0 warm', async () => {
    const v1 = seed({ [KEY]: 'v1' });
    seed({ [KEY]: 'v2' });
    const meter = newMeter();
    const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
    const from = fx.em.requests.length;
    const got = await s.get(KEY, { version: v1 });
    expect(new TextDecoder().decode(got!.value)).toBe('v1');
    expect(ops(fx.em, from)).toEqual(['GET repos/list-commits 200', 'GET repos/get-content 200']);
    expect(meter.received).toBeLessThan(16 * 1024);
    const again = await s.get(KEY, { version: v1 });
    expect(again!.requests).toBe(0);
    expect(again!.rateLimit).toEqual(got!.rateLimit); // the last rate limit this store saw
  });

  it('a missing key, a directory, or a path below a value: null after the same 2 requests', async () => {
    seed({ [KEY]: 'v1' });
    const s = store(fx.em, fx.repo);
    expect(await s.get('github/repo/octo/missing.json')).toBeNull();
    expect(await s.get('github/repo/octo')).toBeNull();
    expect(await s.get(`${KEY}/below.json`)).toBeNull();
    const from = fx.em.requests.length;
    expect(await s.get('github/repo/octo')).toBeNull(); // remembered per (commit, path)
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 304']);
  });

  it('a symlink is read through the tree walk (the contents API would follow it)', async () => {
    const repo = fx.em.state.repo(`${OWNER}/${fx.repo}`);
    seed({ 'target.json': 'T' });
    const link = repo.db.putBlob(new TextEncoder().encode('target.json'));
    const tip = repo.db.readRef(REF) as string;
    const tree = repo.db.applyTreeChanges(repo.db.getCommit(tip).tree, [
      { path: 'link.json', mode: '120000', sha: link },
    ]);
    const c = repo.db.getCommit(tip);
    fx.em.state.setRef(`${OWNER}/${fx.repo}`, REF, repo.db.putCommit({ ...c, tree, parents: [tip] }));
    const got = await store(fx.em, fx.repo).get('link.json');
    expect(new TextDecoder().decode(got!.value)).toBe('target.json'); // the link's own blob, as git stores it
  });

  it('an absent section costs the ref read plus one repository check (once per store)', async () => {
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    expect(await s.get(KEY)).toBeNull();
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 404', 'GET repos/get 200']);
    const from2 = fx.em.requests.length;
    expect(await s.get(KEY)).toBeNull();
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 404']);
  });
});

describe('writes', () => {
  it('first write: ref read, create tree, create commit, create the ref (POST /git/refs); no repository check', async () => {
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const r = await s.put(KEY, '{"a":1}');
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 404',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'POST git/create-ref 201',
    ]);
    expect(r.requests).toBe(4);
    expect(fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef(REF)).toBe(r.version);
  });

  it('warm put costs the conditional ref read (a 304) and 3 write requests (tree, commit, ref update)', async () => {
    seed({ [KEY]: 'v1' });
    const s = store(fx.em, fx.repo);
    await s.list(); // warm: the section's tree levels are cached
    const from = fx.em.requests.length;
    const r = await s.put(KEY, 'v2');
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 304',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(since(fx.em, from)[0]!.costsBudget).toBe(false);
    expect(r.requests).toBe(4);
  });

  it('warm delete costs the same: a 304, then 3 write requests (a sha:null entry on base_tree)', async () => {
    seed({ [KEY]: 'v1', 'keep.json': 'k' });
    const s = store(fx.em, fx.repo);
    await s.list();
    const from = fx.em.requests.length;
    const r = await s.delete(KEY);
    expect(r).toMatchObject({ changed: true, deleted: [KEY], requests: 4 });
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 304',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(await store(fx.em, fx.repo).get(KEY)).toBeNull();
  });

  it("cold put: ref, commit, one GraphQL probe of the key's path (not the listing), then writes 3", async () => {
    seed({ [KEY]: 'v1', 'github/repo/octo/other.json': 'o' });
    const meter = newMeter();
    const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
    const from = fx.em.requests.length;
    const r = await s.put(KEY, 'v2');
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'POST graphql 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(r.requests).toBe(6);
    // Equal content: the probe's blob SHA makes it a no-op without a write.
    const again = await store(fx.em, fx.repo).put(KEY, 'v2');
    expect(again).toMatchObject({ changed: false, requests: 3 });
  });

  it('a batch of 300 documents costs the same 304 and 3 write requests as one, in one commit', async () => {
    seed({ 'a.json': '1' });
    const s = store(fx.em, fx.repo);
    await s.list();
    const changes = Array.from({ length: 300 }, (_, i) => ({
      op: 'put' as const,
      key: `github/repo/owner${i % 7}/doc-${i}.json`,
      value: JSON.stringify({ i, pad: 'x'.repeat(100) }),
    }));
    const from = fx.em.requests.length;
    const r = await s.commit([...changes, { op: 'delete', key: 'a.json' }]);
    expect(r.written).toHaveLength(300);
    expect(r.deleted).toEqual(['a.json']);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 304',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    const list = await s.list();
    expect(list.entries).toHaveLength(300);
  });

  it('inline content above maxInlineBytes is chunked into chained create-tree requests', async () => {
    const s = store(fx.em, fx.repo, { maxInlineBytes: 1000 });
    const changes = Array.from({ length: 10 }, (_, i) => ({
      op: 'put' as const,
      key: `k/${i}.txt`,
      value: `${i}`.repeat(400),
    }));
    const from = fx.em.requests.length;
    await s.commit(changes);
    const trees = since(fx.em, from).filter((r) => r.operation === 'git/create-tree');
    expect(trees.length).toBe(5); // 2 values of 400 bytes per 1000-byte chunk
    const fresh = store(fx.em, fx.repo);
    for (let i = 0; i < 10; i++) {
      expect(new TextDecoder().decode((await fresh.get(`k/${i}.txt`))!.value)).toBe(`${i}`.repeat(400));
    }
    expect((await fresh.history('k/0.txt')).entries).toHaveLength(1); // still one commit
  });

  it('text with a BOM or NUL keeps every byte (BOM inline, NUL via a blob)', async () => {
    const s = store(fx.em, fx.repo);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x41]);
    const nul = new TextEncoder().encode('a\u0000b');
    const from = fx.em.requests.length;
    await s.commit([
      { op: 'put', key: 'bom.txt', value: bom },
      { op: 'put', key: 'nul.txt', value: nul },
    ]);
    expect(ops(fx.em, from).filter((l) => l.includes('create-blob'))).toHaveLength(1);
    const fresh = store(fx.em, fx.repo);
    expect([...(await fresh.get('bom.txt'))!.value]).toEqual([...bom]);
    expect([...(await fresh.get('nul.txt'))!.value]).toEqual([...nul]);
  });

  it('binary values are uploaded with POST /git/blobs (inline content is text only)', async () => {
    const s = store(fx.em, fx.repo);
    const bin = new Uint8Array([0, 255, 254, 1]);
    const from = fx.em.requests.length;
    await s.put('bin/x', bin);
    expect(ops(fx.em, from)).toContain('POST git/create-blob 201');
  });

  it('a re-run with identical content makes 0 write requests and no commit (warm: one 304)', async () => {
    const s = store(fx.em, fx.repo);
    const docs = Array.from({ length: 20 }, (_, i) => ({
      op: 'put' as const,
      key: `d/${i}.json`,
      value: `{"i":${i}}`,
    }));
    const first = await s.commit(docs);
    const again = store(fx.em, fx.repo);
    await again.list();
    const from = fx.em.requests.length;
    const r = await again.commit(docs);
    expect(r).toMatchObject({ changed: false, version: first.version, unchanged: 20 });
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 304']);
    // Cold: reads only.
    const cold = store(fx.em, fx.repo);
    const from2 = fx.em.requests.length;
    await cold.commit(docs);
    expect(since(fx.em, from2).every((x) => x.method === 'GET')).toBe(true);
    expect(fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef(REF)).toBe(first.version);
  });
});

describe('list and history', () => {
  it('list costs one recursive tree request cold and nothing but the 304 warm', async () => {
    seed({ 'a/1': '1', 'a/b/2': '2', 'c/3': '3' });
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const l = await s.list();
    expect(l.entries.map((e) => e.key)).toEqual(['a/1', 'a/b/2', 'c/3']);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200', 'GET git/get-commit 200', 'GET git/get-tree 200']);
    const from2 = fx.em.requests.length;
    await s.list({ prefix: 'a/' });
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 304']);
  });

  it('history costs 1 request per 100 commits (Link pagination on the API origin)', async () => {
    for (let i = 0; i < 150; i++) seed({ [KEY]: `v${i}`, [`noise/${i}`]: 'n' });
    seed({ 'unrelated.json': 'x' });
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const h = await s.history(KEY);
    expect(h.entries).toHaveLength(150);
    expect(ops(fx.em, from)).toEqual(['GET repos/list-commits 200', 'GET repos/list-commits 200']);
    expect(since(fx.em, from)[0]!.query).toMatch(/per_page=100/);
    expect(since(fx.em, from)[0]!.query).toMatch(/sha=refs%2Fdocdb%2Fdocuments/);
    expect(since(fx.em, from).every((r) => r.authenticated)).toBe(true);
    expect(h.requests).toBe(2);
    const limited = await s.history(KEY, { limit: 5 });
    expect(limited.entries).toHaveLength(5);
    expect(limited.requests).toBe(1);
  });

  it('history asked again while nothing changed it: one conditional request, a 304 that costs no rate limit', async () => {
    seed({ [KEY]: 'v1' });
    seed({ [KEY]: 'v2' });
    const s = store(fx.em, fx.repo);
    const first = await s.history(KEY);
    seed({ 'elsewhere.json': 'x' }); // the tip moves, the key's history does not
    const from = fx.em.requests.length;
    const again = await s.history(KEY);
    expect(again.entries).toEqual(first.entries);
    expect(ops(fx.em, from)).toEqual(['GET repos/list-commits 304']);
    expect(since(fx.em, from).every((r) => !r.costsBudget)).toBe(true);
    seed({ [KEY]: 'v3' });
    const changed = await s.history(KEY);
    expect(changed.entries).toHaveLength(3);
  });
});
