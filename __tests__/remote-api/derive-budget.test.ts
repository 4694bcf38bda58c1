/**
 * Issue 28 on the GitHub API store: a write's derived changes (`CommitOptions.derive`, what keeps a section's
 * index exact) within the request budget, counted in the emulator's log. Each round of the hook's reads is ONE
 * request (cached levels first, then one GraphQL query for every missing key); keys this store just wrote cost
 * none; a section without `_docdb/` costs nothing extra; a lost race recomputes on the new tip.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../src/core/commit-parts.js';
import { InvalidKey } from '../../src/core/errors.js';
import type { DeriveChanges, DerivedRead } from '../../src/core/refstore.js';
import { emulatorPerFile, OWNER, ops, store } from './helpers.js';

/** Blob text in GraphQL answers is cut at 1,000 bytes here (GitHub: 512,000), so a test can cross it. */
const fx = emulatorPerFile({ graphqlBlobTextBytes: 1_000 });
const REF = 'refs/docdb/documents';
const KEY = 'github/repo/octo/hello.json';
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/** Seed the section directly in the emulator (costs no HTTP). */
function seed(files: Record<string, string | null>): string {
  const fresh = fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef(REF) === undefined;
  const all = fresh ? { 'README.md': null, ...files } : files;
  return fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files: all, message: 'seed' });
}

/** A section with documents and an index under `_docdb/`. */
function indexedSection(): string {
  return seed({
    [KEY]: '{"v":1}',
    'github/repo/octo/other.json': '{"v":2}',
    '_docdb/indexes.json': '{"types":1}',
    '_docdb/m/repo.json': '{"parts":2}',
    '_docdb/p/1.json': 'part 1',
    '_docdb/p/2.json': 'part 2',
  });
}

/**
 * A hook shaped like index maintenance: round 1 reads the declaration, a manifest and the written document's
 * old version; round 2 two index parts; it rewrites the parts it read. `rounds` records what each read gave.
 */
function indexLike(rounds: Map<string, DerivedRead | null>[], versions: (string | null)[]): DeriveChanges {
  return async ({ version, read }) => {
    versions.push(version);
    rounds.push(await read(['_docdb/indexes.json', '_docdb/m/repo.json', KEY]));
    const parts = await read(['_docdb/p/1.json', '_docdb/p/2.json']);
    rounds.push(parts);
    const n = versions.length;
    return [
      { op: 'put', key: '_docdb/p/1.json', value: `${text(parts.get('_docdb/p/1.json')?.value)} +${n}` },
      { op: 'put', key: '_docdb/p/2.json', value: text(parts.get('_docdb/p/2.json')?.value) }, // unchanged
    ];
  };
}

