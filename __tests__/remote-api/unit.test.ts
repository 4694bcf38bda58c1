/** Wire-level unit tests through the recording transport: headers, URL shapes, bodies, config validation, fixtures. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import {
  AuthMissing,
  ConcurrentUpdate,
  InvalidConfig,
  InvalidKey,
  InvalidResponse,
  NotFound,
  TransportError,
} from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { nextLink } from '../../src/stores/remote-api/client.js';
import { mapStatusError, parseRateLimit, RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import {
  type RecordedRequest,
  type RecordingTransport,
  recordingTransport,
  type ScriptedResponse,
} from '../../src/transport/index.js';

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
    // These tests script api.github.com's answers and count every wait; the 1 s spacing of writes that
    // origin gets by default is tested on its own (pacing.test.ts).
    mutationSpacingMs: 0,
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
      'POST /repos/octo/data/git/trees',
      'POST /repos/octo/data/git/commits',
      'POST /repos/octo/data/git/refs',
    ]);
    expect(t.requests[1]!.json()).toEqual({
      tree: [{ path: 'a/b.json', mode: '100644', type: 'blob', content: '{"x":1}' }],
    });
    expect(t.requests[2]!.json()).toEqual({ message: 'hello', tree: SHA(0xa), parents: [] });
    expect(t.requests[3]!.json()).toEqual({ ref: 'refs/docdb/documents', sha: SHA(0xc) });
    expect(t.requests[1]!.headers['content-type']).toMatch(/application\/json/);
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

  it('contents and blob content are base64 with embedded newlines; bytes are checked against the SHA', async () => {
    const value = 'x'.repeat(100);
    const b64 = Buffer.from(value)
      .toString('base64')
      .replace(/(.{60})/g, '$1\n');
    const sha = blobSha(utf8(value));
    const file = (content: string, encoding = 'base64') => ({ type: 'file', path: 'k', sha, content, encoding });
    const tip = { status: 200, body: { ref: 'refs/docdb/documents', object: { sha: SHA(1) } } };
    const t = recordingTransport().enqueue(tip, { status: 200, body: file(b64) });
    const got = await make(t).get('k');
    expect(new TextDecoder().decode(got!.value)).toBe(value);
    expect(t.requests.map((r) => new URL(r.url).pathname + new URL(r.url).search)).toEqual([
      '/repos/octo/data/git/ref/docdb/documents',
      `/repos/octo/data/contents/k?ref=${SHA(1)}`,
    ]);
    const tampered = Buffer.from('tampered').toString('base64');
    const bad = recordingTransport().enqueue(tip, { status: 200, body: file(tampered) });
    await expect(make(bad).get('k')).rejects.toBeInstanceOf(InvalidResponse);
    // 1–100 MB: no inline content; the blob comes from the blobs endpoint by the SHA the answer named.
    const large = recordingTransport().enqueue(
      tip,
      { status: 200, body: file('', 'none') },
      { status: 200, body: { sha, content: b64, encoding: 'base64', size: 100 } },
    );
    expect(new TextDecoder().decode((await make(large).get('k'))!.value)).toBe(value);
    const badBlob = recordingTransport().enqueue(
      tip,
      { status: 200, body: file('', 'none') },
      { status: 200, body: { sha, content: tampered, encoding: 'base64' } },
    );
    await expect(make(badBlob).get('k')).rejects.toBeInstanceOf(InvalidResponse);
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

  it('reads no rate limit from a junk or empty remaining count (it must not read as "none left")', () => {
    expect(parseRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': 'lots' })).toBeUndefined();
    expect(parseRateLimit({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': ' ' })).toBeUndefined();
    expect(parseRateLimit({ 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': 'soon' })).toMatchObject({
      remaining: 7,
      reset: 0,
    });
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

  it('a 404 after the fallback goes through the one status mapping (NotFound naming the step and status)', async () => {
    const t = recordingTransport().enqueue(
      { status: 422, body: { message: 'No commit found for SHA: refs/docdb/documents' } },
      { status: 200, body: { ref: 'refs/docdb/documents', object: { sha: SHA(9) } } },
      { status: 404, body: { message: 'Not Found' } },
    );
    const err = await make(t)
      .history('k.json')
      .catch((e) => e);
    expect(err).toBeInstanceOf(NotFound);
    expect(err.message).toMatch(/^history: list commits \(GET \/repos\/octo\/data\/commits\).*HTTP 404/);
    expect(err.data).toMatchObject({ status: 404, step: 'list commits', requests: 3 });
  });
});

/**
 * A scripted GitHub for the write sequence: ref tips are served in order from `tips` (the last one
 * repeats), commits and trees from maps, and `onPatch` decides each ref update's fate.
 */
