/**
 * The section's state file is untrusted input (issue 18 §1, §5): anyone who can write the section can edit
 * `_docdb/state/<projection>.json`. A stored next-page URL that leaves the API must never receive the token,
 * and one that names another endpoint inside it (a private repository the token can read) must never be
 * read: the entry is dropped with a warning and the page is read again. A stored next page back at a page
 * already read is re-read, not fatal (a live Link loop still is); a watermark in the future is dropped.
 * Every source URL is confined to the API origin and path prefix after decoding.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromUtf8, utf8 } from '../../src/core/bytes.js';
import { InvalidResponse, InvalidSpec } from '../../src/core/errors.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { runProjections, stateKey } from '../../src/projection/run/index.js';
import { trustedWatermarks } from '../../src/projection/run/state-file.js';
import { apiRequestUrl, confineToApi, nextOnOrigin } from '../../src/projection/sources/api-url.js';
import { trustedConditional } from '../../src/projection/sources/conditional.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { createOctokit } from '../../src/transport/create-octokit.js';

const TOKEN = 'ghp_untrusted_state_token_0123456789';
let em: EmulatorHandle;
let evil: { url: string; seen: IncomingHttpHeaders[]; close: () => Promise<void> };

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
  em.state.createRepo('octo/app');
  for (const tag of ['v1', 'v2', 'v3']) em.state.addRelease('octo/app', { tagName: tag });
  // A private repository the token (a PAT) can read, but the spec never names.
  em.state.createRepo('octo/secret', { private: true });
  for (const tag of ['s1', 's2']) em.state.addRelease('octo/secret', { tagName: tag });
  em.state.addIssue('octo/app', { title: 'one', updatedAt: '2024-03-01T00:00:00Z' });
  em.state.addIssue('octo/app', { title: 'two', updatedAt: '2024-03-02T00:00:00Z' });
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  evil = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  await em?.stop();
  await evil?.close();
});

const SPEC = 'projections:\n  rel:\n    source: { type: releases, repositories: [octo/app] }\n';

function run(store: MemoryRefStore, log: string[]) {
  return runProjections({
    spec: parseSpec(SPEC, 'docdb.yml'),
    client: createOctokit({ auth: TOKEN, baseUrl: em.url, writeSpacingMs: 0 }),
    store,
    apiUrl: em.url,
    perPage: 1,
    tokenIdentity: 'same-token',
    log: (line) => log.push(line),
  });
}

/** Edit the committed state file the way someone with write access to the section could. */
async function editState(store: MemoryRefStore, edit: (entries: Record<string, { next?: string }>) => void) {
  // (the first page's key has no `page=`; GitHub's and the emulator's links add `&page=N`)
  const key = stateKey('rel');
  const state = JSON.parse(fromUtf8((await store.get(key))!.value));
  edit(state.conditional.entries);
  await store.put(key, utf8(JSON.stringify(state)));
}

/** A `rest` projection of `GET /things` at `api`, run as the same token each time (its stored ETags apply). */
function thingsProjection(api: string) {
  const store = new MemoryRefStore();
  const log: string[] = [];
  const project = () =>
    runProjections({
      spec: parseSpec(
        'projections:\n  x:\n    source: { type: rest, endpoint: "GET /things" }\n    identity: { id: "{item.id}" }\n',
        'docdb.yml',
      ),
      client: createOctokit({ auth: TOKEN, baseUrl: api, writeSpacingMs: 0 }),
      store,
      apiUrl: api,
      tokenIdentity: 'same-token',
      log: (line) => log.push(line),
    });
  return { store, log, project };
}

