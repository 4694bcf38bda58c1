/**
 * loadDocDbClient, projectRepository and explainError in Node (fake-indexeddb, fake transports and the
 * emulator): option validation naming the field, backends, credentials asked per operation, the host
 * HTTP function, request accounting, and the origin rule for pagination links.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainError, loadDocDbClient, projectRepository } from '../../src/browser/index.js';
import { NotFound, RateLimited, TransportError } from '../../src/core/errors.js';
import { RESERVED_REF_SPACES } from '../../src/core/refname.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import type { HttpRequest, HttpTransport } from '../../src/transport/types.js';
import { dumpDatabase, textOf } from '../indexeddb/helpers.js';
import { emulator, freshRepo, OWNER, TOKEN } from '../remote-api/helpers.js';

const DOC = { namespace: 'notes', type: 'note', id: 'n1', data: { text: 'hi' } };
const ID = { namespace: 'notes', doc_type: 'note', id: 'n1' };

describe('loadDocDbClient: options', () => {
  it('names the field at fault', async () => {
    await expect(loadDocDbClient({ backend: 'disk' as never })).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { field: 'backend' },
    });
    await expect(loadDocDbClient({ backend: 'indexeddb' })).rejects.toMatchObject({
      data: { field: 'hostCapabilities.store' },
    });
    await expect(
      loadDocDbClient({ hostCapabilities: { credentials: 'ghp_x' as never }, owner: 'o', repo: 'r' }),
    ).rejects.toMatchObject({ data: { field: 'hostCapabilities.credentials' } });
    await expect(
      loadDocDbClient({
        owner: 'o',
        repo: 'r',
        hostCapabilities: { transport: { fetch, http: async () => ({ status: 200 }) } },
      }),
    ).rejects.toMatchObject({ data: { field: 'hostCapabilities.transport' } });
    await expect(loadDocDbClient({ owner: 'o' })).rejects.toMatchObject({ data: { field: 'repo' } });
    // Node has no global indexedDB: asking for the store fails at load time, naming the option.
    await expect(loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: true } })).rejects.toMatchObject({
      data: { field: 'indexedDB' },
    });
  });

  it("refuses a ref in a section's reserved space, on every backend, before any request (issue 37 item 14)", async () => {
    let requests = 0;
    const http = async () => {
      requests++;
      return { status: 500, headers: {}, body: '' };
    };
    const transport = { fetch, http };
    for (const { suffix } of RESERVED_REF_SPACES) {
      const ref = `refs/docdb/documents${suffix}/1`;
      for (const backend of ['remote', 'memory'] as const) {
        const loading = loadDocDbClient({ backend, owner: 'o', repo: 'r', ref, hostCapabilities: { transport } });
        await expect(loading).rejects.toMatchObject({ code: 'InvalidConfig', data: { field: 'ref' } });
        await expect(loading).rejects.toThrow(`ref "${ref}" is in a reserved space: a component ending in "${suffix}"`);
      }
    }
    expect(requests).toBe(0);
    await expect(loadDocDbClient({ backend: 'memory', ref: 'refs/docdb/shards' })).resolves.toMatchObject({
      ref: 'refs/docdb/shards',
    });
  });

  it('memory and indexeddb backends: results carry version and requests (0)', async () => {
    const memory = await loadDocDbClient({ backend: 'memory' });
    const w = await memory.put(DOC);
    expect(await memory.get(ID)).toMatchObject({ document: { data: DOC.data }, version: w.version, requests: 0 });
    const indexedDB = new IDBFactory();
    const local = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { indexedDB } } });
    const lw = await local.put(DOC);
    expect(lw.requests).toBe(0);
    local.close();
    const reopened = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { indexedDB } } });
    expect(await reopened.get(ID)).toMatchObject({ document: { data: DOC.data }, version: lw.version });
    expect(await reopened.get({ ...ID, id: 'missing' })).toEqual({ document: null, version: null, etag: null });
    reopened.close();
  });
});

describe('loadDocDbClient: remote backend (emulator)', () => {
  let em: EmulatorHandle;
  beforeAll(async () => {
    em = await emulator();
  });
  afterAll(async () => {
    await em?.stop();
  });

  it('asks credentials per operation, uses the host http function, counts requests, stores no token', async () => {
    const repo = freshRepo(em);
    const indexedDB = new IDBFactory();
    let asked = 0;
    const seen: HttpRequest[] = [];
    const client = await loadDocDbClient({
      owner: OWNER,
      repo,
      apiUrl: em.url,
      hostCapabilities: {
        credentials: async () => {
          asked++;
          return TOKEN;
        },
        transport: {
          http: async (req) => {
            seen.push(req);
            const init: RequestInit = { method: req.method, headers: req.headers, cache: 'no-store' };
            if (req.body) init.body = req.body as unknown as BodyInit;
            const res = await fetch(req.url, init);
            return { status: res.status, headers: [...res.headers], body: await res.arrayBuffer() };
          },
        },
        store: { indexedDB, name: 'remote' },
      },
    });
    const put = await client.put(DOC);
    expect(put.requests).toBeGreaterThan(0);
    expect(put.rateLimit?.remaining).toBeGreaterThan(0);
    const got = await client.get(ID);
    expect(got).toMatchObject({ document: { data: DOC.data }, version: put.version });
    expect(got.requests).toBeGreaterThanOrEqual(1);
    expect(asked).toBe(2);
    // The client's totals are what the transport saw, and what the two results reported.
    expect(seen).toHaveLength(client.stats().requests);
    expect(client.stats().requests).toBe((put.requests ?? 0) + (got.requests ?? 0));
    expect(client.stats().rateLimit?.limit).toBe(1_000_000);
    client.close();
    const rows = await dumpDatabase(indexedDB, 'remote');
    expect(rows.some(([s]) => s === 'cache')).toBe(true);
    for (const [, k, v] of rows) expect(`${textOf(k)}${textOf(v)}`).not.toContain(TOKEN);
  });
});

describe('loadDocDbClient: bulk reads on the remote backend (no archive in a page)', () => {
  let em: EmulatorHandle;
  beforeAll(async () => {
    em = await emulator();
  });
  afterAll(async () => {
    await em?.stop();
  });

  it('list({ withData }) and getMany read GraphQL batches of 100 blobs; warm, one 304', async () => {
    const repo = freshRepo(em);
    const docs = Array.from({ length: 150 }, (_, i) => ({
      namespace: 'notes',
      type: 'note',
      id: `n${i}`,
      data: { i },
    }));
    const writer = await loadDocDbClient({
      owner: OWNER,
      repo,
      apiUrl: em.url,
      hostCapabilities: { credentials: async () => TOKEN },
    });
    await writer.putMany(docs);
    const client = await loadDocDbClient({
      owner: OWNER,
      repo,
      apiUrl: em.url,
      hostCapabilities: { credentials: async () => TOKEN, store: { indexedDB: new IDBFactory(), name: 'bulk' } },
    });
    const from = em.requests.length;
    const page = await client.list({ namespace: 'notes', withData: true });
    expect(page.documents.map((d) => d.document?.data)).toEqual(
      [...docs].sort((a, b) => (`${a.id}.json` < `${b.id}.json` ? -1 : 1)).map((d) => d.data),
    );
    const used = em.requests.slice(from).map((r) => r.operation);
    expect(used.filter((o) => o === 'graphql')).toHaveLength(2);
    expect(used).not.toContain('codeload/legacy.tar.gz');
    const from2 = em.requests.length;
    const many = await client.getMany([
      { namespace: 'notes', doc_type: 'note', id: 'n7' },
      { namespace: 'notes', doc_type: 'note', id: 'missing' },
    ]);
    expect(many.map((e) => e?.data ?? null)).toEqual([{ i: 7 }, null]);
    expect(em.requests.slice(from2).map((r) => `${r.operation} ${r.status}`)).toEqual(['git/get-ref 304']);
    const streamed: string[] = [];
    for await (const d of client.stream({ namespace: 'notes', withData: true, pageSize: 40 })) streamed.push(d.id);
    expect(streamed).toHaveLength(150);
    client.close();
  });
});

describe('projectRepository and explainError', () => {
  function fake(answers: Record<string, { status: number; body?: unknown; headers?: Record<string, string> }>) {
    const calls: HttpRequest[] = [];
    const transport: HttpTransport = {
      async request(req) {
        calls.push(req);
        const a = answers[req.url] ?? { status: 404, body: { message: 'Not Found' } };
        return {
          status: a.status,
          headers: { 'x-ratelimit-remaining': '41', 'x-ratelimit-limit': '60', ...a.headers },
          body: new TextEncoder().encode(JSON.stringify(a.body ?? {})),
        };
      },
    };
    return { transport, calls };
  }
  const API = 'https://api.example.test';
  const repoUrl = `${API}/repos/o/r`;

  it('follows branch pages on the API origin only, never sending the token elsewhere', async () => {
    const { transport, calls } = fake({
      [repoUrl]: { status: 200, body: { full_name: 'o/r', default_branch: 'main', description: null } },
      [`${repoUrl}/git/matching-refs/heads`]: {
        status: 200,
        body: [{ ref: 'refs/heads/main', object: { sha: 'a'.repeat(40) } }],
        headers: { link: `<${repoUrl}/git/matching-refs/heads?page=2>; rel="next"` },
      },
      [`${repoUrl}/git/matching-refs/heads?page=2`]: {
        status: 200,
        body: [{ ref: 'refs/heads/x', object: { sha: 'b'.repeat(40) } }],
        headers: { link: '<https://evil.test/steal?page=3>; rel="next"' },
      },
    });
    const r = await projectRepository({ transport, repository: 'o/r', apiUrl: API, token: 'ghp_secret' });
    expect(r.envelope.data.branches).toEqual([
      { name: 'main', sha: 'a'.repeat(40) },
      { name: 'x', sha: 'b'.repeat(40) },
    ]);
    expect(r.requests).toBe(3);
    expect(r.rateLimit?.remaining).toBe(41);
    expect(calls.map((c) => new URL(c.url).origin)).toEqual([API, API, API]);
    expect(r.envelope).toMatchObject({ namespace: 'github', type: 'repo', id: 'o/r' });
    expect(r.envelope.version).toMatch(/^[0-9a-f]{40}$/);
  });

  it('turns failures into sentences', async () => {
    const { transport } = fake({});
    const e = await projectRepository({ transport, repository: 'o/r', apiUrl: API }).catch((x) => x);
    expect(e).toBeInstanceOf(NotFound);
    expect(explainError(e, { repository: 'o/r' })).toMatch(/^Repository “o\/r” was not found\./);
    await expect(projectRepository({ transport, repository: 'not a repo' })).rejects.toMatchObject({
      data: { field: 'repository' },
    });
    const limited = new RateLimited('x', { reset: 1_700_000_000 });
    expect(explainError(limited)).toMatch(/rate limit is used up.*It resets at/);
    expect(explainError(new RateLimited('x', { retryAfter: 30 }))).toMatch(
      /secondary rate limit\)\. Try again in 30 seconds/,
    );
    // The primary limit with the client's wait until the reset (retryAfter is set for both): still the primary.
    const hourly = explainError(new RateLimited('x', { reset: 1_700_000_000, retryAfter: 3387 }));
    expect(hourly).toMatch(/rate limit is used up.*It resets at/);
    expect(hourly).not.toMatch(/secondary/);
    expect(explainError(new TransportError('x', { reason: 'network' }), { apiUrl: API })).toBe(
      `Could not reach ${API}. Check your network connection and the API URL.`,
    );
    expect(explainError(new Error('boom'))).toBe('Something went wrong: boom');
  });
});
