/**
 * The endpoints that read without the listing (issue 20), every answer validated against GitHub's OpenAPI
 * description: the contents API (files, directories, `ref=<sha>`, the raw media type, the 1 MB and 1,000-entry
 * limits), the archive redirect to a separate codeload origin (own credential, no CORS for other origins),
 * GraphQL `object(expression:)`/`object(oid:)` with `Blob` fields (`text` cut with `isTruncated`), codeload tickets
 * (expired or for another repository: refused), the 100 MB contents limit, and recursive trees truncated at 7 MB.
 */
import { createTarDecoder } from 'modern-tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, utf8 } from '../../src/core/bytes.js';
import { createEmulatorApp, type EmulatorHandle } from '../../src/emulator/index.js';
import { ARCHIVE_TICKET_MS } from '../../src/emulator/routes/archive.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient } from './openapi-validator.js';

const TOKEN = 'ghp_read_endpoints_token_0123456789ab';
/** This emulator's contents limit (GitHub's is 100 MB) and GraphQL `Blob.text` limit (GitHub's: 512,000 B). */
const CONTENTS_MAX = 1024 * 1024 + 1024;
const TEXT_MAX = 64;
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;
let v1: string;
let v2: string;

beforeAll(async () => {
  // Small limits so a test crosses them with small files; the defaults are GitHub's (checked below).
  em = await startEmulator({
    treeTruncateBytes: 20_000,
    contentsMaxBytes: CONTENTS_MAX,
    graphqlBlobTextBytes: TEXT_MAX,
  });
  em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
  em.state.createRepo('octo/reads', { private: true });
  v1 = em.state.commitFiles('octo/reads', { branch: REF, files: { 'README.md': null, 'a/b/c.json': '{"v":1}\n' } });
  v2 = em.state.commitFiles('octo/reads', {
    branch: REF,
    files: { 'a/b/c.json': '{"v":2}\n', 'a/big.bin': 'x'.repeat(1024 * 1024 + 1), 'a/bin.dat': 'a\u0000b' },
  });
  api = apiClient(em.url, TOKEN);
});
afterAll(() => em.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${em.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } });

