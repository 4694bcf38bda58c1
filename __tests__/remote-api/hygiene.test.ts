/** Token hygiene and caches: the token never appears in caches, logs, errors, or requests to another origin. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCacheBackend } from '../../src/cache/backend.js';
import { tokenIdentity } from '../../src/cache/git-cache.js';
import { InvalidResponse } from '../../src/core/errors.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import type { RemoteApiLogEvent } from '../../src/stores/remote-api/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { recordingTransport } from '../../src/transport/index.js';
import { emulator, freshRepo, makeTransport, OWNER, store, TOKEN } from './helpers.js';

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator();
});
afterAll(async () => {
  await em?.stop();
});

/** Everything reachable from a value, as text (errors with causes and data, cache entries, bytes as text). */
function deepText(v: unknown, seen = new Set<unknown>()): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v !== 'object') return String(v);
  if (seen.has(v)) return '';
  seen.add(v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  let out = '';
  if (v instanceof Error) out += `${v.name} ${v.message} ${v.stack ?? ''} ${deepText(v.cause, seen)}`;
  for (const k of Reflect.ownKeys(v)) out += ` ${String(k)} ${deepText((v as Record<PropertyKey, unknown>)[k], seen)}`;
  return out;
}

const hashInput = `docdb token identity v1\u0000${TOKEN}`;

describe('token hygiene', () => {
  it('no cache entry holds the token or its hash input; the ref tip is keyed by a token hash', async () => {
    const repo = freshRepo(em);
    const backend = new MemoryCacheBackend();
    const s = store(em, repo, { cache: { backend } });
    await s.put('a/b.json', '{"secret":"no"}');
    await s.get('a/b.json');
    await s.list();
    await s.history('a/b.json');
    const dump = await s.dumpCache();
    expect(dump.length).toBeGreaterThan(3);
    const all = deepText(dump);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(TOKEN.slice(4, 20));
    expect(all).not.toContain(hashInput);
    expect(dump.some(([k]) => k.includes(`|ref|refs/docdb/documents|${tokenIdentity(TOKEN)}`))).toBe(true);
    expect(tokenIdentity(TOKEN)).toMatch(/^[0-9a-f]{40}$/);
    expect(tokenIdentity(undefined)).toBe('anonymous');
  });

  for (const kind of ['fetch', 'octokit', 'host'] as const) {
    it(`errors and logs never contain the token (${kind} transport)`, async () => {
      const repo = freshRepo(em);
      const events: RemoteApiLogEvent[] = [];
      const s = store(em, repo, { logger: (e) => events.push(e), readRetries: 1 }, kind);
      await s.put('a.json', '1');
      const errors: unknown[] = [];
      em.inject({ kind: 'reset', method: 'GET', path: `/repos/${OWNER}/${repo}/git/ref/`, times: 10 });
      errors.push(
        await store(em, repo, { readRetries: 1, logger: (e) => events.push(e) }, kind)
          .head()
          .catch((e) => e),
      );
      em.clearFaults();
      em.inject({ kind: 'drop-reply', method: 'PATCH' });
      await s.put('a.json', '2');
      em.inject({ kind: 'malformed-json', method: 'GET', path: `/repos/${OWNER}/${repo}/contents/` });
      errors.push(
        await store(em, repo, {}, kind)
          .get('a.json')
          .catch((e) => e),
      );
      em.inject({ kind: 'status', status: 500, method: 'POST', times: 10 });
      errors.push(await s.put('a.json', '3').catch((e) => e));
      em.clearFaults();
      const bad = `${TOKEN.slice(0, -4)}XXXX`;
      errors.push(
        await store(em, repo, { token: bad }, kind)
          .get('a.json')
          .catch((e) => e),
      );
      expect(errors.every((e) => e instanceof Error)).toBe(true);
      expect(events.length).toBeGreaterThan(0);
      const text =
        deepText(errors) +
        deepText(errors.map((e) => (e as { toJSON?: () => unknown }).toJSON?.())) +
        JSON.stringify(events);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(bad);
    });
  }

  it('a Link to another origin is not followed (and so never receives the token)', async () => {
    const t = recordingTransport().enqueue({
      status: 200,
      headers: { link: '<https://evil.example.com/repos/octo/data/commits?page=2>; rel="next"' },
      body: [
        {
          sha: 'a'.repeat(40),
          commit: {
            message: 'm',
            author: { name: 'a', email: 'a@x', date: '2024-01-01T00:00:00Z' },
            committer: { name: 'a', email: 'a@x', date: '2024-01-01T00:00:00Z' },
          },
          parents: [],
        },
      ],
    });
    const s = new RemoteApiRefStore({ transport: t, owner: 'octo', repo: 'data', token: TOKEN });
    const err = await s.history('k').catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err.message).toMatch(/evil\.example\.com.*refusing/);
    expect(t.requests).toHaveLength(1);
    expect(t.requests.some((r) => r.url.includes('evil'))).toBe(false);
  });

  it('sections are independent: two refs of one repository do not share tips', async () => {
    const repo = freshRepo(em);
    const backend = new MemoryCacheBackend();
    const a = store(em, repo, { ref: 'refs/docdb/a', cache: { backend } });
    const b = store(em, repo, { ref: 'refs/docdb/b', cache: { backend } });
    await a.put('k', 'A');
    await b.put('k', 'B');
    expect(new TextDecoder().decode((await a.get('k'))!.value)).toBe('A');
    expect(new TextDecoder().decode((await b.get('k'))!.value)).toBe('B');
    expect(await a.head()).not.toBe(await b.head());
  });

  it('ETags are not shared between tokens (the ref-tip cache is keyed by token identity)', async () => {
    const repo = freshRepo(em);
    const other = 'ghp_OtherToken0000000000000000000000000';
    em.state.addToken(other, { login: OWNER, repos: '*' });
    const backend = new MemoryCacheBackend();
    const a = store(em, repo, { cache: { backend } });
    await a.put('k', '1');
    await a.get('k');
    const b = new RemoteApiRefStore({
      transport: makeTransport('fetch', em),
      apiUrl: em.url,
      owner: OWNER,
      repo,
      token: other,
      cache: { backend },
    });
    const from = em.requests.length;
    await b.get('k');
    expect(em.requests[from]!.status).toBe(200); // not a 304 on the other token's ETag
  });
});

