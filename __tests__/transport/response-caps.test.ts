/**
 * Response-size caps (issue 27 items 3 and 8; docs/transports.md § Response size): every transport reads
 * a success body up to a cap and refuses more with `TransportError` (reason `too-large`), and keeps only
 * the first 8 KiB of an error body, against a loopback server that writes for as long as the client reads.
 * Each test that meets an endless body would hang without the cap (the body never ends), so none needs a
 * timeout to fail; the server's count of what it wrote shows the client stopped reading.
 */
import { Octokit } from '@octokit/rest';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import {
  DEFAULT_MAX_ERROR_BODY_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  fetchTransport,
  type HttpTransport,
  hostTransport,
  octokitTransport,
} from '../../src/transport/index.js';
import { type HostileServer, hostileServer } from './hostile-server.js';

const MiB = 1024 * 1024;
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function serve(...args: Parameters<typeof hostileServer>): Promise<HostileServer> {
  const s = await hostileServer(...args);
  servers.push(s);
  return s;
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const octokitOf = (url: string, caps: { maxResponseBytes?: number } = {}) =>
  createOctokit({ baseUrl: url, writeSpacingMs: 0, retryAfterBaseMs: 1, warn: () => {}, ...caps });

const get = (t: HttpTransport, url: string, maxResponseBytes?: number) =>
  t.request({ method: 'GET', url: `${url}/x`, headers: {}, ...(maxResponseBytes ? { maxResponseBytes } : {}) });

const tooLarge = async (p: Promise<unknown>): Promise<TransportError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(TransportError);
  expect((e as TransportError).data.reason).toBe('too-large');
  return e as TransportError;
};

const transports: [string, (url: string, caps?: { maxResponseBytes?: number }) => HttpTransport][] = [
  ['fetchTransport', (_url, caps = {}) => fetchTransport(caps)],
  ['octokitTransport(createOctokit)', (url, caps = {}) => octokitTransport(octokitOf(url, caps))],
  [
    'octokitTransport(new Octokit)',
    (url, caps = {}) => octokitTransport(new Octokit({ baseUrl: url, log: quiet }), caps),
  ],
];