function scriptedHub(opts: {
  tips: string[];
  commits: Record<string, { tree: string; parents?: string[] }>;
  trees: Record<string, { path: string; sha: string }[]>;
  onPatch: (n: number) => ScriptedResponse | Error;
}) {
  let refReads = 0;
  let patches = 0;
  let created = 0;
  const t = recordingTransport();
  const handler = (req: RecordedRequest): ScriptedResponse | Error => {
    const path = new URL(req.url).pathname.replace('/repos/octo/data', '');
    if (req.method === 'GET' && path.startsWith('/git/ref/')) {
      const sha = opts.tips[Math.min(refReads++, opts.tips.length - 1)] as string;
      return { status: 200, body: { ref: 'refs/docdb/documents', object: { sha, type: 'commit' } } };
    }
    if (req.method === 'GET' && path.startsWith('/compare/')) {
      // Against the ref name, a compare also reads the tip (it takes the next scripted tip, as a ref read does).
      const [base, head] = path.slice('/compare/'.length).split('...') as [string, string];
      const tip = head.startsWith('refs/') ? (opts.tips[Math.min(refReads++, opts.tips.length - 1)] as string) : head;
      const c = opts.commits[tip];
      if (!c || tip === base)
        return { status: 200, body: { status: 'identical', total_commits: 0, commits: [], files: [] } };
      const before = new Map((opts.trees[opts.commits[base]?.tree ?? ''] ?? []).map((e) => [e.path, e.sha]));
      const after = new Map((opts.trees[c.tree] ?? []).map((e) => [e.path, e.sha]));
      const files = [...new Set([...before.keys(), ...after.keys()])]
        .filter((f) => before.get(f) !== after.get(f))
        .map((f) => ({
          filename: f,
          sha: after.get(f) ?? before.get(f),
          status: !after.has(f) ? 'removed' : before.has(f) ? 'modified' : 'added',
        }));
      const commit = commitBody(tip, c.tree, [base]);
      return {
        status: 200,
        body: { status: 'ahead', total_commits: 1, files, commits: [{ sha: tip, parents: commit.parents, commit }] },
      };
    }
    if (req.method === 'GET' && path.startsWith('/git/commits/')) {
      const sha = path.slice('/git/commits/'.length);
      const c = opts.commits[sha];
      return c ? { status: 200, body: commitBody(sha, c.tree, c.parents) } : { status: 404, body: {} };
    }
    if (req.method === 'GET' && path.startsWith('/git/trees/')) {
      const sha = path.slice('/git/trees/'.length);
      const tree = (opts.trees[sha] ?? []).map((e) => ({ ...e, mode: '100644', type: 'blob' }));
      return { status: 200, body: { sha, truncated: false, tree } };
    }
    if (req.method === 'POST' && path === '/git/trees') return { status: 201, body: { sha: SHA(0x100 + ++created) } };
    if (req.method === 'POST' && path === '/git/commits') {
      const b = req.json() as { tree: string; parents: string[] };
      return { status: 201, body: commitBody(SHA(0x200 + ++created), b.tree, b.parents) };
    }
    if (req.method === 'PATCH') return opts.onPatch(++patches);
    // A host without GraphQL (GitHub Enterprise Server with it off): the path probe falls back to the levels.
    if (req.method === 'POST' && path === '/graphql') return { status: 404, body: { message: 'Not Found' } };
    return new Error(`unexpected ${req.method} ${path}`);
  };
  for (const m of ['GET', 'POST', 'PATCH']) t.route(m, /./, handler);
  return t;
}