describe('GET /contents/{path}', () => {
  it('reads a file at a commit SHA or a full ref name; an unknown ref is 404', async () => {
    const old = await api('GET', `/repos/octo/reads/contents/a/b/c.json?ref=${v1}`);
    expect(old.status).toBe(200);
    const body = old.body as { type: string; path: string; sha: string; content: string; encoding: string };
    expect([body.type, body.path, body.encoding]).toEqual(['file', 'a/b/c.json', 'base64']);
    expect(new TextDecoder().decode(fromBase64(body.content.replace(/\n/g, '')))).toBe('{"v":1}\n');
    const tip = await api('GET', `/repos/octo/reads/contents/a/b/c.json?ref=${encodeURIComponent(REF)}`);
    expect((tip.body as { sha: string }).sha).not.toBe(body.sha);
    expect((await api('GET', '/repos/octo/reads/contents/a/b/c.json?ref=nope')).status).toBe(404);
    expect((await api('GET', `/repos/octo/reads/contents/a/missing.json?ref=${v2}`)).status).toBe(404);
  });

  it('serves the raw media type as bytes, and files over 1 MB only that way', async () => {
    const raw = await get(`/repos/octo/reads/contents/a/b/c.json?ref=${v2}`, {
      accept: 'application/vnd.github.raw+json',
    });
    expect(raw.headers.get('content-type')).toMatch(/^application\/vnd\.github\.raw/);
    expect(await raw.text()).toBe('{"v":2}\n');
    const big = await api('GET', `/repos/octo/reads/contents/a/big.bin?ref=${v2}`);
    expect(big.body).toMatchObject({ type: 'file', encoding: 'none', content: '', size: 1024 * 1024 + 1 });
    const bigRaw = await get(`/repos/octo/reads/contents/a/big.bin?ref=${v2}`, {
      accept: 'application/vnd.github.raw',
    });
    expect((await bigRaw.arrayBuffer()).byteLength).toBe(1024 * 1024 + 1);
  });

  it('refuses a file over the limit (100 MB on GitHub) with 403 too_large, in every media type', async () => {
    em.state.createRepo('octo/huge');
    const at = em.state.commitFiles('octo/huge', {
      files: { 'huge.bin': 'h'.repeat(CONTENTS_MAX + 1), 'fits.bin': 'f'.repeat(CONTENTS_MAX) },
    });
    const json = await api('GET', `/repos/octo/huge/contents/huge.bin?ref=${at}`);
    expect(json.status).toBe(403);
    expect(json.body).toMatchObject({
      message: 'This API returns blobs up to 100 MB in size.',
      errors: [{ resource: 'Blob', field: 'data', code: 'too_large' }],
    });
    const raw = await get(`/repos/octo/huge/contents/huge.bin?ref=${at}`, {
      accept: 'application/vnd.github.raw+json',
    });
    expect(raw.status).toBe(403);
    // At the limit itself the file is still served (raw bytes; over 1 MB the JSON carries no content).
    const fits = await get(`/repos/octo/huge/contents/fits.bin?ref=${at}`, { accept: 'application/vnd.github.raw' });
    expect((await fits.arrayBuffer()).byteLength).toBe(CONTENTS_MAX);
  });

  it('lists at most 1,000 entries of a directory (GitHub: use the trees API for more)', async () => {
    em.state.createRepo('octo/wide');
    const files: Record<string, string> = {};
    for (let i = 0; i < 1_001; i++) files[`many/f${String(i).padStart(4, '0')}.json`] = `${i}`;
    const at = em.state.commitFiles('octo/wide', { files });
    const dir = await api('GET', `/repos/octo/wide/contents/many?ref=${at}`);
    const names = (dir.body as { name: string }[]).map((e) => e.name);
    expect(names).toHaveLength(1_000);
    expect([names[0], names.at(-1)]).toEqual(['f0000.json', 'f0999.json']);
  });

  it('lists a directory as an array of entries', async () => {
    const dir = await api('GET', `/repos/octo/reads/contents/a?ref=${v2}`);
    expect((dir.body as { name: string; type: string }[]).map((e) => `${e.type}:${e.name}`)).toEqual([
      'dir:b',
      'file:big.bin',
      'file:bin.dat',
    ]);
  });
});

describe('GET /tarball/{ref} and the codeload origin', () => {
  it('redirects to another origin with a short-lived credential; codeload checks it and sends no CORS', async () => {
    const res = await get(`/repos/octo/reads/tarball/${v1}`);
    // fetch follows the redirect and (cross-origin) drops Authorization; the log shows what arrived.
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const redirect = await fetch(`${em.url}/repos/octo/reads/tarball/${v1}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location') as string);
    expect(location.origin).toBe(em.codeloadUrl);
    expect(location.origin).not.toBe(new URL(em.url).origin);
    expect(location.searchParams.get('token')).toMatch(/^A/);
    const noTicket = await fetch(`${location.origin}${location.pathname}`);
    expect(noTicket.status).toBe(404); // a private repository's archive needs the ticket
    const tar = await fetch(location, { headers: { origin: 'https://example.com' } });
    expect(tar.status).toBe(200);
    expect(tar.headers.get('access-control-allow-origin')).toBeNull();
    const names: string[] = [];
    const gunzip = new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
    const reader = (tar.body as ReadableStream<Uint8Array>)
      .pipeThrough(gunzip)
      .pipeThrough(createTarDecoder({ strict: true }))
      .getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      names.push(r.value.header.name);
      await r.value.body.cancel();
    }
    expect(names).toEqual([
      `octo-reads-${v1.slice(0, 7)}/`,
      `octo-reads-${v1.slice(0, 7)}/a/`,
      `octo-reads-${v1.slice(0, 7)}/a/b/`,
      `octo-reads-${v1.slice(0, 7)}/a/b/c.json`,
    ]);
    const codeload = em.requests.filter((r) => r.operation === 'codeload/legacy.tar.gz');
    expect(codeload.length).toBeGreaterThan(0);
    expect(codeload.every((r) => r.sentAuthorization === false && r.costsBudget === false)).toBe(true);
  });
});

describe('codeload tickets', () => {
  /** The same orphan commit (same files, date and message) in two private repositories. */
  function twin(): string {
    const same = { orphan: true, files: { 'x.json': '{}' }, date: '2024-01-01T00:00:00Z', message: 'twin' };
    em.state.createRepo('octo/twin-a', { private: true });
    em.state.createRepo('octo/twin-b', { private: true });
    const a = em.state.commitFiles('octo/twin-a', { ...same, branch: REF });
    expect(em.state.commitFiles('octo/twin-b', { ...same, branch: REF })).toBe(a);
    return a;
  }
  const ticketFor = async (repo: string, commit: string) => {
    const r = await fetch(`${em.url}/repos/${repo}/tarball/${commit}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      redirect: 'manual',
    });
    return new URL(r.headers.get('location') as string);
  };

  it('a ticket handed out for another repository is refused, even for the same commit', async () => {
    const commit = twin();
    const forA = await ticketFor('octo/twin-a', commit);
    expect((await fetch(forA)).status).toBe(200);
    const onB = new URL(forA.pathname.replace('/twin-a/', '/twin-b/'), forA.origin);
    onB.search = forA.search;
    expect((await fetch(onB)).status).toBe(404);
  });

  it('an expired ticket is refused (they last ARCHIVE_TICKET_MS)', async () => {
    const location = await ticketFor('octo/reads', v1);
    const state = em.state as { now: () => number };
    const realNow = state.now;
    state.now = () => realNow() + ARCHIVE_TICKET_MS + 1;
    try {
      expect((await fetch(location)).status).toBe(404);
    } finally {
      state.now = realNow;
    }
    expect((await fetch(location)).status).toBe(200); // the same ticket, still within its time
  });
});

