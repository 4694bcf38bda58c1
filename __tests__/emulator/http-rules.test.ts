import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient, validateResponse } from './openapi-validator.js';
import { rawRequest } from './raw-http.js';

let em: EmulatorHandle;
afterEach(() => em?.stop());

async function world(opts: Parameters<typeof startEmulator>[0] = {}) {
  em = await startEmulator(opts);
  em.state.createRepo('acme/public');
  em.state.createRepo('acme/private', { private: true });
  em.state.createRepo('acme/empty', { empty: true });
  em.state.addToken('tok-w', { login: 'alice', repos: '*' });
  em.state.addToken('tok-r', { login: 'bob', repos: { 'acme/private': 'read', 'acme/public': 'read' } });
  em.state.addToken('tok-none', { login: 'carol', repos: {} });
  return em;
}

describe('authentication and access', () => {
  it('applies the 401/403/404 rules of GitHub', async () => {
    await world();
    const anon = apiClient(em.url);
    const writer = apiClient(em.url, 'tok-w');
    const reader = apiClient(em.url, 'tok-r');
    const stranger = apiClient(em.url, 'tok-none');
    const blob = { content: 'x' };

    expect((await anon('GET', '/repos/acme/public/git/ref/heads/main')).status).toBe(200);
    expect((await anon('GET', '/repos/acme/private/git/ref/heads/main')).status).toBe(404);
    expect((await stranger('GET', '/repos/acme/private')).status).toBe(404);
    expect((await stranger('GET', '/repos/acme/public')).status).toBe(200);
    expect((await reader('GET', '/repos/acme/private/git/ref/heads/main')).status).toBe(200);
    expect((await anon('GET', '/repos/acme/nope')).body.message).toBe('Not Found');

    const unauth = await anon('POST', '/repos/acme/public/git/blobs', blob);
    expect(unauth.status).toBe(401);
    expect(unauth.body.message).toBe('Requires authentication');
    const ro = await reader('POST', '/repos/acme/public/git/blobs', blob);
    expect(ro.status).toBe(403);
    expect(ro.body.message).toBe('Resource not accessible by personal access token');
    expect((await anon('POST', '/repos/acme/private/git/blobs', blob)).status).toBe(404);
    expect((await writer('POST', '/repos/acme/private/git/blobs', blob)).status).toBe(201);

    const bad = apiClient(em.url, 'not-a-token');
    const r = await bad('GET', '/repos/acme/public');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ message: 'Bad credentials', documentation_url: expect.any(String) });
    // `token <t>` works as well as `Bearer <t>`; other schemes are bad credentials.
    expect((await anon('GET', '/repos/acme/private', undefined, { Authorization: 'token tok-r' })).status).toBe(200);
    expect((await anon('GET', '/repos/acme/public', undefined, { Authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(
      401,
    );
    // The log never holds a token.
    expect(JSON.stringify(em.requests)).not.toMatch(/tok-|not-a-token/);
    expect(em.requests.find((e) => e.status === 401 && e.path === '/repos/acme/public')?.authenticated).toBe(false);
  });

  it('shows permissions of the token in the repository description', async () => {
    await world();
    expect((await apiClient(em.url, 'tok-w')('GET', '/repos/acme/public')).body.permissions).toMatchObject({
      push: true,
      pull: true,
    });
    expect((await apiClient(em.url, 'tok-r')('GET', '/repos/acme/public')).body.permissions).toMatchObject({
      push: false,
      pull: true,
    });
    expect((await apiClient(em.url)('GET', '/repos/acme/public')).body.permissions).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('sends x-ratelimit headers on every response and counts per token', async () => {
    await world({ unauthenticatedRateLimit: 3, defaultRateLimit: 10 });
    const anon = apiClient(em.url);
    const w = apiClient(em.url, 'tok-w');
    const first = await w('GET', '/repos/acme/public');
    expect(first.headers.get('x-ratelimit-limit')).toBe('10');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('9');
    expect(first.headers.get('x-ratelimit-used')).toBe('1');
    expect(first.headers.get('x-ratelimit-resource')).toBe('core');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const notFound = await w('GET', '/repos/acme/nope');
    expect(notFound.headers.get('x-ratelimit-remaining')).toBe('8');
    const a = await anon('GET', '/repos/acme/public');
    expect(a.headers.get('x-ratelimit-limit')).toBe('3');
    expect(a.headers.get('x-ratelimit-remaining')).toBe('2');
    // GET /rate_limit is free and reports the same numbers.
    const rl = await w('GET', '/rate_limit');
    expect(rl.body.resources.core).toMatchObject({ limit: 10, remaining: 8, used: 2 });
    expect(rl.headers.get('x-ratelimit-remaining')).toBe('8');
    expect(em.requests.at(-1)?.costsBudget).toBe(false);
  });

  it('answers 403 with remaining 0 once the budget is used up, without spending more', async () => {
    await world({ unauthenticatedRateLimit: 2 });
    em.state.addToken('tiny', { login: 'dora', rateLimit: 2 });
    const t = apiClient(em.url, 'tiny');
    expect((await t('GET', '/repos/acme/public')).status).toBe(200);
    expect((await t('GET', '/repos/acme/public')).status).toBe(200);
    const over = await t('GET', '/repos/acme/public');
    expect(over.status).toBe(403);
    expect(over.body.message).toMatch(/^API rate limit exceeded for user ID \d+\.$/);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('x-ratelimit-used')).toBe('2');
    expect(em.requests.at(-1)).toMatchObject({ status: 403, costsBudget: false });
    // Other tokens are unaffected; anonymous callers have their own budget.
    expect((await apiClient(em.url, 'tok-w')('GET', '/repos/acme/public')).status).toBe(200);
    const anon = apiClient(em.url);
    await anon('GET', '/repos/acme/public');
    await anon('GET', '/repos/acme/public');
    const anonOver = await anon('GET', '/repos/acme/public');
    expect(anonOver.status).toBe(403);
    expect(anonOver.body.message).toMatch(/^API rate limit exceeded for 127\.0\.0\.1/);
  });
});

describe('conditional requests', () => {
  it('answers 304 for a matching If-None-Match, free for authorized requests only', async () => {
    await world();
    const w = apiClient(em.url, 'tok-w');
    const first = await w('GET', '/repos/acme/public/git/ref/heads/main');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=60, s-maxage=60');
    const before = first.headers.get('x-ratelimit-remaining');
    const again = await w('GET', '/repos/acme/public/git/ref/heads/main', undefined, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-ratelimit-remaining')).toBe(before);
    expect(em.requests.at(-1)).toMatchObject({ status: 304, costsBudget: false, authenticated: true });

    // After the ref moves, the same ETag no longer matches.
    em.state.commitFiles('acme/public', { files: { 'n.txt': 'n' } });
    const moved = await w('GET', '/repos/acme/public/git/ref/heads/main', undefined, { 'If-None-Match': etag });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(etag);

    // Unauthenticated 304s still cost budget.
    const anon = apiClient(em.url);
    const a1 = await anon('GET', '/repos/acme/public/git/ref/heads/main');
    const a2 = await anon('GET', '/repos/acme/public/git/ref/heads/main', undefined, {
      'If-None-Match': a1.headers.get('etag') as string,
    });
    expect(a2.status).toBe(304);
    expect(Number(a2.headers.get('x-ratelimit-remaining'))).toBe(Number(a1.headers.get('x-ratelimit-remaining')) - 1);
    expect(a1.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60');
  });

  it('gives different ETags to different tokens for the same resource', async () => {
    await world();
    const path = '/repos/acme/public/git/ref/heads/main';
    const e1 = (await apiClient(em.url, 'tok-w')('GET', path)).headers.get('etag') as string;
    const e2 = (await apiClient(em.url, 'tok-r')('GET', path)).headers.get('etag') as string;
    expect(e1).not.toBe(e2);
    expect((await apiClient(em.url, 'tok-r')('GET', path, undefined, { 'If-None-Match': e1 })).status).toBe(200);
  });
});

describe('protocol details', () => {
  it('sends JSON with charset and CORS headers like api.github.com, and answers preflights', async () => {
    await world();
    const r = await apiClient(em.url)('GET', '/repos/acme/public', undefined, { Origin: 'https://example.com' });
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = r.headers.get('access-control-expose-headers') ?? '';
    for (const h of [
      'ETag',
      'Link',
      'Retry-After',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-RateLimit-Limit',
      'X-RateLimit-Used',
    ]) {
      expect(exposed).toContain(h);
    }
    const pre = await fetch(`${em.url}/repos/acme/public/git/refs/heads/main`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://example.com',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Content-Type.*If-None-Match/);
    expect(pre.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(em.requests.at(-1)).toMatchObject({ method: 'OPTIONS', costsBudget: false });
  });

  it('answers 409 "Git Repository is empty." until the repository is seeded', async () => {
    await world();
    const w = apiClient(em.url, 'tok-w');
    for (const [m, p, b] of [
      ['GET', '/repos/acme/empty/git/ref/heads/main'],
      ['GET', '/repos/acme/empty/git/matching-refs/heads'],
      ['GET', '/repos/acme/empty/commits'],
      ['POST', '/repos/acme/empty/git/blobs', { content: 'x' }],
      ['POST', '/repos/acme/empty/git/trees', { tree: [] }],
      ['POST', '/repos/acme/empty/git/commits', { message: 'm', tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' }],
      [
        'POST',
        '/repos/acme/empty/git/refs',
        { ref: 'refs/heads/main', sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' },
      ],
    ] as [string, string, unknown?][]) {
      const r = await w(m, p, b);
      expect(r.status, `${m} ${p}`).toBe(409);
      expect(r.body.message).toBe('Git Repository is empty.');
    }
    expect((await w('GET', '/repos/acme/empty')).status).toBe(200);
    em.state.commitFiles('acme/empty', { files: { 'first.txt': '1' } });
    expect((await w('GET', '/repos/acme/empty/git/ref/heads/main')).status).toBe(200);
    expect((await w('POST', '/repos/acme/empty/git/blobs', { content: 'x' })).status).toBe(201);
  });

  it('rejects malformed JSON, non-object bodies, oversized bodies and unknown API versions, and keeps serving', async () => {
    await world({ maxBodyBytes: 1024 });
    const w = apiClient(em.url, 'tok-w');
    const broken = await w('POST', '/repos/acme/public/git/blobs', '{"content": "x"');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('Problems parsing JSON');
    expect((await w('POST', '/repos/acme/public/git/blobs', '[1,2]')).status).toBe(422);
    expect((await w('POST', '/repos/acme/public/git/blobs', '')).status).toBe(422);
    const big = await w('POST', '/repos/acme/public/git/blobs', { content: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/too large.*1024/);
    const v = await w('GET', '/repos/acme/public', undefined, { 'X-GitHub-Api-Version': '1999-01-01' });
    expect(v.status).toBe(400);
    expect((await w('GET', '/repos/acme/public')).status).toBe(200);
    expect((await w('POST', '/repos/acme/public/git/blobs', { content: 'ok' })).status).toBe(201);
  });

  it('survives a client that disconnects halfway through its body', async () => {
    await world();
    const sock = connect(em.port, '127.0.0.1');
    await new Promise<void>((resolve) => sock.on('connect', () => resolve()));
    sock.write(
      'POST /repos/acme/public/git/blobs HTTP/1.1\r\nHost: x\r\nAuthorization: token tok-w\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"content":',
    );
    await new Promise((r) => setTimeout(r, 20));
    sock.destroy();
    expect((await apiClient(em.url, 'tok-w')('POST', '/repos/acme/public/git/blobs', { content: 'ok' })).status).toBe(
      201,
    );
  });

  it('answers HEAD like GET without a body', async () => {
    await world();
    const head = await fetch(`${em.url}/repos/acme/public`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^W\//);
    expect(head.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await head.text()).toBe('');
  });

  it('answers 404 Not Found for unknown paths and methods', async () => {
    await world();
    const w = apiClient(em.url, 'tok-w');
    expect((await w('GET', '/nope')).status).toBe(404);
    expect((await w('PUT', '/repos/acme/public/git/refs/heads/main', { sha: 'x' })).status).toBe(404);
    // `..` is never normalised by the emulator: a raw traversal cannot reach another repository.
    const raw = await rawRequest(em.url, 'GET', '/repos/acme/public/../private', undefined, {
      Authorization: 'token tok-w',
    });
    expect(raw.status).toBe(404);
    validateResponse('GET', '/x', raw.status, raw.json);
  });

  it('uses the Host header for URLs in bodies so clients can follow them', async () => {
    await world();
    const r = await rawRequest(em.url, 'GET', '/repos/acme/public/git/ref/heads/main', undefined, {
      Host: `localhost:${em.port}`,
    });
    expect(r.json.url).toBe(`http://localhost:${em.port}/repos/acme/public/git/refs/heads/main`);
  });
});
