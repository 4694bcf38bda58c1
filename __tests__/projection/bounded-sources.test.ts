/**
 * Every source is bounded (issue 18 §2, §3): an `http` server that never answers, or sends an endless body,
 * or keeps failing; a REST listing whose `Link: rel="next"` points back at a page already read, or never
 * ends; a GraphQL listing that repeats a cursor; a GraphQL answer with `errors` next to partial `data`.
 * Each is fed to a real projection run over loopback and must stop it with a typed error, committing nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponse, NotFound, RateLimited, TransportError } from '../../src/core/errors.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { MAX_HTTP_BYTES } from '../../src/projection/sources/http-fetch.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { closeServers, json, project, serve } from './loopback.js';

afterEach(closeServers);

const httpSpec = (url: string, more = '') =>
  `projections:\n  x:\n    source: { type: http, url: "${url}"${more} }\n    identity: { id: "{index}" }\n`;

describe('http sources are bounded', () => {
  it('a server that accepts and never answers: TransportError after the timeout, retried, nothing committed', async () => {
    const server = await serve(() => {}); // never answers
    const { error, head } = await project(httpSpec(`${server.url}/a.json`, ', timeout: 1'), server.url);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain(
      `http source: GET ${server.url}/a.json failed: no answer for 1 s (the source's "timeout"); gave up after 4 attempts (projection "x", docdb.yml:3)`,
    );
    expect((error as TransportError).data).toMatchObject({ attempts: 4, projection: 'x', file: 'docdb.yml', line: 3 });
    expect(server.requests()).toBe(4); // the first try and three retries
    expect(head).toBeNull();
  });

  it('an endless body: the download is cut at the size cap, not buffered whole', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    let written = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const { error, head } = await project(httpSpec(`${server.url}/endless.json`), server.url);
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as Error).message).toContain(`more than ${MAX_HTTP_BYTES} bytes`);
    await server.closed; // the client hung up
    expect(written).toBeLessThan(MAX_HTTP_BYTES + 16 * 1024 * 1024); // the cap plus socket buffers, not more
    expect(server.requests()).toBe(1); // a refused body is not retried
    expect(head).toBeNull();
  });

  it('a declared Content-Length over the cap is refused before reading the body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_HTTP_BYTES + 1) });
      res.write('[');
    });
    const { error } = await project(httpSpec(`${server.url}/big.json`), server.url);
    expect((error as Error).message).toContain(`${MAX_HTTP_BYTES + 1} bytes (Content-Length)`);
  });

  it('5xx and 429 are retried honouring Retry-After; a Retry-After beyond 60 s fails fast as RateLimited', async () => {
    const flaky = await serve((_req, res, n) => {
      if (n === 1) res.writeHead(503).end();
      else if (n === 2) res.writeHead(429, { 'retry-after': '7' }).end();
      else json(res, [{ a: 1 }]);
    });
    const waits: number[] = [];
    const ok = await project(httpSpec(`${flaky.url}/a.json`), flaky.url, {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(ok.error).toBeUndefined();
    expect(flaky.requests()).toBe(3);
    // The 503 waits a full-jitter backoff (at most 1 s after the first attempt); the 429 waits what it asked.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThanOrEqual(1000);
    expect(waits[1]).toBe(7000);
    const slow = await serve((_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end());
    const { error } = await project(httpSpec(`${slow.url}/a.json`), slow.url);
    expect(error).toBeInstanceOf(RateLimited);
    expect(slow.requests()).toBe(1);
  });

  it('a server that dribbles a byte at a time within the timeout is stopped by the deadline, not retried', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100);
      res.on('close', () => clearInterval(drip));
    });
    const { error, head } = await project(httpSpec(`${server.url}/slow.json`, ', timeout: 1, deadline: 1'), server.url);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).data).toMatchObject({ reason: 'deadline', field: 'deadline', attempts: 1 });
    expect((error as Error).message).toContain(
      `http source: GET ${server.url}/slow.json: no complete answer within 1 s (the source's "deadline"), after 1 attempt(s) (projection "x", docdb.yml:3)`,
    );
    await server.closed; // the client hung up
    expect(server.requests()).toBe(1);
    expect(head).toBeNull();
  });

  it('deadline is checked when the spec is read', () => {
    expect(() => parseSpec(httpSpec('https://example.com/a.json', ', deadline: 0'), 'docdb.yml')).toThrow(
      /deadline: must be a number of seconds from 1 to 3600/,
    );
  });
});

describe('REST listings are bounded', () => {
  const restSpec = (more = '') =>
    `projections:\n  x:\n    source: { type: rest, endpoint: "GET /things"${more} }\n    identity: { id: "{item.id}" }\n`;

  it('a Link: rel="next" back at a page already read stops the run (pagination loop)', async () => {
    const api = await serve((req, res, n) => {
      const back = `<${'http://127.0.0.1'}:${(req.socket.localPort as number).toString()}/things?per_page=100>; rel="next"`;
      const forward = `<http://127.0.0.1:${req.socket.localPort}/things?per_page=100&page=2>; rel="next"`;
      json(res, [{ id: n }], { link: n === 1 ? forward : back });
    });
    const { error, head } = await project(restSpec(), api.url);
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as InvalidResponse).data).toMatchObject({ reason: 'pagination-loop' });
    expect(api.requests()).toBe(2);
    expect(head).toBeNull();
  });

  it('a listing that never ends stops at max-pages, naming the field', async () => {
    const api = await serve((req, res, n) =>
      json(res, [{ id: n }], { link: `<http://127.0.0.1:${req.socket.localPort}/things?page=${n + 1}>; rel="next"` }),
    );
    const { error, head } = await project(restSpec(', max-pages: 5'), api.url);
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as InvalidResponse).data).toMatchObject({ reason: 'too-many-pages', field: 'max-pages', limit: 5 });
    expect((error as Error).message).toBe(
      'GET /things (/things): more than 5 pages; stopped (nothing is committed). If the listing really is that long, raise "max-pages" on the source in the projection spec (projection "x", docdb.yml:3)',
    );
    expect(api.requests()).toBe(5);
    expect(head).toBeNull();
  });

  it('max-pages is checked when the spec is read', () => {
    expect(() => parseSpec(restSpec(', max-pages: 0'), 'docdb.yml', { defaultRepository: 'o/r' })).toThrow(
      /max-pages: must be a whole number of pages from 1 to 100000/,
    );
  });
});

describe('GraphQL listings and answers', () => {
  const ownerSpec = 'projections:\n  x:\n    source: { type: repository, repositories: ["o/*"] }\n';

  it('an endCursor seen before stops the run instead of looping', async () => {
    const api = await serve((_req, res) =>
      json(res, {
        data: {
          repositoryOwner: { repositories: { pageInfo: { hasNextPage: true, endCursor: 'SAME' }, nodes: [] } },
          rateLimit: { cost: 1, remaining: 4999, limit: 5000, resetAt: '2030-01-01T00:00:00Z' },
        },
      }),
    );
    const { error, head } = await project(ownerSpec, api.url);
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as InvalidResponse).data).toMatchObject({ reason: 'pagination-loop', page: 'SAME' });
    expect(api.requests()).toBe(2);
    expect(head).toBeNull();
  });

  it('errors next to partial data fail the projection with GitHub’s messages; nothing is committed', async () => {
    const api = await serve((_req, res) =>
      json(res, {
        data: { r0: null, rateLimit: { cost: 1, remaining: 4999, limit: 5000, resetAt: '2030-01-01T00:00:00Z' } },
        errors: [{ type: 'FORBIDDEN', path: ['r0'], message: 'Resource not accessible by integration' }],
      }),
    );
    const { error, head } = await project(
      'projections:\n  x:\n    source: { type: repository, repositories: [o/secret] }\n',
      api.url,
    );
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as Error).message).toContain('FORBIDDEN: Resource not accessible by integration');
    expect(head).toBeNull();
  });

  describe('against the emulator', () => {
    let em: EmulatorHandle;
    afterEach(() => em?.stop());
    it('a NOT_FOUND for one repository next to data for another: NotFound naming it, nothing committed', async () => {
      em = await startEmulator();
      em.state.addToken('ghp_bounded', { login: 'o', repos: '*' });
      em.state.createRepo('o/here');
      const { error, head } = await project(
        'projections:\n  x:\n    source: { type: repository, repositories: [o/here, o/missing] }\n',
        em.url,
      );
      expect(error).toBeInstanceOf(NotFound);
      expect((error as Error).message).toContain('source repository o/missing not found');
      expect(head).toBeNull();
    });
  });
});