describe('GraphQL object(expression:) and object(oid:)', () => {
  it('resolves <sha>:<path> to a Blob with text, and flags binary blobs', async () => {
    const query = `query($e: String!, $b: String!) { repository(owner: "octo", name: "reads") {
      c: object(expression: $e) { __typename oid ... on Blob { text byteSize isBinary isTruncated } }
      b: object(expression: $b) { ... on Blob { text isBinary } }
      t: object(expression: "${v2}:a") { __typename ... on Tree { entries { name oid type } } }
      n: object(expression: "${v2}:nope") { oid } } }`;
    const res = await api('POST', '/graphql', { query, variables: { e: `${v2}:a/b/c.json`, b: `${v2}:a/bin.dat` } });
    const repo = (res.body as { data: { repository: Record<string, Record<string, unknown> | null> } }).data.repository;
    expect(repo.c).toMatchObject({
      __typename: 'Blob',
      text: '{"v":2}\n',
      byteSize: 8,
      isBinary: false,
      isTruncated: false,
    });
    expect(repo.b).toEqual({ text: null, isBinary: true });
    expect(repo.t?.__typename).toBe('Tree');
    expect(repo.n).toBeNull();
    const byOid = await api('POST', '/graphql', {
      query: `{ repository(owner: "octo", name: "reads") { object(oid: "${repo.c?.oid}") { ... on Blob { text } } } }`,
    });
    expect(byOid.body).toEqual({ data: { repository: { object: { text: '{"v":2}\n' } } } });
  });
});