describe('a derive hook on the GitHub API store: each round of reads is one request', () => {
  it('cold, with a token: ref, commit, 1 query per round (the first also probes the put key), tree, commit, ref', async () => {
    indexedSection();
    const s = store(fx.em, fx.repo);
    const rounds: Map<string, DerivedRead | null>[] = [];
    const from = fx.em.requests.length;
    const r = await s.commit([{ op: 'put', key: KEY, value: '{"v":3}' }], { derive: indexLike(rounds, []) });
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'POST graphql 200', // round 1: three keys, and the levels on the put key's path (a cold put's probe)
      'POST graphql 200', // round 2: two index parts
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(r.requests).toBe(7);
    expect(text(rounds[0]?.get('_docdb/indexes.json')?.value)).toBe('{"types":1}');
    expect(text(rounds[0]?.get(KEY)?.value)).toBe('{"v":1}');
    expect(rounds[0]?.get(KEY)?.blobSha).toMatch(/^[0-9a-f]{40}$/);
    // The unchanged part is planned as unchanged: written names the document and the one part that changed.
    expect([...r.written].sort()).toEqual(['_docdb/p/1.json', KEY]);
    expect(r.unchanged).toBe(1);
    const after = store(fx.em, fx.repo);
    expect(text((await after.get('_docdb/p/1.json'))?.value)).toBe('part 1 +1');
    expect(text((await after.get(KEY))?.value)).toBe('{"v":3}');
  });

  it("a round that reads only the written document's previous version costs nothing (it came with round 1)", async () => {
    indexedSection();
    const s = store(fx.em, fx.repo);
    const before: (DerivedRead | null | undefined)[] = [];
    const threeRounds: DeriveChanges = async ({ read }) => {
      await read(['_docdb/indexes.json', '_docdb/m/repo.json']); // the declaration and a manifest
      before.push((await read([KEY])).get(KEY)); // the document's previous version
      const part = (await read(['_docdb/p/1.json'])).get('_docdb/p/1.json'); // the part its row is in
      return [{ op: 'put', key: '_docdb/p/1.json', value: `${text(part?.value)} +1` }];
    };
    const from = fx.em.requests.length;
    await s.commit([{ op: 'put', key: KEY, value: '{"v":3}' }], { derive: threeRounds });
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'POST graphql 200', // round 1, the put key's levels and its previous value
      'POST graphql 200', // round 3
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(text(before[0]?.value)).toBe('{"v":1}');
  });

  it("right after this store's own write, the hook's reads of keys it wrote cost no request", async () => {
    indexedSection();
    const s = store(fx.em, fx.repo);
    await s.commit([{ op: 'put', key: KEY, value: '{"v":3}' }], { derive: indexLike([], []) });
    const rounds: Map<string, DerivedRead | null>[] = [];
    const from = fx.em.requests.length;
    // The declaration and manifest were read (and cached) by the first write; the parts and the document written.
    const r = await s.commit([{ op: 'put', key: KEY, value: '{"v":4}' }], { derive: indexLike(rounds, [null]) });
    // The ref read (200: after an update a cached ETag proves nothing, ref-update.ts), then only the writes.
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(text(rounds[0]?.get(KEY)?.value)).toBe('{"v":3}');
    expect(text(rounds[1]?.get('_docdb/p/1.json')?.value)).toBe('part 1 +1');
    expect(text((await store(fx.em, fx.repo).get('_docdb/p/1.json'))?.value)).toBe('part 1 +1 +2');
    expect(r.requests).toBe(4);
  });

  it('a section without _docdb/: the hook proves its keys absent from the root level the put read (0 extra)', async () => {
    seed({ [KEY]: 'v1', 'github/repo/octo/other.json': 'o' });
    const seen: (DerivedRead | null | undefined)[] = [];
    const hook: DeriveChanges = async ({ read }) => {
      const got = await read(['_docdb/indexes.json', '_docdb/m/github/repo.json']);
      seen.push(got.get('_docdb/indexes.json'), got.get('_docdb/m/github/repo.json'));
      return [];
    };
    const from = fx.em.requests.length;
    const r = await store(fx.em, fx.repo).commit([{ op: 'put', key: KEY, value: 'v2' }], { derive: hook });
    // Exactly the cold put of budget.test.ts: the hook's query IS the put's path probe (root level included).
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'POST graphql 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(seen).toEqual([null, null]);
    expect(r.written).toEqual([KEY]);
  });

  it("a derived key the hook did not read is looked up in one query (with the put key's levels); a derived put below a value is refused", async () => {
    indexedSection();
    const s = store(fx.em, fx.repo);
    const newPart: DeriveChanges = async () => [{ op: 'put', key: '_docdb/p/3.json', value: 'part 3' }];
    const from = fx.em.requests.length;
    const r = await s.commit([{ op: 'put', key: KEY, value: 'v2' }], { derive: newPart });
    // One query: the derived key's type and the levels on both keys' paths (the plan of each then costs nothing).
    expect(ops(fx.em, from).filter((o) => o.startsWith('POST graphql'))).toHaveLength(1);
    expect([...r.written].sort()).toEqual(['_docdb/p/3.json', KEY]);
    const head = await s.head();
    const below: DeriveChanges = async () => [{ op: 'put', key: '_docdb/indexes.json/x', value: 'x' }];
    await expect(s.commit([{ op: 'put', key: KEY, value: 'v3' }], { derive: below })).rejects.toThrow(InvalidKey);
    const over: DeriveChanges = async () => [{ op: 'put', key: '_docdb/p', value: 'x' }];
    await expect(s.commit([{ op: 'put', key: KEY, value: 'v3' }], { derive: over })).rejects.toThrow(
      /derived change cannot write "_docdb\/p": it is a directory/,
    );
    expect(await s.head()).toBe(head);
  });

  it('a key the hook asks for must be a valid key (InvalidKey), before any request', async () => {
    indexedSection();
    const s = store(fx.em, fx.repo);
    await s.put('a.json', '1');
    const from = fx.em.requests.length;
    const bad: DeriveChanges = async ({ read }) => {
      await read(['../escape']);
      return [];
    };
    await expect(s.commit([{ op: 'put', key: 'a.json', value: '2' }], { derive: bad })).rejects.toThrow(InvalidKey);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
  });

  it('binary and truncated values GraphQL cannot give exactly are read by SHA; every value hashes to its SHA', async () => {
    const big = 'x'.repeat(2_000); // over this file's GraphQL text limit: truncated
    seed({ 'a.json': '1', '_docdb/big.txt': big });
    const s = store(fx.em, fx.repo);
    await s.put('_docdb/bin', new Uint8Array([0, 1, 2, 255]));
    const fresh = store(fx.em, fx.repo);
    let got: Map<string, DerivedRead | null> | undefined;
    const hook: DeriveChanges = async ({ read }) => {
      got = await read(['_docdb/bin', '_docdb/big.txt', '_docdb/none']);
      return [];
    };
    const from = fx.em.requests.length;
    await fresh.commit([{ op: 'put', key: 'a.json', value: '2' }], { derive: hook });
    expect([...(got?.get('_docdb/bin')?.value ?? [])]).toEqual([0, 1, 2, 255]);
    expect(text(got?.get('_docdb/big.txt')?.value)).toBe(big);
    expect(got?.get('_docdb/none')).toBeNull();
    // One query for the three keys (and the put key's levels), then the two inexact blobs by SHA.
    const reads = ops(fx.em, from).filter((o) => o.startsWith('POST graphql') || o.startsWith('GET git/get-blob'));
    expect(reads).toEqual(['POST graphql 200', 'GET git/get-blob 200', 'GET git/get-blob 200']);
  });

  it('a GraphQL answer is untrusted: text that does not hash to its oid is read by SHA; a forged level is not kept', async () => {
    const tip = seed({ 'a.json': '1', '_docdb/indexes.json': 'real' });
    const db = fx.em.state.repo(`${OWNER}/${fx.repo}`).db;
    const root = db.getCommit(tip).tree;
    const indexSha = db.lookupPath(root, '_docdb/indexes.json')!.sha;
    // The hook's query asks, in order: its key (e0), the put key's value (e1), the root level (e2), _docdb (e3).
    const forged = {
      e0: { __typename: 'Blob', oid: indexSha, text: 'forged', isBinary: false, isTruncated: false, byteSize: 6 },
      e1: null,
      e2: { __typename: 'Tree', oid: root, entries: [{ name: 'a.json', oid: indexSha, mode: 33188 }] },
      e3: null,
    };
    fx.em.inject({
      kind: 'status',
      status: 200,
      body: { data: { repository: forged } },
      method: 'POST',
      path: '/graphql',
    });
    let seen: DerivedRead | null | undefined;
    const hook: DeriveChanges = async ({ read }) => {
      seen = (await read(['_docdb/indexes.json'])).get('_docdb/indexes.json');
      return [];
    };
    const from = fx.em.requests.length;
    const r = await store(fx.em, fx.repo).commit([{ op: 'put', key: 'a.json', value: '2' }], { derive: hook });
    expect(text(seen?.value)).toBe('real');
    expect(seen?.blobSha).toBe(indexSha);
    // The forged text was read again by SHA; the forged root level (its entries do not hash to it) was not
    // cached, so the put's own probe asked again — and found the real a.json.
    expect(ops(fx.em, from).filter((o) => /graphql|get-blob/.test(o))).toEqual([
      'POST graphql 200',
      'GET git/get-blob 200',
      'POST graphql 200',
    ]);
    expect(r.written).toEqual(['a.json']);
    expect(text((await store(fx.em, fx.repo).get('a.json'))?.value)).toBe('2');
  });

  it('without GraphQL (an error answer) the hook reads by contents requests, in parallel', async () => {
    indexedSection();
    const s = store(fx.em, fx.repo);
    // The hook's query is not answered (GraphQL down); the put's own path probe after it is.
    fx.em.inject({ kind: 'status', status: 502, method: 'POST', path: '/graphql' });
    let got: Map<string, DerivedRead | null> | undefined;
    const hook: DeriveChanges = async ({ read }) => {
      got = await read(['_docdb/indexes.json', '_docdb/p/1.json', '_docdb/absent.json']);
      return [];
    };
    const from = fx.em.requests.length;
    await s.commit([{ op: 'put', key: KEY, value: 'v9' }], { derive: hook });
    const reads = ops(fx.em, from).filter((o) => !/get-ref|get-commit|create|update/.test(o));
    expect(reads.sort()).toEqual([
      'GET repos/get-content 200',
      'GET repos/get-content 200',
      'GET repos/get-content 404',
      'POST graphql 200',
      'POST graphql 502',
    ]);
    expect(text(got?.get('_docdb/p/1.json')?.value)).toBe('part 1');
    expect(got?.get('_docdb/absent.json')).toBeNull();
  });
});