const wire = (t: RecordingTransport) =>
  t.requests.map((r) => `${r.method} ${new URL(r.url).pathname.replace('/repos/octo/data', '')}`);
const notFastForward: ScriptedResponse = { status: 422, body: { message: 'Update is not a fast forward' } };

describe('write sequence: lost races and lost replies', () => {
  const [A, B, C, D] = [SHA(0xa1), SHA(0xb1), SHA(0xc1), SHA(0xd1)];
  const [TA, TB, TC, TD] = [SHA(0xa2), SHA(0xb2), SHA(0xc2), SHA(0xd2)];
  const keep = { path: 'keep', sha: blobSha(utf8('keep')) };
  const x = { path: 'x', sha: blobSha(utf8('x')) };

  it('each lost race re-plans the SAME change on the new tip’s tree, with jittered backoff, then ConcurrentUpdate', async () => {
    const t = scriptedHub({
      tips: [A, B, C, D],
      commits: { [A]: { tree: TA }, [B]: { tree: TB }, [C]: { tree: TC }, [D]: { tree: TD } },
      // x appears only from B on: the delete is a no-op on A's tree and a real delete on B's and C's.
      trees: { [TA]: [keep], [TB]: [keep, x], [TC]: [keep, x], [TD]: [keep, x] },
      onPatch: () => notFastForward,
    });
    const waits: number[] = [];
    const s = make(t, {
      retryConcurrentWrites: 2,
      random: () => 0.5,
      sleep: async (ms: number) => void waits.push(ms),
    });
    const err = await s
      .commit([
        { op: 'put', key: 'k', value: 'v' },
        { op: 'delete', key: 'x' },
      ])
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConcurrentUpdate);
    expect(err.otherSha).toBe(D);
    expect(err.data).toMatchObject({ attempts: 3, requests: 16 });
    const build = ['POST /git/trees', 'POST /git/commits', 'PATCH /git/refs/docdb/documents'];
    // After a lost race one compare against the ref name tells the new tip (and its tree) and what changed:
    // no ref read, no commit read. The changed "x" is one of ours, so its tree level is read (the scripted
    // tree SHAs are not real hashes, so the level cannot be computed locally).
    const retryReading = (from: string, tree: string) => [
      `GET /compare/${from}...refs/docdb/documents`,
      `GET /git/trees/${tree}`,
      ...build,
    ];
    expect(wire(t)).toEqual([
      'GET /git/ref/docdb/documents',
      `GET /git/commits/${A}`,
      `GET /git/trees/${TA}`,
      ...build,
      ...retryReading(A, TB),
      // Nothing changed between B and C: the plan on B's tree holds and is built on C's tree unread.
      `GET /compare/${B}...refs/docdb/documents`,
      ...build,
      `GET /compare/${C}...refs/docdb/documents`,
    ]);
    const trees = t.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/git/trees')).map((r) => r.json());
    const put = { path: 'k', mode: '100644', type: 'blob', content: 'v' };
    // The first create-tree stored the blob: retries name it by SHA instead of sending the value again.
    const again = { path: 'k', mode: '100644', type: 'blob', sha: blobSha(utf8('v')) };
    const del = { path: 'x', mode: '100644', type: 'blob', sha: null };
    expect(trees).toEqual([
      { base_tree: TA, tree: [put] },
      { base_tree: TB, tree: [again, del] },
      { base_tree: TC, tree: [again, del] },
    ]);
    const parents = t.requests.filter((r) => r.url.endsWith('/git/commits')).map((r) => r.json());
    expect(parents.map((p) => (p as { parents: string[] }).parents)).toEqual([[A], [B], [C]]);
    // Full jitter: random() × min(2 s, 100 ms × 2^attempt), before each retry only.
    expect(waits).toEqual([100, 200]);
  });

  /**
   * The first ref update lands but its reply is lost; the resend is refused (422) because another writer
   * has built E on our commit. Tips: initial read; re-read after the lost reply (not applied yet); after the 422.
   */
  function landedThenBuiltOn() {
    const E = SHA(0xe1);
    const ours = SHA(0x2ff);
    const t = scriptedHub({
      tips: [A, A, E],
      commits: { [A]: { tree: TA } },
      trees: { [TA]: [keep] },
      onPatch: (n) => (n === 1 ? new Error('socket hang up') : notFastForward),
    });
    t.route('POST', '/git/commits', (req) => {
      const b = req.json() as { tree: string; parents: string[] };
      return { status: 201, body: commitBody(ours, b.tree, b.parents) };
    });
    return { t, E, ours };
  }

  it('lost reply, resend refused (422) because the first update landed and was built on: success, not a rebase', async () => {
    const { t, E, ours } = landedThenBuiltOn();
    // E was built on our commit by another writer: one compare says so, at any distance.
    t.route('GET', new RegExp(`/compare/[0-9a-f]{40}\\.\\.\\.${E}$`), (req) => {
      const base = new URL(req.url).pathname.split('/compare/')[1]?.split('...')[0];
      return {
        status: 200,
        body: { status: base === ours ? 'ahead' : 'diverged', total_commits: 1, commits: [], files: [] },
      };
    });
    const waits: number[] = [];
    const r = await make(t, { random: () => 0.5, sleep: async (ms: number) => void waits.push(ms) }).put('k', 'v');
    expect(r).toMatchObject({ changed: true, version: ours, previousVersion: A, written: ['k'] });
    expect(wire(t).slice(6)).toEqual([
      'PATCH /git/refs/docdb/documents',
      'GET /git/ref/docdb/documents',
      'PATCH /git/refs/docdb/documents',
      'GET /git/ref/docdb/documents',
      `GET /compare/${ours}...${E}`,
    ]);
    expect(waits).toEqual([188]); // the client's backoff before resending: 250 ms × (0.5 + 0.5/2)
  });

  it('…and where the compare cannot answer, the first parents are walked back to our commit', async () => {
    const { t, E, ours } = landedThenBuiltOn();
    t.route('GET', `/git/commits/${E}`, () => ({ status: 200, body: commitBody(E, TD, [ours]) }));
    t.route('GET', /\/compare\//, () => ({ status: 404, body: { message: 'Not Found' } }));
    const r = await make(t, { random: () => 0.5, sleep: async () => {} }).put('k', 'v');
    expect(r).toMatchObject({ changed: true, version: ours });
    expect(wire(t).slice(-2)).toEqual([`GET /compare/${ours}...${E}`, `GET /git/commits/${E}`]);
  });

  it('lost replies while the ref never moves: resent readRetries times, then the failure is reported', async () => {
    const t = scriptedHub({
      tips: [A],
      commits: { [A]: { tree: TA } },
      trees: { [TA]: [keep] },
      onPatch: () => new Error('socket hang up'),
    });
    const waits: number[] = [];
    const err = await make(t, { readRetries: 2, random: () => 0.5, sleep: async (ms: number) => void waits.push(ms) })
      .put('k', 'v')
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.data).toMatchObject({ operation: 'put', step: 'update ref', method: 'PATCH' });
    expect(wire(t).filter((l) => l.startsWith('PATCH'))).toHaveLength(3);
    expect(wire(t).at(-1)).toBe('GET /git/ref/docdb/documents'); // the last word is the ref itself
    expect(waits).toEqual([188, 375]);
  });

  it('a lost race that is not a lost reply never walks history (the new tip is rebased on directly)', async () => {
    const t = scriptedHub({
      tips: [A, B],
      commits: { [A]: { tree: TA }, [B]: { tree: TB, parents: [A] } },
      trees: { [TA]: [keep], [TB]: [keep] },
      onPatch: (n) => (n === 1 ? notFastForward : { status: 200, body: { ref: 'refs/docdb/documents', object: {} } }),
    });
    const r = await make(t, { random: () => 0 }).put('k', 'v');
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBe(B);
    expect(wire(t).filter((l) => l.startsWith('GET /git/commits/'))).toEqual([`GET /git/commits/${A}`]);
    // "k" was not touched between A and B: the plan made on A's tree holds, and the new commit is built
    // on B's tree without reading it (compare + tree + commit + ref update = 4 requests for the retry).
    expect(wire(t).slice(7)).toEqual([
      `GET /compare/${A}...refs/docdb/documents`,
      'POST /git/trees',
      'POST /git/commits',
      'PATCH /git/refs/docdb/documents',
    ]);
    expect(t.requests.filter((q) => q.method === 'POST' && q.url.endsWith('/git/trees')).map((q) => q.json())).toEqual([
      { base_tree: TA, tree: [{ path: 'k', mode: '100644', type: 'blob', content: 'v' }] },
      { base_tree: TB, tree: [{ path: 'k', mode: '100644', type: 'blob', sha: blobSha(utf8('v')) }] },
    ]);
  });
});