describe('GraphQL ref(qualifiedName:) and Commit.file(path:)', () => {
  const query = `query($ref: String!) { repository(owner: "octo", name: "reads") {
    t: ref(qualifiedName: $ref) { prefix name target { __typename oid ... on Commit {
      f: file(path: "a/b/c.json") { name path mode oid type size object { __typename oid ... on Blob { text isBinary isTruncated } } }
      d: file(path: "a/b") { mode type object { __typename } }
      n: file(path: "a/nope.json") { oid }
      x: file(path: "a/b/c.json/deeper") { oid } } } } } rateLimit { cost } }`;
  type Answer = {
    data: {
      repository: {
        t: { prefix: string; name: string; target: Record<string, { oid?: string } | null> & { oid: string } } | null;
      };
      rateLimit: { cost: number };
    };
    errors?: unknown;
  };

  it("reads the ref's tip and files of that commit in one query (1 point): a blob's entry, a directory's, none", async () => {
    const res = await api('POST', '/graphql', { query, variables: { ref: REF } });
    const body = res.body as Answer;
    expect(body.errors).toBeUndefined();
    const t = body.data.repository.t!;
    expect(`${t.prefix}${t.name}`).toBe(REF);
    expect(t.target.oid).toBe(v2);
    expect(t.target.f).toEqual({
      name: 'c.json',
      path: 'a/b/c.json',
      mode: 0o100644,
      oid: em.state.repo('octo/reads').db.lookupPath(em.state.repo('octo/reads').db.getCommit(v2).tree, 'a/b/c.json')
        ?.sha,
      type: 'blob',
      size: 8,
      object: { __typename: 'Blob', oid: t.target.f?.oid, text: '{"v":2}\n', isBinary: false, isTruncated: false },
    });
    expect(t.target.d).toEqual({ mode: 0o40000, type: 'tree', object: { __typename: 'Tree' } });
    expect(t.target.n).toBeNull();
    expect(t.target.x).toBeNull();
    expect(body.data.rateLimit.cost).toBe(1);
  });

  it('a missing ref is null; a name that is no full ref falls back to a branch of that short name', async () => {
    const missing = (await api('POST', '/graphql', { query, variables: { ref: 'refs/docdb/none' } })).body as Answer;
    expect(missing.data.repository.t).toBeNull();
    const at = em.state.commitFiles('octo/reads', { branch: 'refs/heads/short', files: { 'a/b/c.json': '{}' } });
    const short = (await api('POST', '/graphql', { query, variables: { ref: 'short' } })).body as Answer;
    expect(short.data.repository.t).toMatchObject({ prefix: 'refs/heads/', name: 'short', target: { oid: at } });
  });
});

describe('GraphQL Blob.text past its limit', () => {
  it('is cut with isTruncated: true; byteSize is the whole blob', async () => {
    const long = `${'0123456789'.repeat(10)}\n`;
    const at = em.state.commitFiles('octo/reads', { branch: 'refs/heads/long', files: { 'long.txt': long } });
    const query = `query($e: String!) { repository(owner: "octo", name: "reads") {
      object(expression: $e) { ... on Blob { text byteSize isBinary isTruncated } } } }`;
    const res = await api('POST', '/graphql', { query, variables: { e: `${at}:long.txt` } });
    expect(res.body).toEqual({
      data: {
        repository: {
          object: { text: long.slice(0, TEXT_MAX), byteSize: long.length, isBinary: false, isTruncated: true },
        },
      },
    });
  });

  it("the limits default to GitHub's; bad values are refused naming the option", async () => {
    const app = createEmulatorApp();
    app.state.createRepo('octo/d');
    const at = app.state.commitFiles('octo/d', {
      files: { 'big.txt': 'b'.repeat(512_001), 'edge.txt': 'e'.repeat(512_000) },
    });
    app.state.addToken(TOKEN, { login: 'octo', repos: '*' });
    const query = `{ repository(owner: "octo", name: "d") {
      b: object(expression: "${at}:big.txt") { ... on Blob { isTruncated } }
      e: object(expression: "${at}:edge.txt") { ... on Blob { isTruncated } } } }`;
    const res = await app.fetch(
      new Request('http://emulator.local/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }),
    );
    expect(await res.json()).toEqual({ data: { repository: { b: { isTruncated: true }, e: { isTruncated: false } } } });
    expect(() => createEmulatorApp({ contentsMaxBytes: 0 })).toThrow(/contentsMaxBytes must be a positive integer/);
    expect(() => createEmulatorApp({ graphqlBlobTextBytes: 1.5 })).toThrow(/graphqlBlobTextBytes/);
  });
});

describe('recursive trees', () => {
  it('are truncated at the byte limit as well as the entry count', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`d/${String(i).padStart(3, '0')}.json`] = `${i}`;
    const tip = em.state.commitFiles('octo/reads', { branch: REF, files });
    const res = await api('GET', `/repos/octo/reads/git/trees/${tip}?recursive=1`);
    const body = res.body as { tree: unknown[]; truncated: boolean };
    expect(body.truncated).toBe(true);
    expect(body.tree.length).toBeLessThan(200);
    expect(utf8(JSON.stringify(body)).length).toBeLessThanOrEqual(20_000);
  });
});