describe('a lost race recomputes the derived changes on the new tip', () => {
  it('a rebased attempt (planned on the cached old tree) still reads the NEW tip for the hook', async () => {
    seed({ 'docs/x/one.json': '1', 'docs/y/two.json': '2', '_docdb/count.txt': '1' });
    const a = store(fx.em, fx.repo);
    const b = store(fx.em, fx.repo, { trustCachedTipMs: Number.MAX_SAFE_INTEGER });
    await b.put('docs/x/one.json', '1b'); // b knows its tip and the levels on its key's path, not docs/y/ or _docdb/
    const old = await b.head();
    const counter: DeriveChanges = async ({ version, read }) => {
      versions.push(version);
      const at = (await read(['_docdb/count.txt'])).get('_docdb/count.txt');
      return [{ op: 'put', key: '_docdb/count.txt', value: String(Number(text(at?.value)) + 1) }];
    };
    const versions: (string | null)[] = [];
    const other = await a.commit([{ op: 'put', key: 'docs/y/three.json', value: '3' }], { derive: counter });
    versions.length = 0;
    const from = fx.em.requests.length;
    const r = await b.commit([{ op: 'put', key: 'docs/x/four.json', value: '4' }], { derive: counter });
    // Attempt 1 on the old tip; the compare shows only other keys changed and the new tree cannot be replayed
    // (docs/y/ was never read), so attempt 2 plans the write's own key on the cached old tree (no commit or
    // tree read) — and calls the hook again on the new tip, reading it there.
    expect(versions).toEqual([old, other.version]);
    expect(r.previousVersion).toBe(other.version);
    expect(ops(fx.em, from)).toEqual([
      'POST graphql 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 422',
      'GET repos/compare-commits-with-basehead 200',
      'POST graphql 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(text((await store(fx.em, fx.repo).get('_docdb/count.txt'))?.value)).toBe('3');
  });

  it('a commit in parts: the derived changes close the parts’ requests, recomputed on top after a lost race', async () => {
    seed({ 'docs/x/one.json': '1', '_docdb/count.txt': '1' });
    const a = store(fx.em, fx.repo);
    const b = store(fx.em, fx.repo);
    const versions: (string | null)[] = [];
    const counter: DeriveChanges = async ({ version, read }) => {
      versions.push(version);
      if (versions.length === 1) await a.put('docs/x/other.json', 'a'); // another writer lands in between
      const at = (await read(['_docdb/count.txt'])).get('_docdb/count.txt');
      return [{ op: 'put', key: '_docdb/count.txt', value: String(Number(text(at?.value)) + 1) }];
    };
    const from = fx.em.requests.length;
    const parts = [
      [{ op: 'put' as const, key: 'p/1.json', value: '1' }],
      [{ op: 'put' as const, key: 'p/2.json', value: '2' }],
    ];
    const r = await commitInParts(b, parts, { derive: counter });
    expect(versions).toHaveLength(2);
    expect(versions[1]).toBe(r.previousVersion);
    expect([...r.written].sort()).toEqual(['_docdb/count.txt', 'p/1.json', 'p/2.json']);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'POST graphql 200', // the first part's path probe
      ...['GET git/get-ref 200', 'GET git/get-commit 200', 'POST graphql 200'], // the other writer's put …
      ...['POST git/create-tree 201', 'POST git/create-commit 201', 'PATCH git/update-ref 200'], // … lands
      'POST graphql 200', // the hook's read on the old tip
      'POST git/create-tree 201', // every part and the derived changes: one request's worth (issue 42)
      'POST git/create-commit 201',
      'PATCH git/update-ref 422',
      'GET repos/compare-commits-with-basehead 200',
      'POST git/create-tree 201', // the parts' entries (by SHA) on the new tip
      'POST graphql 200', // the hook again, reading the NEW tip
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    // Recomputed on the new tip (the other writer's put has no hook): 1 + 1, and its document kept.
    expect(text((await store(fx.em, fx.repo).get('_docdb/count.txt'))?.value)).toBe('2');
    expect(text((await store(fx.em, fx.repo).get('docs/x/other.json'))?.value)).toBe('a');
    expect(text((await store(fx.em, fx.repo).get('p/2.json'))?.value)).toBe('2');
  });
});
