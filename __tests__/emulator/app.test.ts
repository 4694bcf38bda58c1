/**
 * The emulator's web-standard core without any server: `app.fetch(Request)` answers like the
 * node:http emulator, a RemoteApiRefStore runs over it as over a network, and connection faults reject
 * like fetch does (TypeError).
 */
import { describe, expect, it } from 'vitest';
import { createEmulatorApp } from '../../src/emulator/app.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { checkResponseRecord } from './openapi-validator.js';
import { responseChecks, withResponseChecks } from './response-checks.js';

const BASE = 'http://emulator.invalid';

function app() {
  const a = createEmulatorApp(withResponseChecks({}, checkResponseRecord));
  a.state.createRepo('octo/data', { description: 'in-page' });
  a.state.addToken('tok', { login: 'octo', repos: '*' });
  return a;
}

describe('createEmulatorApp (no server)', () => {
  it('answers Requests with GitHub headers, ETags and 304s', async () => {
    const a = app();
    const first = await a.fetch(new Request(`${BASE}/repos/octo/data`));
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    const body = (await first.json()) as { full_name: string; url: string };
    expect(body.full_name).toBe('octo/data');
    // URLs in bodies use the request's origin, so clients can follow them.
    expect(body.url).toBe(`${BASE}/repos/octo/data`);
    const again = await a.fetch(new Request(`${BASE}/repos/octo/data`, { headers: { 'If-None-Match': etag } }));
    expect(again.status).toBe(304);
    expect(a.requests.map((r) => r.status)).toEqual([200, 304]);
  });

  it('serves a RemoteApiRefStore through fetchFunction (every answer OpenAPI-checked)', async () => {
    const a = app();
    const validatedBefore = responseChecks.validated;
    const store = new RemoteApiRefStore({
      transport: fetchTransport({ fetch: a.fetchFunction }),
      apiUrl: BASE.replace('http:', 'https:'),
      owner: 'octo',
      repo: 'data',
      token: 'tok',
    });
    const w = await store.put('k.json', '{"a":1}');
    expect(w.changed).toBe(true);
    const got = await store.get('k.json');
    expect(new TextDecoder().decode(got?.value)).toBe('{"a":1}');
    expect(a.state.repo('octo/data').db.readRef('refs/docdb/documents')).toBe(w.version);
    // The onResponse hook saw (and validated) every answer of the in-page core.
    expect(responseChecks.validated - validatedBefore).toBe(a.requests.length);
  });

  it('rejects like a network failure on reset, applies then drops on drop-reply, and frees hangs on close', async () => {
    const a = app();
    a.inject({ kind: 'reset' });
    await expect(a.fetchFunction(`${BASE}/repos/octo/data`)).rejects.toBeInstanceOf(TypeError);
    a.inject({ kind: 'drop-reply' });
    await expect(a.fetchFunction(`${BASE}/repos/octo/data`)).rejects.toThrow(/drop-reply/);
    expect(a.requests.at(-1)).toMatchObject({ fault: 'drop-reply', status: 200 });
    a.inject({ kind: 'hang' });
    const hanging = a.fetchFunction(`${BASE}/repos/octo/data`);
    a.close();
    await expect(hanging).rejects.toThrow(/hang/);
  });

  it('frees a hang when the client aborts', async () => {
    const a = app();
    a.inject({ kind: 'hang' });
    const ctl = new AbortController();
    const hanging = a.fetchFunction(`${BASE}/repos/octo/data`, { signal: ctl.signal });
    ctl.abort();
    await expect(hanging).rejects.toBeInstanceOf(TypeError);
    expect((await a.fetchFunction(`${BASE}/repos/octo/data`)).status).toBe(200);
  });
});

describe('the request log names the blobs each answer carried', () => {
  it('a REST blob, a contents file and GraphQL Blob.text; not a listing, a 304 or a query without text', async () => {
    const a = app();
    const commit = a.state.commitFiles('octo/data', { files: { 'd/a.json': '{"a":1}', 'd/b.json': '{"b":2}' } });
    const db = a.state.repo('octo/data').db;
    const [sa, sb] = ['d/a.json', 'd/b.json'].map((p) => db.lookupPath(db.getCommit(commit).tree, p)?.sha as string);
    const auth = { authorization: 'Bearer tok' };
    const get = (path: string, headers: Record<string, string> = {}) =>
      a.fetch(new Request(`${BASE}/repos/octo/data${path}`, { headers: { ...auth, ...headers } }));
    const graphql = (fields: string) =>
      a.fetch(
        new Request(`${BASE}/graphql`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ query: `{ repository(owner: "octo", name: "data") { ${fields} } }` }),
        }),
      );
    const blobsOf = async (answer: Promise<Response>) => {
      const from = a.requests.length;
      expect((await answer).status).toBeLessThan(400);
      return a.requests.slice(from).flatMap((r) => r.blobs ?? []);
    };
    expect(await blobsOf(get(`/git/blobs/${sa}`))).toEqual([sa]);
    const file = await get('/contents/d/b.json');
    expect(a.requests.at(-1)?.blobs).toEqual([sb]);
    const etag = file.headers.get('etag') as string;
    expect(await blobsOf(get('/contents/d/b.json', { 'if-none-match': etag }))).toEqual([]);
    expect(a.requests.at(-1)?.status).toBe(304);
    expect(await blobsOf(get('/contents/d'))).toEqual([]); // a listing: names and sizes only
    expect(await blobsOf(get(`/git/trees/${commit}?recursive=1`))).toEqual([]);
    expect(await blobsOf(graphql(`o: object(oid: "${sa}") { ... on Blob { text } }`))).toEqual([sa]);
    expect(await blobsOf(graphql(`o: object(oid: "${sb}") { ... on Blob { byteSize oid } }`))).toEqual([]);
    const tree = `object(expression: "${commit}:d") { ... on Tree { entries { object { ... on Blob { text } } } } }`;
    expect((await blobsOf(graphql(tree))).sort()).toEqual([sa, sb].sort());
  });
});