describe('a host that does not resolve a ref name in a compare', () => {
  const [A, B, C] = [SHA(0xa1), SHA(0xb1), SHA(0xc1)];
  const [TA, TB, TC] = [SHA(0xa2), SHA(0xb2), SHA(0xc2)];
  const keep = { path: 'keep', sha: blobSha(utf8('keep')) };

  it('falls back to reading the ref (then compares by SHA), and stops asking for ref-name compares', async () => {
    const t = scriptedHub({
      tips: [A, B, C],
      commits: { [A]: { tree: TA }, [B]: { tree: TB, parents: [A] }, [C]: { tree: TC, parents: [B] } },
      trees: { [TA]: [keep], [TB]: [keep], [TC]: [keep] },
      onPatch: (n) => (n === 3 ? { status: 200, body: { ref: 'refs/docdb/documents', object: {} } } : notFastForward),
    });
    // GitHub answers a basehead it cannot resolve with 404.
    t.route('GET', /\/compare\/[0-9a-f]{40}\.\.\.refs\//, () => ({ status: 404, body: { message: 'Not Found' } }));
    const r = await make(t, { random: () => 0, sleep: async () => {} }).put('k', 'v');
    expect(r).toMatchObject({ changed: true, previousVersion: C });
    const after = wire(t).slice(7);
    expect(after).toEqual([
      `GET /compare/${A}...refs/docdb/documents`, // refused
      'GET /git/ref/docdb/documents',
      `GET /git/commits/${B}`,
      `GET /git/trees/${TB}`,
      'POST /git/trees',
      'POST /git/commits',
      'PATCH /git/refs/docdb/documents',
      'GET /git/ref/docdb/documents', // no second ref-name compare
      `GET /git/commits/${C}`,
      `GET /git/trees/${TC}`,
      'POST /git/trees',
      'POST /git/commits',
      'PATCH /git/refs/docdb/documents',
    ]);
  });
});

describe('batch validation (before any request)', () => {
  it('a batch that makes a key both a value and a directory is InvalidKey "conflict", with no request sent', async () => {
    const t = recordingTransport();
    for (const batch of [
      [
        { op: 'put' as const, key: 'a', value: '1' },
        { op: 'put' as const, key: 'a/b', value: '2' },
      ],
      [
        { op: 'put' as const, key: 'x/y/z', value: '1' },
        { op: 'put' as const, key: 'x/y', value: '2' },
      ],
    ]) {
      const err = await make(t)
        .commit(batch)
        .catch((e) => e);
      expect(err).toBeInstanceOf(InvalidKey);
      expect(err.data.rule).toBe('conflict');
    }
    expect(t.requests).toHaveLength(0);
  });
});

describe('client retry policy', () => {
  it('a DocDbError thrown by a transport is not a lost connection: not retried, passed through', async () => {
    let calls = 0;
    const s = new RemoteApiRefStore({
      transport: {
        request: async () => {
          calls++;
          throw new AuthMissing('host has no credentials', {});
        },
      },
      owner: 'octo',
      repo: 'data',
      sleep: async () => {},
    });
    await expect(s.head()).rejects.toBeInstanceOf(AuthMissing);
    expect(calls).toBe(1);
  });
});
