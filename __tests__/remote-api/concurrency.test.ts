/** Concurrent writers from separate store instances against the emulator's fast-forward gate. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdate } from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { fetchTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulator, freshRepo, OWNER, store } from './helpers.js';

let em: EmulatorHandle;
let repo: string;
const REF = 'refs/docdb/documents';
const text = (b: Uint8Array) => new TextDecoder().decode(b);

beforeAll(async () => {
  em = await emulator({ latencyMs: { min: 0, max: 3 } });
});
afterAll(async () => {
  await em?.stop();
});
beforeEach(() => {
  repo = freshRepo(em);
});

/** A transport that runs `before()` once, just before the first PATCH of the ref goes out. */
function racingTransport(before: () => Promise<unknown>): HttpTransport {
  const inner = fetchTransport();
  let fired = false;
  return {
    async request(req) {
      if (!fired && req.method === 'PATCH') {
        fired = true;
        await before();
      }
      return inner.request(req);
    },
  };
}

describe('concurrent writers', () => {
  it('8 writers on disjoint keys (separate instances): every write lands, history complete', async () => {
    await store(em, repo).put('seed.json', '0');
    const writers = Array.from({ length: 8 }, () => store(em, repo, { retryConcurrentWrites: 10 }));
    const results = await Promise.all(writers.map((w, i) => w.put(`k/${i}.json`, `v${i}`)));
    expect(results.every((r) => r.changed)).toBe(true);
    const reader = store(em, repo);
    const list = await reader.list();
    expect(list.entries.map((e) => e.key)).toEqual([
      'k/0.json',
      'k/1.json',
      'k/2.json',
      'k/3.json',
      'k/4.json',
      'k/5.json',
      'k/6.json',
      'k/7.json',
      'seed.json',
    ]);
    for (let i = 0; i < 8; i++) expect((await reader.history(`k/${i}.json`)).entries).toHaveLength(1);
    // Linear history: 1 seed + 8 commits, each version distinct.
    expect(new Set(results.map((r) => r.version)).size).toBe(8);
    const db = em.state.repo(`${OWNER}/${repo}`).db;
    let n = 0;
    for (let sha = db.readRef(REF); sha; sha = db.getCommit(sha).parents[0]) n++;
    expect(n).toBe(9);
  });

  it('8 writers on the same key: no lost update — history has all 8 values, final is one of them', async () => {
    await store(em, repo).put('same.json', 'seed');
    const writers = Array.from({ length: 8 }, () => store(em, repo, { retryConcurrentWrites: 10 }));
    const results = await Promise.all(writers.map((w, i) => w.put('same.json', `writer-${i}`)));
    expect(results.every((r) => r.changed)).toBe(true);
    const reader = store(em, repo);
    const h = await reader.history('same.json');
    expect(h.entries).toHaveLength(9);
    const final = text((await reader.get('same.json'))!.value);
    expect(final).toMatch(/^writer-[0-7]$/);
    const tip = await reader.head();
    expect(results.find((r) => r.version === tip)).toBeDefined();
  });

  it('retryConcurrentWrites 0: losing the race throws ConcurrentUpdate carrying the competing SHA', async () => {
    await store(em, repo).put('a.json', '0');
    const peer = store(em, repo);
    let peerVersion: string | null = null;
    const loser = store(em, repo, {
      retryConcurrentWrites: 0,
      transport: racingTransport(async () => {
        peerVersion = (await peer.put('b.json', 'peer')).version;
      }),
    });
    const err = await loser.put('a.json', 'mine').catch((e) => e);
    expect(err).toBeInstanceOf(ConcurrentUpdate);
    expect(err.otherSha).toBe(peerVersion);
    expect(err.data).toMatchObject({ ref: REF, otherSha: peerVersion });
    expect(text((await store(em, repo).get('a.json'))!.value)).toBe('0');
  });

  it('with one retry, the loser rebases the SAME change on the new tip (the peer’s write survives)', async () => {
    await store(em, repo).put('a.json', '0');
    const peer = store(em, repo);
    const loser = store(em, repo, {
      retryConcurrentWrites: 1,
      transport: racingTransport(() =>
        peer.commit([
          { op: 'put', key: 'b.json', value: 'peer' },
          { op: 'put', key: 'a.json', value: 'peer-a' },
        ]),
      ),
    });
    const r = await loser.commit([
      { op: 'put', key: 'a.json', value: 'mine' },
      { op: 'delete', key: 'b.json' },
    ]);
    expect(r.changed).toBe(true);
    const reader = store(em, repo);
    expect(text((await reader.get('a.json'))!.value)).toBe('mine');
    expect(await reader.get('b.json')).toBeNull(); // re-planned: b.json now exists and is deleted
    expect(r.deleted).toEqual(['b.json']);
    expect((await reader.history('a.json')).entries).toHaveLength(3);
  });

  it('a stale cached tip is not a lost race: it re-reads for free even with retryConcurrentWrites 0', async () => {
    const a = store(em, repo, { retryConcurrentWrites: 0 });
    await a.put('a.json', '1');
    await store(em, repo).put('b.json', '2'); // a's cached tip is now stale
    const r = await a.put('a.json', '3');
    expect(r.changed).toBe(true);
    expect(text((await store(em, repo).get('b.json'))!.value)).toBe('2');
  });

  it('a no-op judged on a stale cached tip is confirmed with the ref read (no lost update)', async () => {
    const a = store(em, repo);
    await a.put('a.json', '1');
    await store(em, repo).put('a.json', '2');
    const r = await a.put('a.json', '1'); // equal to a's cached view, but the tip says "2"
    expect(r.changed).toBe(true);
    expect(text((await store(em, repo).get('a.json'))!.value)).toBe('1');
  });

  it('lost reply, then another writer builds on our commit: the re-read sees a descendant → success', async () => {
    await store(em, repo).put('a.json', '0');
    const peer = store(em, repo);
    const inner = fetchTransport();
    let fired = false;
    const s = store(em, repo, {
      transport: {
        async request(req) {
          if (!fired && req.method === 'PATCH') {
            fired = true;
            await inner.request(req); // applied upstream…
            await peer.put('b.json', 'after'); // …another writer builds on it…
            throw new Error('socket hang up'); // …and our reply is lost
          }
          return inner.request(req);
        },
      },
    });
    const r = await s.put('a.json', 'mine');
    expect(r.changed).toBe(true);
    const reader = store(em, repo);
    expect(text((await reader.get('a.json'))!.value)).toBe('mine');
    expect((await reader.history('a.json')).entries.map((e) => e.version)).toContain(r.version);
  });

  it('lost reply and the re-read fails too: TransportError says the outcome is unknown', async () => {
    await store(em, repo).put('a.json', '0');
    const inner = fetchTransport();
    let patched = false;
    const s = store(em, repo, {
      readRetries: 1,
      transport: {
        async request(req) {
          if (req.method === 'PATCH') {
            patched = true;
            throw new Error('socket hang up');
          }
          if (patched) throw new Error('network down');
          return inner.request(req);
        },
      },
    });
    const err = await s.put('a.json', '1').catch((e) => e);
    expect(err.name).toBe('TransportError');
    expect(err.data.outcome).toBe('unknown');
    expect(err.message).toMatch(/may or may not have been applied/);
  });
});