describe('MemoryCacheBackend', () => {
  it('evicts least recently used entries within maxBytes', () => {
    const c = new MemoryCacheBackend({ maxBytes: 100 });
    c.set('a', 'A', 40);
    c.set('b', 'B', 40);
    expect(c.get('a')).toBe('A'); // a is now most recent
    c.set('c', 'C', 40); // evicts b
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('A');
    expect(c.get('c')).toBe('C');
    expect(c.stats()).toMatchObject({ entries: 2, bytes: 80, evictions: 1 });
    c.set('huge', 'H', 1000); // larger than the whole cache: not stored, nothing evicted
    expect(c.get('huge')).toBeUndefined();
    expect(c.stats().entries).toBe(2);
    c.set('a', 'A2', 10); // replacing adjusts the byte count
    expect(c.stats().bytes).toBe(50);
  });

  it('keeps exactly the most recent entries under sustained churn (100k inserts into a 10k cache)', () => {
    const c = new MemoryCacheBackend({ maxBytes: 10_000 });
    for (let i = 0; i < 100_000; i++) {
      c.set(`k${i}`, i, 1);
      if (i % 3 === 0) c.get('k0'); // k0 stays hot while everything else churns
    }
    expect(c.stats()).toMatchObject({ entries: 10_000, bytes: 10_000, evictions: 90_000 });
    expect(c.get('k0')).toBe(0);
    expect(c.get('k99999')).toBe(99_999);
    expect(c.get('k90001')).toBe(90_001);
    expect(c.get('k90000')).toBeUndefined(); // evicted to make room for k0's hits
    const keys = [...c.entries()].map(([k]) => k);
    expect(keys[0]).toBe('k90001'); // most recently used first
  });

  it('a store with a tiny cache still answers correctly (evicted objects are refetched)', async () => {
    const repo = freshRepo(em);
    const s = store(em, repo, { cache: { maxBytes: 300 } });
    await s.commit(
      Array.from({ length: 5 }, (_, i) => ({ op: 'put' as const, key: `d${i}/k`, value: `v${i}`.repeat(50) })),
    );
    for (let i = 0; i < 5; i++)
      expect(new TextDecoder().decode((await s.get(`d${i}/k`))!.value)).toBe(`v${i}`.repeat(50));
  });
});
