/** Wire-level unit tests through the recording transport: headers, URL shapes, bodies, config validation, fixtures. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { InvalidConfig, InvalidResponse } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { nextLink } from '../../src/stores/remote-api/client.js';
import { mapStatusError, parseRateLimit, RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { type RecordingTransport, recordingTransport } from '../../src/transport/index.js';

const TOKEN = 'ghp_UnitTokenUnitTokenUnitToken000000000';
const API = 'https://api.github.com';
const SHA = (n: number) => n.toString(16).padStart(40, '0');

interface Fixture {
  method: string;
  path: string;
  status: number;
  body: unknown;
  response: unknown;
  headers: Record<string, string | number>;
}
const fixturesDir = join(
  dirname(createRequire(import.meta.url).resolve('@octokit/fixtures/package.json')),
  'scenarios',
  'api.github.com',
);
function fixture(scenario: string): Fixture[] {
  return JSON.parse(readFileSync(join(fixturesDir, scenario, 'normalized-fixture.json'), 'utf8'));
}
const headersOf = (f: Fixture) => Object.fromEntries(Object.entries(f.headers).map(([k, v]) => [k, String(v)]));

function make(t: RecordingTransport, extra: Record<string, unknown> = {}) {
  return new RemoteApiRefStore({
    transport: t,
    owner: 'octo',
    repo: 'data',
    token: TOKEN,
    sleep: async () => {},
    ...extra,
  });
}

const commitBody = (sha: string, tree: string, parents: string[] = []) => ({
  sha,
  tree: { sha: tree },
  parents: parents.map((p) => ({ sha: p })),
  message: 'm',
  author: { name: 'a', email: 'a@x', date: '2024-01-01T00:00:00Z' },
  committer: { name: 'a', email: 'a@x', date: '2024-01-01T00:00:00Z' },
});

describe('wire format', () => {
  it('sends the GitHub headers; Authorization: Bearer only when a token exists', async () => {
    const t = recordingTransport().enqueue({ status: 404, body: { message: 'Not Found' } }, { status: 200, body: {} });
    await make(t).head();
    const h = t.requests[0]!.headers;
    expect(h.accept).toBe('application/vnd.github+json');
    expect(h['x-github-api-version']).toBe('2022-11-28');
    expect(h['user-agent']).toMatch(/^docdb\//);
    expect(h.authorization).toBe(`Bearer ${TOKEN}`);
    expect(t.requests[0]!.url).toBe(`${API}/repos/octo/data/git/ref/docdb/documents`);
    expect(t.requests[1]!.url).toBe(`${API}/repos/octo/data`);
    const anon = recordingTransport().enqueue({ status: 404, body: {} }, { status: 200, body: {} });
    await make(anon, { token: undefined }).head();
    expect(anon.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('first write: inline content on POST /git/trees, POST /git/commits, POST /git/refs with the full ref name', async () => {
    const t = recordingTransport().enqueue(
      { status: 404, body: { message: 'Not Found' } },
      { status: 200, body: { full_name: 'octo/data' } },
      { status: 201, body: { sha: SHA(0xa), tree: [] } },
      { status: 201, body: commitBody(SHA(0xc), SHA(0xa)) },
      // Recorded real create-ref response shape (@octokit/fixtures git-refs), with our ref and sha.
      (req) => {
        const f = fixture('git-refs').find((x) => x.method === 'post')!;
        const body = structuredClone(f.response) as { ref: string; object: { sha: string } };
        body.ref = 'refs/docdb/documents';
        body.object.sha = (req.json() as { sha: string }).sha;
        return { status: f.status, headers: headersOf(f), body };
      },
    );
    const r = await make(t).put('a/b.json', '{"x":1}', { message: 'hello' });
    expect(r).toMatchObject({ changed: true, version: SHA(0xc), previousVersion: null, written: ['a/b.json'] });
    expect(r.rateLimit).toEqual({ limit: 5000, remaining: 4999, reset: 1507651200000, used: 1, resource: 'core' });
    expect(t.requests.map((q) => `${q.method} ${q.url.replace(API, '')}`)).toEqual([
      'GET /repos/octo/data/git/ref/docdb/documents',
      'GET /repos/octo/data',
      'POST /repos/octo/data/git/trees',
      'POST /repos/octo/data/git/commits',
      'POST /repos/octo/data/git/refs',
    ]);
    expect(t.requests[2]!.json()).toEqual({
      tree: [{ path: 'a/b.json', mode: '100644', type: 'blob', content: '{"x":1}' }],
    });
    expect(t.requests[3]!.json()).toEqual({ message: 'hello', tree: SHA(0xa), parents: [] });
    expect(t.requests[4]!.json()).toEqual({ ref: 'refs/docdb/documents', sha: SHA(0xc) });
    expect(t.requests[2]!.headers['content-type']).toMatch(/application\/json/);
  });

  it('update: base_tree + sha:null deletes, then PATCH /git/refs/<path without refs/> {sha, force:false}', async () => {
    const t = recordingTransport().enqueue(
      {
        status: 200,
        headers: { etag: '"e1"' },
        body: { ref: 'refs/docdb/documents', object: { sha: SHA(1), type: 'commit' } },
      },
      { status: 200, body: commitBody(SHA(1), SHA(2)) },
      {
        status: 200,
        body: {
          sha: SHA(2),
          truncated: false,
          tree: [{ path: 'old.json', mode: '100644', type: 'blob', sha: blobSha(utf8('o')) }],
        },
      },
      { status: 201, body: { sha: SHA(3), tree: [] } },
      { status: 201, body: commitBody(SHA(4), SHA(3), [SHA(1)]) },
      (req) => {
        const f = fixture('git-refs').find((x) => x.method === 'patch')!;
        const body = structuredClone(f.response) as { ref: string; object: { sha: string } };
        body.ref = 'refs/docdb/documents';
        body.object.sha = (req.json() as { sha: string }).sha;
        return { status: f.status, headers: headersOf(f), body };
      },
    );
    const r = await make(t).commit([
      { op: 'delete', key: 'old.json' },
      { op: 'put', key: 'new.json', value: 'n' },
    ]);
    expect(r).toMatchObject({ version: SHA(4), previousVersion: SHA(1), deleted: ['old.json'], written: ['new.json'] });
    expect(t.requests[3]!.json()).toEqual({
      base_tree: SHA(2),
      tree: [
        { path: 'old.json', mode: '100644', type: 'blob', sha: null },
        { path: 'new.json', mode: '100644', type: 'blob', content: 'n' },
      ],
    });
    expect(t.requests[5]!.method).toBe('PATCH');
    expect(t.requests[5]!.url).toBe(`${API}/repos/octo/data/git/refs/docdb/documents`);
    expect(t.requests[5]!.json()).toEqual({ sha: SHA(4), force: false });
  });

  it('the ref read sends If-None-Match with the cached ETag and uses the cached tip on 304', async () => {
    const t = recordingTransport().enqueue(
      {
        status: 200,
        headers: { etag: 'W/"abc"' },
        body: { ref: 'refs/docdb/documents', object: { sha: SHA(1), type: 'commit' } },
      },
      { status: 304, headers: { etag: 'W/"abc"' } },
    );
    const s = make(t);
    expect(await s.head()).toBe(SHA(1));
    expect(await s.head()).toBe(SHA(1));
    expect(t.requests[0]!.headers['if-none-match']).toBeUndefined();
    expect(t.requests[1]!.headers['if-none-match']).toBe('W/"abc"');
    const noEtag = recordingTransport().enqueue(
      { status: 200, headers: { etag: '"x"' }, body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } } },
      { status: 200, headers: { etag: '"x"' }, body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } } },
    );
    const s2 = make(noEtag, { cache: { etag: false } });
    await s2.head();
    await s2.head();
    expect(noEtag.requests[1]!.headers['if-none-match']).toBeUndefined();
  });

  it('a legacy array answer to the ref read (recorded GET /git/refs/ fixture) is InvalidResponse, never a guess', async () => {
    const f = fixture('git-refs').find((x) => x.method === 'get')!;
    const t = recordingTransport().enqueue({ status: 200, headers: headersOf(f), body: f.response });
    const err = await make(t)
      .head()
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err.message).toMatch(/a list instead of one ref/);
  });

  it('blob content is base64 with embedded newlines; bytes are checked against the SHA', async () => {
    const value = 'x'.repeat(100);
    const b64 = Buffer.from(value)
      .toString('base64')
      .replace(/(.{60})/g, '$1\n');
    const sha = blobSha(utf8(value));
    const t = recordingTransport().enqueue(
      { status: 200, body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } } },
      { status: 200, body: commitBody(SHA(1), SHA(2)) },
      { status: 200, body: { sha: SHA(2), tree: [{ path: 'k', mode: '100644', type: 'blob', sha }] } },
      { status: 200, body: { sha, content: b64, encoding: 'base64', size: 100 } },
    );
    const got = await make(t).get('k');
    expect(new TextDecoder().decode(got!.value)).toBe(value);
    const bad = recordingTransport().enqueue(
      { status: 200, body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } } },
      { status: 200, body: commitBody(SHA(1), SHA(2)) },
      { status: 200, body: { sha: SHA(2), tree: [{ path: 'k', mode: '100644', type: 'blob', sha }] } },
      { status: 200, body: { sha, content: Buffer.from('tampered').toString('base64'), encoding: 'base64' } },
    );
    await expect(make(bad).get('k')).rejects.toBeInstanceOf(InvalidResponse);
  });

  it('maps recorded error bodies in one place (errors fixture: 422 Validation Failed)', () => {
    const f = fixture('errors')[0]!;
    const body = utf8(JSON.stringify(f.response));
    const err = mapStatusError(
      {
        operation: 'put',
        step: 'create tree',
        method: 'POST',
        path: '/repos/o/r/git/trees',
        repo: 'o/r',
        authenticated: true,
      },
      { status: f.status, headers: headersOf(f), body },
    );
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err.message).toMatch(/^put: create tree \(POST \/repos\/o\/r\/git\/trees\).*HTTP 422: Validation Failed/);
    expect(err.data).toMatchObject({ status: 422, upstreamMessage: 'Validation Failed' });
    expect(parseRateLimit(headersOf(f))).toMatchObject({ limit: 5000, resource: 'core' });
  });

  it('parses Link headers of recorded paginated responses', () => {
    const f = fixture('paginate-issues')[0]!;
    expect(nextLink(String(f.headers.link))).toBe('https://api.github.com/repositories/1000/issues?per_page=3&page=2');
    expect(nextLink('<https://x/y?page=5>; rel="last"')).toBeUndefined();
    expect(nextLink(undefined)).toBeUndefined();
  });

  it('asks the credentials provider once per operation and uses what it returns', async () => {
    let calls = 0;
    const t = recordingTransport().route('GET', '/git/ref/', {
      status: 200,
      body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } },
    });
    const s = new RemoteApiRefStore({
      transport: t,
      owner: 'octo',
      repo: 'data',
      credentials: async () => `ghp_rotating${++calls}`,
    });
    await s.head();
    await s.head();
    expect(calls).toBe(2);
    expect(t.requests.map((r) => r.headers.authorization)).toEqual(['Bearer ghp_rotating1', 'Bearer ghp_rotating2']);
  });
});

describe('configuration validation (before any request)', () => {
  const t = recordingTransport();
  const base = { transport: t, owner: 'octo', repo: 'data' };
  const field = (opts: Record<string, unknown>) => {
    try {
      new RemoteApiRefStore({ ...base, ...opts } as never);
      return 'ok';
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidConfig);
      return (e as InvalidConfig).data.field;
    }
  };
  it('names the offending field', () => {
    expect(field({ owner: '-bad' })).toBe('owner');
    expect(field({ owner: 'a b' })).toBe('owner');
    expect(field({ repo: '..' })).toBe('repo');
    expect(field({ repo: 'x/y' })).toBe('repo');
    expect(field({ repo: 'data.git' })).toBe('repo');
    expect(field({ ref: 'heads/main' })).toBe('ref');
    expect(field({ ref: 'refs/docdb/bad..name' })).toBe('ref');
    expect(field({ apiUrl: 'ftp://x' })).toBe('apiUrl');
    expect(field({ apiUrl: 'not a url' })).toBe('apiUrl');
    expect(field({ apiUrl: 'https://u:p@api.github.com' })).toBe('apiUrl');
    expect(field({ apiUrl: 'http://ghe.example.com/api/v3' })).toBe('apiUrl');
    expect(field({ apiUrl: 'http://ghe.example.com/api/v3', allowInsecureHttp: true })).toBe('ok');
    expect(field({ apiUrl: 'http://127.0.0.1:8080' })).toBe('ok');
    expect(field({ apiUrl: 'http://localhost:8080' })).toBe('ok');
    expect(field({ apiUrl: 'http://[::1]:8080' })).toBe('ok');
    expect(field({ retryConcurrentWrites: -1 })).toBe('retryConcurrentWrites');
    expect(field({ retryConcurrentWrites: 1.5 })).toBe('retryConcurrentWrites');
    expect(field({ cache: { maxBytes: -5 } })).toBe('cache.maxBytes');
    expect(field({ cache: { backend: 'disk' } })).toBe('cache.backend');
    expect(field({ userAgent: 'a\nb' })).toBe('userAgent');
    expect(field({ transport: {} })).toBe('transport');
    expect(field({ token: 'x', credentials: async () => 'y' })).toBe('token');
    expect(t.requests).toHaveLength(0);
  });
  it('rejects an unusable token without echoing it', () => {
    const secret = 'ghp_secret value\nwith newline';
    try {
      new RemoteApiRefStore({ ...base, token: secret });
      expect.unreachable();
    } catch (e) {
      expect((e as InvalidConfig).data.field).toBe('token');
      expect(JSON.stringify((e as InvalidConfig).toJSON())).not.toContain('ghp_secret');
      expect((e as Error).message).not.toContain('ghp_secret');
    }
  });
  it('keeps a GHES path prefix in the API base', async () => {
    const t2 = recordingTransport().enqueue({
      status: 200,
      body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } },
    });
    await new RemoteApiRefStore({
      transport: t2,
      owner: 'o',
      repo: 'r',
      apiUrl: 'https://ghe.example.com/api/v3/',
    }).head();
    expect(t2.requests[0]!.url).toBe('https://ghe.example.com/api/v3/repos/o/r/git/ref/docdb/documents');
  });
});

describe('history start point', () => {
  it('falls back to the tip SHA once when the host does not resolve a full ref name in `sha`', async () => {
    const item = {
      sha: SHA(9),
      commit: {
        message: 'm',
        author: { name: 'a', email: 'a@x', date: '2024-01-01T00:00:00Z' },
        committer: { name: 'a', email: 'a@x', date: '2024-01-01T00:00:00Z' },
      },
      parents: [{ sha: SHA(8) }],
    };
    const t = recordingTransport().enqueue(
      { status: 422, body: { message: 'No commit found for SHA: refs/docdb/documents' } },
      { status: 200, body: { ref: 'refs/docdb/documents', object: { sha: SHA(9) } } },
      { status: 200, body: [item] },
    );
    const h = await make(t).history('k.json');
    expect(h.entries).toEqual([
      {
        version: SHA(9),
        message: 'm',
        author: item.commit.author,
        committer: item.commit.committer,
        parents: [SHA(8)],
      },
    ]);
    const q = (i: number) => new URL(t.requests[i]!.url).searchParams;
    expect(q(0).get('sha')).toBe('refs/docdb/documents');
    expect(q(0).get('path')).toBe('k.json');
    expect(q(0).get('per_page')).toBe('100');
    expect(q(2).get('sha')).toBe(SHA(9));
    expect(h.requests).toBe(3);
  });
});
