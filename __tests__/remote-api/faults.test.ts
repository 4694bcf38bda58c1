/** Fault injection against the emulator: 5xx, resets, rate limits, lost replies, truncation, empty repos, bad JSON. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthInvalid,
  AuthMissing,
  EmptyRepository,
  Forbidden,
  InvalidResponse,
  NotFound,
  RateLimited,
  TransportError,
  UpstreamUnavailable,
} from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { emulator, freshRepo, OWNER, ops, since, store, TOKEN } from './helpers.js';

let em: EmulatorHandle;
let repo: string;
const REF = 'refs/docdb/documents';
const text = (b: Uint8Array) => new TextDecoder().decode(b);

beforeAll(async () => {
  em = await emulator();
});
afterAll(async () => {
  await em?.stop();
});
beforeEach(() => {
  em.clearFaults();
  repo = freshRepo(em);
});

function refTip(): string | undefined {
  return em.state.repo(`${OWNER}/${repo}`).db.readRef(REF);
}

function sleeper() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('5xx and connection failures', () => {
  it('retries an idempotent read after a 502 and a reset, then succeeds', async () => {
    const s0 = store(em, repo);
    await s0.put('a.json', '1');
    const z = sleeper();
    const s = store(em, repo, { sleep: z.sleep });
    em.inject({ kind: 'status', status: 502, method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/` });
    em.inject({ kind: 'reset', method: 'GET', path: `/repos/${OWNER}/${repo}/contents/` });
    const got = await s.get('a.json');
    expect(text(got!.value)).toBe('1');
    expect(got!.requests).toBe(4); // ref + contents, plus one retry each
    expect(z.waits).toHaveLength(2);
  });

  for (const kind of ['fetch', 'octokit', 'host', 'recording'] as const) {
    it(`one retry layer: \`requests\` equals the upstream count after a 503 (${kind} transport)`, async () => {
      await store(em, repo).put('a.json', '1');
      em.inject({ kind: 'status', status: 503, method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/` });
      const from = em.requests.length;
      const got = await store(em, repo, {}, kind).get('a.json');
      expect(got!.requests).toBe(3); // ref (503, then 200) + contents
      expect(since(em, from)).toHaveLength(3);
      em.inject({ kind: 'status', status: 503, method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/`, times: 10 });
      const from2 = em.requests.length;
      const err = await store(em, repo, { readRetries: 1 }, kind)
        .head()
        .catch((e) => e);
      expect(err).toBeInstanceOf(UpstreamUnavailable);
      expect(err.data.requests).toBe(2);
      expect(since(em, from2)).toHaveLength(2);
    });
  }

  it('gives up after readRetries with UpstreamUnavailable (5xx) or TransportError (reset), naming operation and status', async () => {
    const s = store(em, repo, { readRetries: 2 });
    em.inject({ kind: 'status', status: 503, method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/`, times: 3 });
    const err = await s.get('a.json').catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailable);
    expect(err.message).toMatch(/^get: read ref \(GET .*\/git\/ref\/docdb\/documents\).*HTTP 503/);
    expect(err.data).toMatchObject({ status: 503, operation: 'get', requests: 3 });
    em.inject({ kind: 'reset', method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/`, times: 3 });
    const err2 = await s.head().catch((e) => e);
    expect(err2).toBeInstanceOf(TransportError);
    expect(err2.message).toMatch(/^head: read ref/);
  });

  it('a hung request times out (fetch transport timeoutMs) as TransportError reason timeout', async () => {
    const s = new RemoteApiRefStore({
      transport: fetchTransport({ timeoutMs: 150 }),
      apiUrl: em.url,
      owner: OWNER,
      repo,
      token: TOKEN,
      readRetries: 0,
    });
    em.inject({ kind: 'hang', method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/` });
    const err = await s.head().catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.data.reason).toBe('timeout');
  });
});

describe('rate limits', () => {
  it('waits out a secondary rate limit (403 and 429 with Retry-After) and retries the same request', async () => {
    // The clock moves only when the store sleeps: the gate this answer closes opens as the wait ends.
    let t = Date.now();
    const waits: number[] = [];
    const z = {
      waits,
      sleep: async (ms: number) => {
        waits.push(ms);
        t += ms;
      },
    };
    const s = store(em, repo, { sleep: z.sleep, now: () => t });
    em.inject({
      kind: 'secondary-rate-limit',
      status: 403,
      retryAfter: 7,
      method: 'POST',
      path: `/repos/${OWNER}/${repo}/git/trees`,
    });
    em.inject({
      kind: 'secondary-rate-limit',
      status: 429,
      retryAfter: 3,
      method: 'POST',
      path: `/repos/${OWNER}/${repo}/git/commits`,
    });
    const r = await s.put('a.json', '1');
    expect(r.changed).toBe(true);
    expect(z.waits).toEqual([7000, 3000]);
    expect(refTip()).toBe(r.version);
  });

  it('a Retry-After longer than maxRetryAfterSeconds fails fast with RateLimited(retryAfter); the token then waits', async () => {
    // Its own token: the answer closes this token's gate for every store of the process (pacing.ts).
    const blocked = 'ghp_blocked0000000000000000000000000000';
    em.state.addToken(blocked, { login: OWNER, repos: '*' });
    const t = Date.now();
    const s = store(em, repo, { token: blocked, maxRetryAfterSeconds: 10, now: () => t });
    em.inject({ kind: 'secondary-rate-limit', status: 429, retryAfter: 120, method: 'GET' });
    const err = await s.get('a.json').catch((e) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect(err.retryAfter).toBe(120);
    expect(err.data.retryAt).toBe(new Date(t + 120_000).toISOString());
    expect(err.message).toMatch(/secondary rate limit/);
    // Another store with the same token sends nothing before the window ends: RateLimited, unsent.
    em.clearLog();
    const other = store(em, repo, { token: blocked, now: () => t + 30_000 });
    const again = await other.put('b.json', '1').catch((e) => e);
    expect(again).toBeInstanceOf(RateLimited);
    expect(again.data).toMatchObject({ sent: false, retryAfter: 90, outcome: 'not-applied' });
    expect(em.requests).toHaveLength(0);
  });

  it('a primary rate limit (403, remaining 0) is RateLimited with the reset time, not retried', async () => {
    const limited = 'ghp_limited00000000000000000000000000000';
    em.state.addToken(limited, { login: OWNER, repos: '*', rateLimit: 2 });
    const z = sleeper();
    const s = store(em, repo, { token: limited, sleep: z.sleep });
    await s.head(); // 404 + repository check: the budget of 2 is used up
    const err = await store(em, repo, { token: limited, sleep: z.sleep })
      .get('a.json')
      .catch((e) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect(err.reset).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(err.message).toMatch(/primary rate limit/);
    expect(z.waits).toEqual([]);
  });
});

describe('lost replies on the ref update', () => {
  it('drop-reply on PATCH: re-reads the ref, finds our commit, reports success (one commit, no duplicate)', async () => {
    const s = store(em, repo);
    const v1 = (await s.put('a.json', '1')).version;
    em.inject({ kind: 'drop-reply', method: 'PATCH', path: `/repos/${OWNER}/${repo}/git/refs/` });
    const from = em.requests.length;
    const r = await s.put('a.json', '2');
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBe(v1);
    expect(refTip()).toBe(r.version);
    const log = ops(em, from);
    expect(log.filter((l) => l.startsWith('PATCH'))).toHaveLength(1);
    expect(log.at(-1)).toBe('GET git/get-ref 200');
    expect((await store(em, repo).history('a.json')).entries).toHaveLength(2);
  });

  it('drop-reply on POST /git/refs (first write) is also resolved by the re-read', async () => {
    const s = store(em, repo);
    em.inject({ kind: 'drop-reply', method: 'POST', path: `/repos/${OWNER}/${repo}/git/refs` });
    const r = await s.put('a.json', '1');
    expect(r.changed).toBe(true);
    expect(refTip()).toBe(r.version);
  });

  it('a reset BEFORE the PATCH was applied: the re-read shows the old tip, the update is sent again', async () => {
    const s = store(em, repo);
    await s.put('a.json', '1');
    em.inject({ kind: 'reset', method: 'PATCH', path: `/repos/${OWNER}/${repo}/git/refs/` });
    const from = em.requests.length;
    const r = await s.put('a.json', '2');
    expect(refTip()).toBe(r.version);
    expect(ops(em, from).filter((l) => l.startsWith('PATCH'))).toHaveLength(2);
  });

  it('a 502 on PATCH is treated as a lost reply too (never reported as failure when applied)', async () => {
    const s = store(em, repo);
    await s.put('a.json', '1');
    em.inject({ kind: 'status', status: 502, method: 'PATCH' });
    const r = await s.put('a.json', '2');
    expect(refTip()).toBe(r.version);
  });
});

describe('truncated trees', () => {
  it('list walks subtrees when the recursive listing is truncated, and returns the complete list', async () => {
    const small = await emulator({ treeTruncateLimit: 5 });
    try {
      const name = freshRepo(small);
      const files: Record<string, string | null> = { 'README.md': null };
      for (let d = 0; d < 4; d++) for (let i = 0; i < 3; i++) files[`d${d}/f${i}.txt`] = `${d}-${i}`;
      small.state.commitFiles(`${OWNER}/${name}`, { branch: REF, files });
      const s = store(small, name);
      const from = small.requests.length;
      const l = await s.list();
      expect(l.entries).toHaveLength(12);
      expect(l.entries[0]!.key).toBe('d0/f0.txt');
      const trees = since(small, from).filter((r) => r.operation === 'git/get-tree');
      // root recursive (truncated; it proves d0 complete by hashing its entries) + root level + one
      // recursive listing per subtree not proven (d1, d2, d3)
      expect(trees).toHaveLength(5);
      // A cold get on the truncated section walks levels too.
      const g = await store(small, name).get('d3/f2.txt');
      expect(text(g!.value)).toBe('3-2');
      // A write is planned on the complete tree: deleting a key listed late still works.
      const w = await store(small, name).commit([
        { op: 'delete', key: 'd3/f2.txt' },
        { op: 'put', key: 'd0/new', value: 'n' },
      ]);
      expect(w.deleted).toEqual(['d3/f2.txt']);
      expect((await store(small, name).list()).entries).toHaveLength(12);
    } finally {
      await small.stop();
    }
  });
});

describe('status mapping', () => {
  it('409 on an empty repository is EmptyRepository for reads and writes', async () => {
    const empty = freshRepo(em, { empty: true });
    const s = store(em, empty);
    await expect(s.get('a.json')).rejects.toBeInstanceOf(EmptyRepository);
    const err = await s.put('a.json', '1').catch((e) => e);
    expect(err).toBeInstanceOf(EmptyRepository);
    expect(err.message).toMatch(/HTTP 409/);
  });

  it('malformed JSON is InvalidResponse naming the operation and step', async () => {
    const s = store(em, repo);
    await store(em, repo).put('a.json', '1');
    em.inject({ kind: 'malformed-json', method: 'GET', path: `/repos/${OWNER}/${repo}/contents/` });
    const err = await s.get('a.json').catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err.message).toMatch(/^get: read path .*not JSON/);
  });

  it('401 with a bad token is AuthInvalid; a write without a token is AuthMissing', async () => {
    const bad = store(em, repo, { token: 'ghp_wrongwrongwrong' });
    const e1 = await bad.get('a.json').catch((e) => e);
    expect(e1).toBeInstanceOf(AuthInvalid);
    expect(e1.message).not.toContain('ghp_wrong');
    const anon = store(em, repo, { token: undefined });
    const from = em.requests.length;
    const e2 = await anon.put('a.json', '1').catch((e) => e);
    expect(e2).toBeInstanceOf(AuthMissing);
    expect(em.requests.slice(from).every((r) => r.method === 'GET')).toBe(true); // no write request sent
    // A public repository is readable without a token (no Authorization header at all).
    await store(em, repo).put('pub.json', 'p');
    const from2 = em.requests.length;
    expect(new TextDecoder().decode((await anon.get('pub.json'))!.value)).toBe('p');
    expect(em.requests.slice(from2).every((r) => !r.authenticated)).toBe(true);
  });

  it('a read-only token writing gets Forbidden; a missing repository is NotFound', async () => {
    const ro = 'ghp_readonly000000000000000000000000000';
    em.state.addToken(ro, { login: 'reader', repos: { [`${OWNER}/${repo}`]: 'read' } });
    const e1 = await store(em, repo, { token: ro })
      .put('a.json', '1')
      .catch((e) => e);
    expect(e1).toBeInstanceOf(Forbidden);
    const e2 = await store(em, 'no-such-repo')
      .get('a.json')
      .catch((e) => e);
    expect(e2).toBeInstanceOf(NotFound);
    expect(e2.message).toMatch(/no-such-repo/);
  });
});
