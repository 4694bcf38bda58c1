/**
 * The two store capabilities the shard merge's request budget rests on (issue 30), against the emulator:
 * - `startAt` (config.ts, ref-reader.ts, ref-update.ts): a store on an absent ref reads as if the ref
 *   were at `startAt`, and its first write costs a tree, a commit and the ref created ON that commit —
 *   no create-then-update; a ref created meanwhile by someone else makes the write land on top of it;
 * - `deleteRefs` (delete-refs.ts): several refs deleted in ONE `updateRefs` mutation, each only while it
 *   points at the commit given; one moved ref, a read-only token or a host without the mutation deletes
 *   nothing; bad input is refused before any request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Forbidden, InvalidConfig, PreconditionFailed } from '../../src/core/errors.js';
import type { CommitOptions } from '../../src/core/refstore.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';

const TOKEN = 'ghp_ShardRefOpsToken0123456789abcdefab';
const READER = 'ghp_ShardRefOpsReader0123456789abcdefa';
const REPO = 'octo/ops';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
  em.state.addToken(READER, { login: 'reader', repos: { [REPO]: 'read' } });
});
afterAll(async () => {
  await em?.stop();
});

const storeOn = (ref: string, extra: { startAt?: string; token?: string; url?: string } = {}) =>
  new RemoteApiRefStore({
    transport: fetchTransport({ timeoutMs: 10_000 }),
    apiUrl: extra.url ?? em.url,
    owner: 'octo',
    repo: 'ops',
    ref,
    token: extra.token ?? TOKEN,
    sleep: async () => {},
    ...(extra.startAt ? { startAt: extra.startAt } : {}),
  });
const db = () => em.state.repo(REPO).db;
const text = (v: Uint8Array | undefined) => new TextDecoder().decode(v);
const mutating = () => em.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql');

describe('startAt: a ref created on its first commit', () => {
  it('reads as the section at startAt; the first write is a tree, a commit and the ref created ON it', async () => {
    const section = storeOn('refs/docdb/s1');
    const base = (await section.commit([{ op: 'put', key: 'a.json', value: '"a"' }])).version!;
    const shard = storeOn('refs/docdb/s1.shards/1', { startAt: base });
    expect(await shard.head()).toBe(base);
    expect(text((await shard.get('a.json'))?.value)).toBe('"a"');
    em.clearLog();
    const w = await shard.commit([{ op: 'put', key: 'b.json', value: '"b"' }]);
    expect(mutating().map((r) => `${r.method} ${r.operation}`)).toEqual([
      'POST git/create-tree',
      'POST git/create-commit',
      'POST git/create-ref',
    ]);
    expect(w).toMatchObject({ changed: true, previousVersion: base });
    expect(db().readRef('refs/docdb/s1.shards/1')).toBe(w.version);
    expect(db().getCommit(w.version!).parents).toEqual([base]);
    expect(db().readRef('refs/docdb/s1')).toBe(base);
    // From then on it is an ordinary ref: the next write moves it.
    em.clearLog();
    await shard.commit([{ op: 'put', key: 'c.json', value: '"c"' }]);
    expect(mutating().map((r) => r.method)).toEqual(['POST', 'POST', 'PATCH']);
  });

  it('a ref someone else created meanwhile: the create is refused, the write lands on top of the other commit', async () => {
    const base = (await storeOn('refs/docdb/s2').commit([{ op: 'put', key: 'a.json', value: '"a"' }])).version!;
    const ref = 'refs/docdb/s2.shards/1';
    let other: string | null = null;
    // After the store read the ref (absent) and planned on startAt, before its ref request.
    const options: CommitOptions = {
      derive: async () => {
        if (other === null) {
          other = (await storeOn(ref, { startAt: base }).commit([{ op: 'put', key: 'x.json', value: '"x"' }])).version;
        }
        return [];
      },
    };
    em.clearLog();
    const w = await storeOn(ref, { startAt: base }).commit([{ op: 'put', key: 'b.json', value: '"b"' }], options);
    // Two creates of the ref: the other writer's (201), then ours, refused (422 "Reference already
    // exists"); ours then moves the ref with an update on top of the other commit.
    const refMoves = mutating().filter((r) => r.operation === 'git/create-ref' || r.operation === 'git/update-ref');
    expect(refMoves.map((r) => `${r.operation} ${r.status}`)).toEqual([
      'git/create-ref 201',
      'git/create-ref 422',
      'git/update-ref 200',
    ]);
    expect(w.previousVersion).toBe(other);
    expect(db().getCommit(w.version!).parents).toEqual([other]);
    const keys = db()
      .flattenTree(db().getCommit(db().readRef(ref)!).tree)
      .map((e) => e.path);
    expect(keys).toEqual(expect.arrayContaining(['a.json', 'b.json', 'x.json']));
  });

  it('a ref created meanwhile AT startAt: the move becomes an update', async () => {
    const base = (await storeOn('refs/docdb/s3').commit([{ op: 'put', key: 'a.json', value: '"a"' }])).version!;
    const ref = 'refs/docdb/s3.shards/1';
    const options: CommitOptions = {
      derive: async () => {
        if (!db().readRef(ref)) db().compareAndSwapRef(ref, null, base);
        return [];
      },
    };
    em.clearLog();
    const w = await storeOn(ref, { startAt: base }).commit([{ op: 'put', key: 'b.json', value: '"b"' }], options);
    expect(db().readRef(ref)).toBe(w.version);
    expect(db().getCommit(w.version!).parents).toEqual([base]);
    expect(mutating().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'POST 201', 'POST 422', 'PATCH 200']);
  });

  it('a startAt that is not a commit SHA: InvalidConfig naming it', () => {
    expect(() => storeOn('refs/docdb/s4', { startAt: 'main' })).toThrow(InvalidConfig);
    expect(() => storeOn('refs/docdb/s4', { startAt: 'main' })).toThrow(
      /startAt must be a commit SHA \(40 hex digits\)/,
    );
  });
});

describe('deleteRefs: many refs, one compared mutation', () => {
  async function twoRefs(name: string) {
    const section = storeOn(`refs/docdb/${name}`);
    const tip = (await section.commit([{ op: 'put', key: 'a.json', value: '1' }])).version!;
    const refs = [1, 2].map((i) => `refs/docdb/${name}.shards/${i}`);
    for (const r of refs) db().compareAndSwapRef(r, null, tip);
    return { section, tip, refs };
  }

  it('deletes every ref in ONE request (a GraphQL mutation), each compared with its commit', async () => {
    const { section, tip, refs } = await twoRefs('d1');
    em.clearLog();
    await section.deleteRefs(refs.map((ref) => ({ ref, oid: tip })));
    expect(refs.map((r) => db().readRef(r))).toEqual([undefined, undefined]);
    expect(em.requests.filter((r) => r.contentCreating)).toHaveLength(1);
    expect(em.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('one ref moved since it was read: PreconditionFailed naming the refs, none deleted', async () => {
    const { section, tip, refs } = await twoRefs('d2');
    const moved = (await storeOn(refs[1]!).commit([{ op: 'put', key: 'late.json', value: '1' }])).version;
    const e = await section.deleteRefs(refs.map((ref) => ({ ref, oid: tip }))).catch((x) => x);
    expect(e).toBeInstanceOf(PreconditionFailed);
    expect(e.message).toMatch(/refs\/docdb\/d2\.shards\/1, refs\/docdb\/d2\.shards\/2 not deleted/);
    expect(e.message).toMatch(/run the merge again/);
    expect(refs.map((r) => db().readRef(r))).toEqual([tip, moved]);
  });

  it('a read-only token: Forbidden saying contents: write, none deleted, no token in the error', async () => {
    const { tip, refs } = await twoRefs('d3');
    const e = await storeOn('refs/docdb/d3', { token: READER })
      .deleteRefs(refs.map((ref) => ({ ref, oid: tip })))
      .catch((x) => x);
    expect(e).toBeInstanceOf(Forbidden);
    expect(e.message).toMatch(/contents: write/);
    expect(JSON.stringify(e)).not.toContain(READER);
    expect(e.message).not.toContain(READER);
    expect(refs.map((r) => db().readRef(r))).toEqual([tip, tip]);
  });

  it('a host without updateRefs: InvalidConfig, nothing deleted (never an unchecked delete)', async () => {
    const old = await startEmulator({ graphqlUpdateRefs: false });
    try {
      old.state.createRepo(REPO);
      old.state.addToken(TOKEN, { login: 'octo' });
      const store = storeOn('refs/docdb/d4', { url: old.url });
      const tip = (await store.commit([{ op: 'put', key: 'a.json', value: '1' }])).version!;
      old.state.repo(REPO).db.compareAndSwapRef('refs/docdb/d4.shards/1', null, tip);
      const e = await store.deleteRefs([{ ref: 'refs/docdb/d4.shards/1', oid: tip }]).catch((x) => x);
      expect(e).toBeInstanceOf(InvalidConfig);
      expect(e.message).toMatch(/no updateRefs mutation/);
      expect(old.state.repo(REPO).db.readRef('refs/docdb/d4.shards/1')).toBe(tip);
    } finally {
      await old.stop();
    }
  });

  it('bad input is refused before any request: a ref name, a commit SHA, a ref named twice', async () => {
    const store = storeOn('refs/docdb/d5');
    const tip = 'a'.repeat(40);
    em.clearLog();
    await expect(store.deleteRefs([{ ref: 'heads/x', oid: tip }])).rejects.toThrow(InvalidConfig);
    await expect(store.deleteRefs([{ ref: 'refs/docdb/x', oid: 'HEAD' }])).rejects.toThrow(/HEAD/);
    await expect(
      store.deleteRefs([
        { ref: 'refs/docdb/x', oid: tip },
        { ref: 'refs/docdb/x', oid: tip },
      ]),
    ).rejects.toThrow(/refs\/docdb\/x is named twice/);
    expect(em.requests).toEqual([]);
  });
});
