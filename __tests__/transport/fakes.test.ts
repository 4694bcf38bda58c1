/** hostTransport normalisation and the recording fake itself. */
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { hostTransport, recordingTransport } from '../../src/transport/index.js';

const req = { method: 'GET', url: 'https://api.github.com/x?q=1', headers: { A: '1' } };

describe('hostTransport', () => {
  it('normalises header pairs/records and string/ArrayBuffer/null bodies', async () => {
    const a = await hostTransport(async () => ({ status: 200, headers: [['X-One', '1']], body: 'hé' })).request(req);
    expect(a).toEqual({ status: 200, headers: { 'x-one': '1' }, body: new TextEncoder().encode('hé') });
    const b = await hostTransport(async () => ({
      status: 404,
      headers: { 'Content-Type': 'x' },
      body: new Uint8Array([1, 2]).buffer,
    })).request(req);
    expect(b.headers).toEqual({ 'content-type': 'x' });
    expect([...b.body]).toEqual([1, 2]);
    const c = await hostTransport(async () => ({ status: 304, body: null })).request(req);
    expect(c.body.length).toBe(0);
  });

  it('passes the request through unchanged and turns a rejection into TransportError without the query', async () => {
    const seen: unknown[] = [];
    const err = await hostTransport(async (r) => {
      seen.push(r);
      throw new Error('offline');
    })
      .request(req)
      .catch((e) => e);
    expect(seen[0]).toEqual(req);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.data).toMatchObject({ reason: 'network', method: 'GET', url: 'https://api.github.com/x' });
    expect(err.message).not.toContain('q=1');
  });

  it('rejects a host answer without a status, and a non-function host', async () => {
    await expect(hostTransport(async () => ({}) as never).request(req)).rejects.toBeInstanceOf(TransportError);
    expect(() => hostTransport(undefined as never)).toThrow(/function/);
  });
});

describe('recordingTransport', () => {
  it('answers from routes first (latest wins), then the queue, and records everything', async () => {
    const t = recordingTransport()
      .route('GET', '/a', { status: 200, body: 'first' })
      .route('GET', /\/a$/, { status: 201, body: 'second' })
      .enqueue({ status: 202, body: { q: 1 } }, new Error('lost'));
    expect((await t.request({ method: 'GET', url: 'http://h/a', headers: {} })).status).toBe(201);
    const q = await t.request({
      method: 'POST',
      url: 'http://h/b',
      headers: {},
      body: new TextEncoder().encode('{"x":1}'),
    });
    expect(q.status).toBe(202);
    expect(q.headers['content-type']).toMatch(/json/);
    await expect(t.request({ method: 'GET', url: 'http://h/c', headers: {} })).rejects.toThrow('lost');
    await expect(t.request({ method: 'GET', url: 'http://h/d', headers: {} })).rejects.toThrow(/no scripted response/);
    expect(t.requests.map((r) => r.url)).toEqual(['http://h/a', 'http://h/b', 'http://h/c', 'http://h/d']);
    expect(t.requests[1]!.json()).toEqual({ x: 1 });
    expect(t.pending).toBe(0);
    t.clear();
    expect(t.requests).toHaveLength(0);
  });

  it('with an inner transport, unscripted requests pass through and are still recorded', async () => {
    const inner = recordingTransport().enqueue({ status: 299 });
    const t = recordingTransport({ inner });
    expect((await t.request({ method: 'GET', url: 'http://h/', headers: {} })).status).toBe(299);
    expect(t.requests).toHaveLength(1);
    expect(inner.requests).toHaveLength(1);
  });
});
