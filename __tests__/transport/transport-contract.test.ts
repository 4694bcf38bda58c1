/**
 * One transport contract, run by every transport against the emulator: statuses are responses
 * (never thrown), bodies are bytes, header names are lowercase, and only a missing response rejects.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import {
  fetchTransport,
  type HttpTransport,
  hostTransport,
  octokitTransport,
  recordingTransport,
} from '../../src/transport/index.js';

const TOKEN = 'ghp_TransportContract000000000000000000';
let em: EmulatorHandle;
const REPO = 'octo/transport';

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

const TRANSPORTS: Record<string, () => HttpTransport> = {
  fetch: () => fetchTransport({ timeoutMs: 5000 }),
  // retries: 0 so the contract sees raw answers; the retry policy is tested separately below.
  octokit: () =>
    octokitTransport(
      createOctokit({
        baseUrl: em.url,
        retries: 0,
        writeSpacingMs: 0,
        retryAfterBaseMs: 1,
        maxRateLimitRetries: 0,
        warn: () => {},
      }),
    ),
  host: () =>
    hostTransport(async (req) => {
      const init: RequestInit = { method: req.method, headers: req.headers };
      if (req.body) init.body = req.body as unknown as BodyInit;
      const res = await fetch(req.url, init);
      return {
        status: res.status,
        headers: res.headers as unknown as Iterable<[string, string]>,
        body: await res.arrayBuffer(),
      };
    }),
  'recording (pass-through)': () => recordingTransport({ inner: fetchTransport() }),
};

const H = (extra: Record<string, string> = {}) => ({
  accept: 'application/vnd.github+json',
  'x-github-api-version': '2022-11-28',
  'user-agent': 'docdb-test',
  authorization: `Bearer ${TOKEN}`,
  ...extra,
});
const json = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b));

for (const [name, make] of Object.entries(TRANSPORTS)) {
  describe(`transport contract: ${name}`, () => {
    const url = (p: string) => `${em.url}/repos/${REPO}${p}`;

    it('2xx: status, lowercase headers, body bytes', async () => {
      const res = await make().request({ method: 'GET', url: url('/git/ref/heads/main'), headers: H() });
      expect(res.status).toBe(200);
      expect(res.body).toBeInstanceOf(Uint8Array);
      expect(json(res.body).ref).toBe('refs/heads/main');
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers.etag).toBeTruthy();
      expect(Object.keys(res.headers).every((k) => k === k.toLowerCase())).toBe(true);
    });

    it('304 to If-None-Match is a response', async () => {
      const t = make();
      const first = await t.request({ method: 'GET', url: url('/git/ref/heads/main'), headers: H() });
      const res = await t.request({
        method: 'GET',
        url: url('/git/ref/heads/main'),
        headers: H({ 'if-none-match': first.headers.etag as string }),
      });
      expect(res.status).toBe(304);
    });

    it('4xx and 5xx are responses with their JSON bodies', async () => {
      const t = make();
      const nf = await t.request({ method: 'GET', url: url('/git/ref/docdb/none'), headers: H() });
      expect(nf.status).toBe(404);
      expect(json(nf.body).message).toBe('Not Found');
      em.inject({
        kind: 'status',
        status: 500,
        method: 'GET',
        path: `/repos/${REPO}/git/ref/`,
        body: { message: 'boom' },
      });
      const ise = await t.request({ method: 'GET', url: url('/git/ref/heads/main'), headers: H() });
      expect(ise.status).toBe(500);
      expect(json(ise.body).message).toBe('boom');
      const unauth = await t.request({
        method: 'GET',
        url: url('/git/ref/heads/main'),
        headers: H({ authorization: 'Bearer nope' }),
      });
      expect(unauth.status).toBe(401);
    });

    it('POST bodies arrive byte for byte (201 with the blob SHA)', async () => {
      const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
      const body = new TextEncoder().encode(
        JSON.stringify({ content: Buffer.from(bytes).toString('base64'), encoding: 'base64' }),
      );
      const res = await make().request({
        method: 'POST',
        url: url('/git/blobs'),
        headers: H({ 'content-type': 'application/json; charset=utf-8' }),
        body,
      });
      expect(res.status).toBe(201);
      expect(json(res.body).sha).toBe(blobSha(bytes));
    });

    it('an unparsable 200 body comes back as raw bytes', async () => {
      em.inject({ kind: 'malformed-json', method: 'GET', path: `/repos/${REPO}/git/ref/` });
      const res = await make().request({ method: 'GET', url: url('/git/ref/heads/main'), headers: H() });
      expect(res.status).toBe(200);
      expect(() => json(res.body)).toThrow();
    });

    it('a connection reset rejects (no response)', async () => {
      em.inject({ kind: 'reset', method: 'GET', path: `/repos/${REPO}/git/ref/` });
      const err = await make()
        .request({ method: 'GET', url: url('/git/ref/heads/main'), headers: H() })
        .catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      if (name !== 'recording (pass-through)') expect(err).toBeInstanceOf(TransportError);
      expect(String(err.message)).not.toContain(TOKEN);
    });

    it('a POST whose reply was lost after the server applied it rejects and is never sent again (issue 21)', async () => {
      // Warm a keep-alive connection first, so the POST may go out on a reused one.
      await make().request({ method: 'GET', url: url('/git/ref/heads/main'), headers: H() });
      em.inject({ kind: 'drop-reply', method: 'POST', path: `/repos/${REPO}/git/blobs` });
      const from = em.requests.length;
      const err = await make()
        .request({
          method: 'POST',
          url: url('/git/blobs'),
          headers: H({ 'content-type': 'application/json; charset=utf-8' }),
          body: new TextEncoder().encode(JSON.stringify({ content: `lost ${name}`, encoding: 'utf-8' })),
        })
        .catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      expect(em.requests.slice(from).map((r) => `${r.method} ${r.fault ?? r.status}`)).toEqual(['POST drop-reply']);
    });
  });
}

describe('fetchTransport specifics', () => {
  it('times out a hung request with TransportError reason "timeout"', async () => {
    em.inject({ kind: 'hang', method: 'GET', path: `/repos/${REPO}/git/ref/` });
    const err = await fetchTransport({ timeoutMs: 100 })
      .request({ method: 'GET', url: `${em.url}/repos/${REPO}/git/ref/heads/main`, headers: H() })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.data.reason).toBe('timeout');
  });

  it('an aborted signal rejects with reason "aborted"; requests use cache: no-store', async () => {
    const seen: RequestInit[] = [];
    const t = fetchTransport({
      fetch: async (_u, init) => {
        seen.push(init as RequestInit);
        throw new DOMException('aborted', 'AbortError');
      },
    });
    const ac = new AbortController();
    ac.abort();
    const err = await t
      .request({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: {}, signal: ac.signal })
      .catch((e) => e);
    expect(err.data.reason).toBe('aborted');
    expect(seen[0]!.cache).toBe('no-store');
  });

  it('validates timeoutMs', () => {
    expect(() => fetchTransport({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});

describe('octokitTransport specifics (fake Octokit)', () => {
  const req = { method: 'GET', url: 'https://api.github.com/x', headers: { Accept: 'a' } };
  it('a RequestError WITH a response (real 500, 304, 404) is a response', async () => {
    for (const status of [500, 304, 404]) {
      const t = octokitTransport({
        request: async () => {
          throw Object.assign(new Error('x'), {
            status,
            response: { status, headers: { 'X-A': '1' }, data: { message: 'm' } },
          });
        },
      });
      const res = await t.request(req);
      expect(res.status).toBe(status);
      expect(res.headers['x-a']).toBe('1');
      expect(json(res.body)).toEqual({ message: 'm' });
    }
  });
  it('a RequestError with status 500 and NO response is a connection failure (rejects)', async () => {
    const t = octokitTransport({
      request: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'HttpError', status: 500 });
      },
    });
    const err = await t.request(req).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.data.reason).toBe('network');
  });
  it('passes raw success bodies through and marks every request non-retryable for plugin-retry', async () => {
    const calls: Record<string, unknown>[] = [];
    const t = octokitTransport({
      request: async (p: Record<string, unknown>) => {
        calls.push(p);
        return { status: 200, headers: {}, data: new Response('{"raw": 1}').body };
      },
    });
    const res = await t.request({ ...req, method: 'PATCH', body: new TextEncoder().encode('{}') });
    expect(new TextDecoder().decode(res.body)).toBe('{"raw": 1}');
    expect(calls[0]!.request).toMatchObject({ parseSuccessResponseBody: false, retries: 0 });
    await t.request(req);
    expect(calls[1]!.request).toMatchObject({ retries: 0 }); // safe methods too: the store retries them
    expect(calls[0]!.headers).toEqual({ accept: 'a' });
  });
  it('rejects a non-Octokit argument', () => {
    expect(() => octokitTransport({} as never)).toThrow(/Octokit/);
  });
});

describe('createOctokit policy (against the emulator)', () => {
  const base = () =>
    createOctokit({ auth: TOKEN, baseUrl: em.url, writeSpacingMs: 0, retryAfterBaseMs: 1, warn: () => {} });
  it('retries a safe request after a 5xx, but never a POST (octokit.request, as the projection sources use it)', async () => {
    em.inject({ kind: 'status', status: 502, method: 'GET', path: `/repos/${REPO}/git/ref/` });
    let from = em.requests.length;
    const ok = await base().request('GET /repos/{owner}/{repo}/git/ref/{ref}', {
      owner: 'octo',
      repo: 'transport',
      ref: 'heads/main',
    });
    expect(ok.status).toBe(200);
    expect(em.requests.length - from).toBe(2);
    em.inject({ kind: 'status', status: 502, method: 'POST' });
    from = em.requests.length;
    await expect(
      base().request('POST /repos/{owner}/{repo}/git/blobs', { owner: 'octo', repo: 'transport', content: 'y' }),
    ).rejects.toMatchObject({ status: 502 });
    expect(em.requests.length - from).toBe(1);
  });

  it('a POST whose connection dies after the server applied it (Octokit: status 500, no response) is not retried', async () => {
    em.inject({ kind: 'drop-reply', method: 'POST', path: `/repos/${REPO}/git/blobs` });
    const from = em.requests.length;
    const err = await base()
      .request('POST /repos/{owner}/{repo}/git/blobs', { owner: 'octo', repo: 'transport', content: 'dropped' })
      .catch((e) => e);
    expect(err).toMatchObject({ status: 500 });
    expect(err.response).toBeUndefined();
    expect(em.requests.length - from).toBe(1);
  });

  it('through octokitTransport nothing is retried by plugin-retry: the store owns (and counts) retries', async () => {
    const t = octokitTransport(base());
    for (const method of ['GET', 'POST'] as const) {
      em.inject({ kind: 'status', status: 502, method });
      const from = em.requests.length;
      const res = await t.request({
        method,
        url: `${em.url}/repos/${REPO}/${method === 'GET' ? 'git/ref/heads/main' : 'git/blobs'}`,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: new TextEncoder().encode('{"content":"x","encoding":"utf-8"}') } : {}),
      });
      expect(res.status).toBe(502);
      expect(em.requests.length - from).toBe(1);
    }
    em.clearFaults();
  });

  it('does not retry 409 (empty repository) or 404 (octokit.request)', async () => {
    for (const status of [409, 404]) {
      em.inject({ kind: 'status', status, method: 'GET', path: `/repos/${REPO}/git/ref/` });
      const from = em.requests.length;
      await expect(
        base().request('GET /repos/{owner}/{repo}/git/ref/{ref}', {
          owner: 'octo',
          repo: 'transport',
          ref: 'heads/main',
        }),
      ).rejects.toMatchObject({ status });
      expect(em.requests.length - from).toBe(1);
    }
  });

  it('honours a secondary rate limit Retry-After and retries; gives up beyond maxRetryAfterSeconds', async () => {
    const events: unknown[] = [];
    const o = createOctokit({
      auth: TOKEN,
      baseUrl: em.url,
      writeSpacingMs: 0,
      retryAfterBaseMs: 1,
      maxRetryAfterSeconds: 30,
      warn: () => {},
      onRateLimit: (e) => void events.push(e),
    });
    em.inject({
      kind: 'secondary-rate-limit',
      status: 403,
      retryAfter: 5,
      method: 'GET',
      path: `/repos/${REPO}/git/ref/`,
    });
    const from = em.requests.length;
    const res = await octokitTransport(o).request({
      method: 'GET',
      url: `${em.url}/repos/${REPO}/git/ref/heads/main`,
      headers: {},
    });
    expect(res.status).toBe(200);
    expect(em.requests.length - from).toBe(2);
    expect(events).toMatchObject([{ kind: 'secondary', retryAfter: 5, method: 'GET' }]);
    em.inject({
      kind: 'secondary-rate-limit',
      status: 429,
      retryAfter: 600,
      method: 'GET',
      path: `/repos/${REPO}/git/ref/`,
    });
    const res2 = await octokitTransport(o).request({
      method: 'GET',
      url: `${em.url}/repos/${REPO}/git/ref/heads/main`,
      headers: {},
    });
    expect(res2.status).toBe(429);
    expect(res2.headers['retry-after']).toBe('600');
  });

  it('a primary rate limit is timed from x-ratelimit-reset; a wait beyond maxRetryAfterSeconds gives up', async () => {
    const limited = 'ghp_TransportPrimary00000000000000000000';
    em.state.addToken(limited, { login: 'octo', repos: '*', rateLimit: 1 });
    const events: { kind: string; retryAfter: number }[] = [];
    const o = createOctokit({
      auth: limited,
      baseUrl: em.url,
      writeSpacingMs: 0,
      retryAfterBaseMs: 1,
      maxRetryAfterSeconds: 30,
      warn: () => {},
      onRateLimit: (e) => void events.push(e),
    });
    const t = octokitTransport(o);
    const get = () => t.request({ method: 'GET', url: `${em.url}/repos/${REPO}/git/ref/heads/main`, headers: {} });
    expect((await get()).status).toBe(200);
    const from = em.requests.length;
    const res = await get();
    expect(res.status).toBe(403);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(events).toHaveLength(1);
    expect(events[0]!.kind).toBe('primary');
    // Seconds until x-ratelimit-reset (the emulator's window is an hour): beyond the 30 s allowed.
    expect(events[0]!.retryAfter).toBeGreaterThan(30);
    expect(events[0]!.retryAfter).toBeLessThanOrEqual(3601); // plugin-throttling adds one second
    expect(em.requests.length - from).toBe(1); // gave up: more than 30 s away
  });

  it('spaces writes on one lane (Bottleneck): the next write starts writeSpacingMs after the previous one', async () => {
    let inFlight = 0;
    let overlapped = false;
    let order: string[] = [];
    const server = createServer((req, res) => {
      inFlight++;
      if (inFlight > 1) overlapped = true;
      order.push(`${req.method} ${req.url}`);
      // Hold each answer 20 ms: with 500 ms between starts the next write cannot arrive while this one is
      // open (timers fire in deadline order, so even a stalled process answers first).
      setTimeout(() => {
        inFlight--;
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      }, 20);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const octokit = createOctokit({ baseUrl: base, writeSpacingMs: 500 });
      order = [];
      await Promise.all(
        [1, 2, 3].map((n) =>
          octokit.request('POST /repos/{owner}/{repo}/git/blobs', { owner: 'o', repo: 'r', content: String(n) }),
        ),
      );
      expect(order).toHaveLength(3);
      expect(overlapped).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('validates its options', () => {
    expect(() => createOctokit({ retries: -1 })).toThrow(/retries/);
    expect(() => createOctokit({ writeSpacingMs: 1.5 })).toThrow(/writeSpacingMs/);
  });
});
