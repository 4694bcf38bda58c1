import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient } from './openapi-validator.js';

const R = '/repos/acme/data';
let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo('acme/data');
  em.state.addToken('tok', { login: 'acme' });
  api = apiClient(em.url, 'tok');
});
afterAll(() => em.stop());
beforeEach(() => {
  em.clearFaults();
  em.clearLog();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${em.url}${path}`, { ...init, headers: { Authorization: 'Bearer tok', ...(init.headers ?? {}) } });

describe('fault injection', () => {
  it('answers scripted statuses, matched by method and path, for `times` requests after `skip`', async () => {
    em.inject({ kind: 'status', status: 502, method: 'GET', path: `${R}/git/ref/`, skip: 1, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api('GET', `${R}/git/ref/heads/main`)).status);
    expect(statuses).toEqual([200, 502, 502, 200]);
    // A different method or path is untouched.
    em.inject({ kind: 'status', status: 500, method: 'POST', path: /\/git\/blobs$/ });
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
    const failed = await api('POST', `${R}/git/blobs`, { content: 'x' });
    expect(failed.status).toBe(500);
    expect(failed.body.message).toBe('Server Error');
    expect(em.requests.filter((r) => r.fault === 'status')).toHaveLength(3);
    expect(em.requests.filter((r) => r.fault).every((r) => !r.costsBudget)).toBe(true);
  });

  it('sends secondary rate limits with Retry-After (403 by default, 429 on request)', async () => {
    em.inject({ kind: 'secondary-rate-limit', retryAfter: 7 });
    const r = await api('GET', `${R}/git/ref/heads/main`);
    expect(r.status).toBe(403);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body.message).toMatch(/secondary rate limit/);
    em.inject({ kind: 'secondary-rate-limit', status: 429, retryAfter: 1 });
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(429);
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
  });

  it('resets the connection, then keeps serving', async () => {
    em.inject({ kind: 'reset', path: `${R}/git/ref/` });
    await expect(get(`${R}/git/ref/heads/main`)).rejects.toThrow();
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
    expect(em.requests[0]).toMatchObject({ fault: 'reset', status: 0, costsBudget: false });
  });

  it('hangs until the client aborts, then keeps serving', async () => {
    em.inject({ kind: 'hang' });
    const ctl = new AbortController();
    const pending = get(`${R}/git/ref/heads/main`, { signal: ctl.signal });
    await new Promise((r) => setTimeout(r, 50));
    ctl.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect((await api('GET', `${R}/git/ref/heads/main`)).status).toBe(200);
  });

  it('sends malformed JSON with a 200', async () => {
    em.inject({ kind: 'malformed-json' });
    const r = await get(`${R}/git/ref/heads/main`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await expect(r.json()).rejects.toThrow();
  });

  it('applies a PATCH but drops its reply (the ref has moved when re-read)', async () => {
    const db = em.state.repo('acme/data').db;
    const tip = db.readRef('refs/heads/main') as string;
    const next = em.state.commitFiles('acme/data', { branch: 'refs/tmp/next', files: { 'n.txt': 'n' } });
    expect(db.isAncestor(tip, next)).toBe(true);
    em.inject({ kind: 'drop-reply', method: 'PATCH' });
    await expect(
      fetch(`${em.url}${R}/git/refs/heads/main`, {
        method: 'PATCH',
        headers: { Authorization: 'Bearer tok', 'Content-Type': 'application/json' },
        body: JSON.stringify({ sha: next, force: false }),
      }),
    ).rejects.toThrow();
    const after = await api('GET', `${R}/git/ref/heads/main`);
    expect(after.body.object.sha).toBe(next);
    expect(em.requests.find((r) => r.fault === 'drop-reply')).toMatchObject({
      method: 'PATCH',
      status: 200,
      costsBudget: true,
    });
  });

  it('adds fixed latency', async () => {
    const slow = await startEmulator({ latencyMs: 120 });
    try {
      slow.state.createRepo('a/b');
      const t0 = performance.now();
      expect((await apiClient(slow.url)('GET', '/repos/a/b')).status).toBe(200);
      // Only a lower bound: the server waited at least the configured latency.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(100);
    } finally {
      await slow.stop();
    }
  });

  it('jitters latency uniformly between min and max', async () => {
    const slow = await startEmulator({ latencyMs: { min: 20, max: 60 } });
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.25);
    const timer = vi.spyOn(globalThis, 'setTimeout');
    try {
      slow.state.createRepo('a/b');
      expect((await apiClient(slow.url)('GET', '/repos/a/b')).status).toBe(200);
      // min + 0.25 * (max - min): the server slept 30 ms, not min or max.
      expect(timer.mock.calls.map((c) => c[1])).toContain(30);
    } finally {
      random.mockRestore();
      timer.mockRestore();
      await slow.stop();
    }
  });

  it('validates fault options', () => {
    expect(() => em.inject({ kind: 'reset', times: 0 })).toThrow(/times/);
    expect(() => em.inject({ kind: 'reset', skip: -1 })).toThrow(/skip/);
  });

  it('rejects latency it cannot apply, naming the option', async () => {
    for (const latencyMs of [-1, Number.NaN, { min: 50, max: 10 }, { min: -5, max: 5 }, { min: 1 } as never]) {
      await expect(startEmulator({ latencyMs })).rejects.toThrow(/latencyMs must be/);
    }
  });
});