describe('a stored next-page URL is untrusted', () => {
  it.each([
    ['another origin', () => `${evil.url}/steal?page=2`],
    ['dot segments out of the API', () => '/%2e%2e/%2e%2e/steal?page=2'],
    ['credentials in the URL', () => `${em.url.replace('://', '://user:pw@')}/repos/octo/app/releases?page=2`],
  ])('%s: never followed, the entry is dropped with a warning, the run still completes', async (_, target) => {
    const store = new MemoryRefStore();
    await run(store, []);
    await editState(store, (entries) => {
      const first = Object.keys(entries).find((k) => !k.includes('&page='))!;
      expect(entries[first]!.next).toBeDefined(); // the first page points at the second
      entries[first]!.next = target();
    });
    const before = evil.seen.length;
    const log: string[] = [];
    em.clearLog();
    const report = await run(store, log);
    expect(evil.seen.length).toBe(before); // nothing, and so no token, reached the other host
    expect(log.filter((l) => l.startsWith('warning: ignored the stored state of'))).toHaveLength(1);
    expect(log.join('\n')).not.toContain('steal');
    expect(log.join('\n')).not.toContain(TOKEN);
    // The first page is asked again without If-None-Match and the walk follows GitHub's own Link header.
    expect(em.requests.map((r) => `${r.status}`)).toEqual(['200', '304', '304']);
    expect(report.projections[0]!.changed).toEqual([]);
    expect(report.projections[0]!.removed).toEqual([]);
  });

  it('another endpoint inside the API (a private repository the token can read): never read, never committed', async () => {
    const store = new MemoryRefStore();
    await run(store, []);
    await editState(store, (entries) => {
      const first = Object.keys(entries).find((k) => !k.includes('&page='))!;
      entries[first]!.next = '/repos/octo/secret/releases?per_page=1&page=2';
    });
    const log: string[] = [];
    em.clearLog();
    const report = await run(store, log);
    expect(em.requests.filter((r) => r.path.includes('secret'))).toEqual([]); // no request to that endpoint
    expect(log.filter((l) => l.startsWith('warning: '))).toEqual([
      'warning: ignored the stored state of "GET /repos/octo/app/releases?per_page=1": its next-page URL is not another page of the same endpoint; reading it again',
    ]);
    // The first page is read again without If-None-Match; the walk follows GitHub's own Link header.
    expect(em.requests.map((r) => `${r.status} ${r.path}`)).toEqual([
      '200 /repos/octo/app/releases',
      '304 /repos/octo/app/releases',
      '304 /repos/octo/app/releases',
    ]);
    const keys = (await store.list()).entries.map((e) => e.key);
    expect(keys.filter((k) => k.includes('secret') || k.includes('/s1') || k.includes('/s2'))).toEqual([]);
    expect(report.projections[0]).toMatchObject({ items: 1, unchanged: 3, changed: [], added: [], removed: [] });
  });

  it('a stored next page that points back at a page already read: warned, re-read in full, and the run completes', async () => {
    const store = new MemoryRefStore();
    await run(store, []);
    await editState(store, (entries) => {
      const second = Object.keys(entries).find((k) => k.endsWith('&page=2'))!;
      entries[second]!.next = '/repos/octo/app/releases?per_page=1'; // the first page
    });
    const log: string[] = [];
    em.clearLog();
    const report = await run(store, log);
    expect(log.filter((l) => l.startsWith('warning: '))).toEqual([
      'warning: ignored the stored state of "GET /repos/octo/app/releases?per_page=1&page=2": its next-page URL points back at a page already read; reading it again',
    ]);
    // Page 2 is asked again without If-None-Match, and the rest of the listing in full.
    expect(em.requests.map((r) => `${r.status} ${r.query}`)).toEqual([
      '304 per_page=1',
      '304 per_page=1&page=2',
      '200 per_page=1&page=2',
      '200 per_page=1&page=3',
    ]);
    expect(report.projections[0]).toMatchObject({ unchanged: 3, changed: [], added: [], removed: [] });
  });

  it('a live Link back at a page already read still stops the run, even after a page answered 304', async () => {
    let round = 1;
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      const first = `http://127.0.0.1:${(server.address() as AddressInfo).port}/things?per_page=100`;
      const json = { 'content-type': 'application/json' };
      if (!req.url!.includes('page=2')) {
        if (req.headers['if-none-match'] === '"p1"') return void res.writeHead(304, { etag: '"p1"' }).end();
        return void res
          .writeHead(200, { ...json, etag: '"p1"', link: `<${first}&page=2>; rel="next"` })
          .end('[{"id":1}]');
      }
      // Page 2 changed since the first round, and its Link now points back at page 1: the server loops.
      const link = round === 2 ? { link: `<${first}>; rel="next"` } : {};
      res.writeHead(200, { ...json, etag: `"p2-${round}"`, ...link }).end('[{"id":2}]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { store, log, project } = thingsProjection(api);
    try {
      await project();
      const head = await store.head();
      round = 2;
      requests = 0;
      const error = await project().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidResponse);
      expect((error as InvalidResponse).data).toMatchObject({ reason: 'pagination-loop' });
      expect(requests).toBe(2); // page 1 (304), page 2 (200, linking back); page 1 is not read again
      expect(log.filter((l) => l.startsWith('warning: '))).toEqual([]);
      expect(await store.head()).toBe(head);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("GitHub's first Link names the repository by id: that page is not kept, the later ones are, and no warning", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const second = req.url!.startsWith('/repositories/1/');
      const etag = second ? '"p2"' : '"p1"';
      seen.push(`${req.headers['if-none-match'] === etag ? 304 : 200} ${req.url}`);
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      const link = second ? {} : { link: `<${origin}/repositories/1/things?per_page=100&page=2>; rel="next"` };
      res.writeHead(200, { 'content-type': 'application/json', etag, ...link }).end(`[{"id":${second ? 2 : 1}}]`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { log, project } = thingsProjection(api);
    try {
      await project();
      seen.length = 0;
      const report = await project();
      expect(seen).toEqual(['200 /things?per_page=100', '304 /repositories/1/things?per_page=100&page=2']);
      expect(log.filter((l) => l.startsWith('warning: '))).toEqual([]);
      expect(report.projections[0]).toMatchObject({ unchanged: 2, notModified: 1 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a stored repository name that is not owner/name is dropped too', () => {
    const log: string[] = [];
    const trusted = trustedConditional(
      {
        token: 't',
        entries: {
          'GET /orgs/o/repos?page=1': { etags: ['"a"'], names: ['o/ok', 'o/../../user'] },
          'GET /orgs/o/repos?page=2': { etags: ['"b"'], names: ['o/fine.js'], next: '/orgs/o/repos?page=3' },
        },
      },
      'https://api.github.com',
      (l) => log.push(l),
    );
    expect(Object.keys(trusted!.entries)).toEqual(['GET /orgs/o/repos?page=2']);
    expect(log).toEqual([
      'warning: ignored the stored state of "GET /orgs/o/repos?page=1": it lists a repository name that is not owner/name; reading it again',
    ]);
  });
});

describe('stored watermarks are untrusted', () => {
  const issues = (store: MemoryRefStore, log: string[]) =>
    runProjections({
      spec: parseSpec('projections:\n  iss:\n    source: { type: issues, repositories: [octo/app] }\n', 'docdb.yml'),
      client: createOctokit({ auth: TOKEN, baseUrl: em.url, writeSpacingMs: 0 }),
      store,
      apiUrl: em.url,
      log: (line) => log.push(line),
    });

  it('a watermark in the future is dropped with a warning; the repository is read without it', async () => {
    const store = new MemoryRefStore();
    await issues(store, []);
    const key = stateKey('iss');
    const state = JSON.parse(fromUtf8((await store.get(key))!.value));
    expect(state.watermarks).toEqual({ 'octo/app': '2024-03-02T00:00:00Z' });
    state.watermarks['octo/app'] = '2999-01-01T00:00:00Z'; // would hide every later update
    await store.put(key, utf8(JSON.stringify(state)));
    const log: string[] = [];
    em.clearLog();
    const report = await issues(store, log);
    expect(log.filter((l) => l.startsWith('warning: '))).toEqual([
      'warning: ignored the stored watermark of "octo/app": it is more than 5 minutes in the future; reading the repository without it',
    ]);
    const reads = em.requests.filter((r) => r.path === '/repos/octo/app/issues');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.query).not.toContain('since=');
    expect(report.projections[0]).toMatchObject({ items: 2, unchanged: 2, removed: [] });
  });

  it('only beyond the clock skew: a watermark a minute ahead stands, ten minutes ahead does not', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    const log: string[] = [];
    const kept = trustedWatermarks(
      { 'o/past': '2025-05-01T00:00:00Z', 'o/skew': '2025-06-01T12:01:00Z', 'o/future': '2025-06-01T12:10:00Z' },
      (l) => log.push(l),
      now,
    );
    expect(kept).toEqual({ 'o/past': '2025-05-01T00:00:00Z', 'o/skew': '2025-06-01T12:01:00Z' });
    expect(log).toHaveLength(1);
    expect(log[0]).toContain('"o/future"');
  });
});

describe('every source URL stays inside the API', () => {
  const ghes = 'https://ghe.example/api/v3';
  it.each([
    ['/%2e%2e/%2e%2e/x', 'has a "." or ".." path segment once decoded'],
    ['/repos/../../x', 'has a "." or ".." path segment once decoded'],
    ['/repos/o/..%2F..%2Fx', 'has a "." or ".." path segment once decoded'],
    ['https://ghe.example/x', 'leaves the API path /api/v3'],
    ['https://ghe.example/api/v3x/y', 'leaves the API path /api/v3'],
    ['https://evil.example/api/v3/x', 'points at https://evil.example, not the API origin https://ghe.example'],
    ['http://ghe.example/api/v3/x', 'points at http://ghe.example, not the API origin https://ghe.example'],
    ['https://u:p@ghe.example/api/v3/x', 'carries credentials'],
    ['evil.example/x', 'is neither a path starting with "/" nor an http(s) URL'],
  ])('refuses %s', (url, reason) => {
    expect(confineToApi(ghes, url)).toEqual({ reason });
    expect(() => apiRequestUrl({ apiUrl: ghes }, url)).toThrow(InvalidResponse);
  });

  it('keeps paths inside, encoded slashes in a segment included (branch names)', () => {
    expect(confineToApi(ghes, '/repos/o/r/branches/feature%2Fx?per_page=1')).toEqual({
      url: 'https://ghe.example/api/v3/repos/o/r/branches/feature%2Fx?per_page=1',
      path: '/repos/o/r/branches/feature%2Fx?per_page=1',
    });
    // A protocol-relative string is a path here: it is appended to the API base, never parsed as a host.
    expect(confineToApi(ghes, '//evil.example/x')).toMatchObject({ url: 'https://ghe.example/api/v3//evil.example/x' });
    expect(nextOnOrigin({ apiUrl: ghes }, '<https://ghe.example/api/v3/orgs/o/repos?page=2>; rel="next"', 'x')).toBe(
      '/orgs/o/repos?page=2',
    );
    expect(() =>
      nextOnOrigin({ apiUrl: ghes }, '<https://ghe.example/admin?page=2>; rel="next"', 'GET /orgs/o/repos'),
    ).toThrow(/the pagination link of GET \/orgs\/o\/repos leaves the API path \/api\/v3; refusing to follow it/);
  });

  it('a rest endpoint with encoded dot segments is refused when the spec is read, naming the field', () => {
    const yaml = "projections:\n  x:\n    source: { type: rest, endpoint: 'GET /%2e%2e/%2e%2e/x' }\n";
    const err = (() => {
      try {
        parseSpec(yaml, 'docdb.yml', { defaultRepository: 'o/r' });
      } catch (e) {
        return e as InvalidSpec;
      }
    })();
    expect(err).toBeInstanceOf(InvalidSpec);
    expect(err!.message).toMatch(
      /docdb\.yml:3:\d+: projections\.x\.source\.endpoint: must be "GET \/path".*no "\." or "\.\." segment/,
    );
  });
});