describe.each(transports)('%s', (_name, make) => {
  it('a 500 whose body never ends: the status comes back with the first 8 KiB, the rest is not read', async () => {
    const s = await serve({ kind: 'endless', status: 500, prefix: '{"message":"Server Error","filler":"' });
    const res = await get(make(s.url), s.url);
    expect(res.status).toBe(500);
    expect(res.body.length).toBe(DEFAULT_MAX_ERROR_BODY_BYTES);
    expect(new TextDecoder().decode(res.body.subarray(0, 24))).toBe('{"message":"Server Error');
    const [hit] = s.hits;
    await hit?.done;
    expect(hit?.abandoned).toBe(true);
    // Socket buffers on both sides hold a few MiB at most; an unbounded reader takes everything, forever.
    expect(hit?.written).toBeLessThan(64 * MiB);
  });

  it('a 200 over the cap declared by Content-Length is refused before its body is read', async () => {
    // 256 MiB: more than loopback socket buffers take (Node 22 lets a few MiB through before the client leaves).
    const s = await serve({ kind: 'sized', status: 200, bytes: 256 * MiB, declared: true });
    const e = await tooLarge(get(make(s.url, { maxResponseBytes: 64 * 1024 }), s.url));
    expect(e.data).toMatchObject({ limit: 65536, declared: 256 * MiB });
    expect(e.message).toMatch(/answered 268435456 bytes \(Content-Length\), over the transport's response-size limit/);
    expect(e.message).toMatch(/raise maxResponseBytes/);
    expect(s.hits).toHaveLength(1);
    await s.hits[0]?.done;
    expect(s.hits[0]?.abandoned).toBe(true);
    expect(s.hits[0]?.written).toBeLessThan(64 * MiB);
  });

  it('a 200 over the cap without Content-Length (chunked, endless) is refused at the cap', async () => {
    const s = await serve({ kind: 'endless', status: 200 });
    const e = await tooLarge(get(make(s.url, { maxResponseBytes: 64 * 1024 }), s.url));
    expect(e.message).toMatch(/answered more than 65536 bytes, over the transport's response-size limit/);
    expect(s.hits).toHaveLength(1);
    await s.hits[0]?.done;
    expect(s.hits[0]?.abandoned).toBe(true);
  });

  it("a request's own maxResponseBytes wins over the transport's, and the message says so", async () => {
    const s = await serve({ kind: 'sized', status: 200, bytes: 5000, declared: false });
    const t = make(s.url, { maxResponseBytes: MiB });
    expect((await get(t, s.url)).body.length).toBe(5000);
    const e = await tooLarge(get(t, s.url, 1000));
    expect(e.message).toMatch(/more than 1000 bytes, over the limit set for this request \(maxResponseBytes: 1000\)/);
  });

  it('the default cap (160 MiB) holds without any option: a declared 160 MiB + 1 is refused', async () => {
    const s = await serve({ kind: 'sized', status: 200, bytes: DEFAULT_MAX_RESPONSE_BYTES + 1, declared: true });
    const e = await tooLarge(get(make(s.url), s.url));
    expect(e.data.limit).toBe(167_772_160);
    expect(e.message).toMatch(/maxResponseBytes: 167772160, 160 MiB/);
    await s.hits[0]?.done;
    expect(s.hits[0]?.written).toBeLessThan(64 * MiB);
  });
});

describe('createOctokit used directly (sources, GraphQL)', () => {
  it('a body over the cap is a TransportError and is not retried by plugin-retry', async () => {
    const s = await serve({ kind: 'endless', status: 200 });
    const octokit = octokitOf(s.url, { maxResponseBytes: 64 * 1024 });
    await tooLarge(octokit.request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' }));
    expect(s.hits).toHaveLength(1);
  });

  it('octokit.graphql: an answer over the cap is the same TransportError, sent once', async () => {
    const s = await serve({ kind: 'endless', status: 200, prefix: '{"data":{"x":"' });
    const octokit = octokitOf(s.url, { maxResponseBytes: 64 * 1024 });
    await tooLarge(octokit.graphql('query { viewer { login } }'));
    expect(s.hits).toHaveLength(1);
  });

  it('an endless 500 is retried (it is a 500), each answer read to 8 KiB, then fails with the status', async () => {
    const s = await serve({ kind: 'endless', status: 500, prefix: '{"message":"Server Error","x":"' });
    const e = (await octokitOf(s.url)
      .request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' })
      .catch((x: unknown) => x)) as { status?: number; response?: { data?: unknown } };
    expect(e.status).toBe(500);
    expect(String(e.response?.data).length).toBe(DEFAULT_MAX_ERROR_BODY_BYTES);
    expect(s.hits).toHaveLength(4);
    for (const hit of s.hits) {
      await hit.done;
      expect(hit.abandoned).toBe(true);
    }
  });

  it('options are validated, naming the option', () => {
    expect(() => createOctokit({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes must be a positive integer/);
    expect(() => fetchTransport({ maxErrorBodyBytes: 1.5 })).toThrow(/maxErrorBodyBytes must be a positive integer/);
  });
});

describe('hostTransport', () => {
  it('holds what the host hands back to the same caps', async () => {
    const big = new Uint8Array(2000).fill(120);
    const t = hostTransport(async (req) => ({ status: req.url.endsWith('/err') ? 502 : 200, body: big }), {
      maxResponseBytes: 1000,
      maxErrorBodyBytes: 100,
    });
    await tooLarge(t.request({ method: 'GET', url: 'https://h.example/ok', headers: {} }));
    const res = await t.request({ method: 'GET', url: 'https://h.example/err', headers: {} });
    expect(res.status).toBe(502);
    expect(res.body.length).toBe(100);
  });
});
