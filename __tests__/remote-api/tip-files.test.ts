/**
 * A bulk read at the tip with the `fewestRounds` hint (issue 42, a search's first round): with a token, the ref's
 * tip and the files at that very commit in ONE GraphQL query (tip-files.ts); a cache holding every value at the
 * tip last seen keeps today's 304; what the query cannot settle exactly (binary, truncated) is read by SHA at the
 * SAME tip even when a commit lands in between; a GraphQL refusal falls back to the ref read and the usual reads.
 */
import { describe, expect, it } from 'vitest';
import { readManyFrom } from '../../src/core/read-many.js';
import type { OperationMeta, RefStore } from '../../src/core/refstore.js';
import type { RemoteApiLogEvent } from '../../src/stores/remote-api/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, makeTransport, OWNER, ops, store, TOKEN } from './helpers.js';

/** GraphQL cuts `Blob.text` past this many bytes here (GitHub: 512,000), so a small blob can cross it. */
const TEXT_LIMIT = 4096;
const fx = emulatorPerFile({ graphqlBlobTextBytes: TEXT_LIMIT });
const REF = 'refs/docdb/documents';
const BIG = `${'y'.repeat(TEXT_LIMIT + 10)}\n`;
const BINARY = 'bin\u0000ary';

function seed(files: Record<string, string | null>): string {
  return fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files });
}

/** What a bulk read gave: texts by key, the one version its items name, and its cost. */
async function read(s: RefStore, keys: string[], fewestRounds = true) {
  let cost: OperationMeta = {};
  const got: Record<string, string | null> = {};
  const versions = new Set<string | null>();
  for await (const item of readManyFrom(s, keys, { fewestRounds, onMeta: (m) => (cost = m) })) {
    got[item.key] = item.value === null ? null : new TextDecoder().decode(item.value);
    versions.add(item.version);
  }
  expect(versions.size).toBe(1);
  return { got, version: [...versions][0], cost };
}

/** A transport that runs `after` once, right after the first GraphQL answer (a writer landing in between). */
function landingAfterGraphql(after: () => void): HttpTransport {
  const inner = makeTransport('fetch', fx.em, TOKEN);
  let landed = false;
  return {
    async request(req) {
      const res = await inner.request(req);
      if (!landed && req.url.endsWith('/graphql')) {
        landed = true;
        after();
      }
      return res;
    },
  };
}

describe('fewestRounds at the tip, with a token', () => {
  it('one query: the tip and the files at it (absent keys and directories are null)', async () => {
    const tip = seed({ 'a.json': '{"a":1}\n', 'd/b.json': '{"b":2}\n' });
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const r = await read(s, ['a.json', 'd/b.json', 'gone.json', 'd']);
    expect(r.got).toEqual({ 'a.json': '{"a":1}\n', 'd/b.json': '{"b":2}\n', 'gone.json': null, d: null });
    expect(r.version).toBe(tip);
    expect(ops(fx.em, from)).toEqual(['POST graphql 200']);
    expect(r.cost.requests).toBe(1);
    // The tip it learned is the store's tip: a head() after it is a conditional ref read that agrees.
    expect(await s.head()).toBe(tip);
  });

  it('without the hint, or pinned to a version: the usual reads (ref, then the files query)', async () => {
    const tip = seed({ 'a.json': '1' });
    const from = fx.em.requests.length;
    expect((await read(store(fx.em, fx.repo), ['a.json'], false)).version).toBe(tip);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200', 'POST graphql 200']);
    const from2 = fx.em.requests.length;
    const pinned = store(fx.em, fx.repo);
    let items = 0;
    for await (const item of readManyFrom(pinned, ['a.json'], { version: tip, fewestRounds: true })) {
      expect(item.version).toBe(tip);
      items++;
    }
    expect(items).toBe(1);
    expect(ops(fx.em, from2).includes('POST graphql 200')).toBe(true);
    expect(ops(fx.em, from2).some((o) => o.startsWith('GET git/get-ref'))).toBe(false);
  });

  it('every value cached at the tip it knew: one 304, as before; the tip moved: the ref read, then the files', async () => {
    seed({ 'a.json': '1', 'b.json': '2' });
    const s = store(fx.em, fx.repo);
    await s.head(); // the ref read caches the tip with its ETag
    await read(s, ['a.json', 'b.json']);
    const from = fx.em.requests.length;
    expect((await read(s, ['a.json', 'b.json'])).got).toEqual({ 'a.json': '1', 'b.json': '2' });
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 304']);
    const moved = seed({ 'a.json': '3' });
    const from2 = fx.em.requests.length;
    const r = await read(s, ['a.json', 'b.json']);
    expect(r).toMatchObject({ got: { 'a.json': '3', 'b.json': '2' }, version: moved });
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 200', 'POST graphql 200']);
  });

  it('a value not cached at the tip it knew: one query again (the ETag of another tip is dropped)', async () => {
    const first = seed({ 'a.json': '1' });
    const s = store(fx.em, fx.repo);
    expect(await s.head()).toBe(first);
    const moved = seed({ 'a.json': '2' });
    const from = fx.em.requests.length;
    expect(await read(s, ['a.json'])).toMatchObject({ got: { 'a.json': '2' }, version: moved });
    expect(ops(fx.em, from)).toEqual(['POST graphql 200']);
    // The cached ETag was the first tip's: kept with the new tip, a 304 would answer a tip the ref has left.
    seed({ 'a.json': '1' });
    const from2 = fx.em.requests.length;
    expect(await s.head()).not.toBe(moved);
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 200']);
  });

  it('binary and truncated values are read by SHA at the SAME tip, though a commit lands in between', async () => {
    const tip = seed({ 'a.json': 'plain', 'bin.dat': BINARY, 'big.json': BIG });
    const transport = landingAfterGraphql(() => seed({ 'a.json': 'later', 'bin.dat': 'later', 'big.json': 'later' }));
    const s = store(fx.em, fx.repo, { transport });
    const from = fx.em.requests.length;
    const r = await read(s, ['a.json', 'bin.dat', 'big.json']);
    expect(r).toEqual({
      got: { 'a.json': 'plain', 'bin.dat': BINARY, 'big.json': BIG },
      version: tip,
      cost: expect.objectContaining({ requests: 3 }),
    });
    // One query, then the two values GraphQL could not give exactly, by SHA (never GraphQL again for them).
    expect(ops(fx.em, from)).toEqual(['POST graphql 200', 'GET git/get-blob 200', 'GET git/get-blob 200']);
  });

  it('a GraphQL refusal (HTTP 403, or an answer with errors): the ref read and the usual reads, one version', async () => {
    const tip = seed({ 'a.json': '1', 'b.json': '2' });
    fx.em.inject({ kind: 'status', status: 403, method: 'POST', path: '/graphql' });
    const from = fx.em.requests.length;
    const r = await read(store(fx.em, fx.repo), ['a.json', 'b.json']);
    expect(r).toMatchObject({ got: { 'a.json': '1', 'b.json': '2' }, version: tip });
    expect(ops(fx.em, from)).toEqual(['POST graphql 403', 'GET git/get-ref 200', 'POST graphql 200']);

    const inner = makeTransport('fetch', fx.em, TOKEN);
    let refused = 0;
    const erring: HttpTransport = {
      async request(req) {
        const body = req.body ? new TextDecoder().decode(req.body) : '';
        if (!body.includes('file(path:')) return inner.request(req);
        refused++;
        const answer = { data: null, errors: [{ type: 'SERVICE_UNAVAILABLE', message: 'Something went wrong' }] };
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode(JSON.stringify(answer)),
        };
      },
    };
    const moved = seed({ 'a.json': '3' });
    const r2 = await read(store(fx.em, fx.repo, { transport: erring }), ['a.json', 'b.json']);
    expect(refused).toBe(1);
    expect(r2).toMatchObject({ got: { 'a.json': '3', 'b.json': '2' }, version: moved });
  });

  it('a ref that is not the section (only a short-name match, or none): the ref read decides', async () => {
    // No section yet: the query finds no ref; the usual ref read answers null.
    const from = fx.em.requests.length;
    const early = store(fx.em, fx.repo);
    const none = await read(early, ['a.json']);
    expect(none).toMatchObject({ got: { 'a.json': null }, version: null });
    expect(ops(fx.em, from)[0]).toBe('POST graphql 200');
    // Once the section exists, the same store reads it with the query again (an absent ref proves nothing).
    const tip = seed({ 'a.json': '1' });
    const from1 = fx.em.requests.length;
    expect(await read(early, ['a.json'])).toMatchObject({ got: { 'a.json': '1' }, version: tip });
    expect(ops(fx.em, from1)).toEqual(['POST graphql 200']);
    // A branch whose short name is the section's full name is what `qualifiedName` falls back to: not taken.
    const s = store(fx.em, fx.repo, { ref: 'refs/docdb/other' });
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: 'refs/heads/refs/docdb/other', files: { 'a.json': 'x' } });
    const from2 = fx.em.requests.length;
    const r = await read(s, ['a.json']);
    expect(r).toMatchObject({ got: { 'a.json': null }, version: null });
    expect(ops(fx.em, from2).slice(0, 2)).toEqual(['POST graphql 200', 'GET git/get-ref 404']);
  });

  it('a ref GraphQL does not name, though the ref read finds it: the query is not sent again by this store', async () => {
    const tip = seed({ 'a.json': '1', 'b.json': '2' });
    const inner = makeTransport('fetch', fx.em, TOKEN);
    let asked = 0;
    const blind: HttpTransport = {
      async request(req) {
        const res = await inner.request(req);
        if (!(req.body && new TextDecoder().decode(req.body).includes('file(path:'))) return res;
        asked++; // answered as a GitHub that resolves no such ref name would answer
        const answer = { data: { repository: { t: null } } };
        return { ...res, body: new TextEncoder().encode(JSON.stringify(answer)) };
      },
    };
    const s = store(fx.em, fx.repo, { transport: blind });
    const from = fx.em.requests.length;
    expect(await read(s, ['a.json'])).toMatchObject({ got: { 'a.json': '1' }, version: tip });
    expect(ops(fx.em, from)).toEqual(['POST graphql 200', 'GET git/get-ref 200', 'POST graphql 200']);
    const from2 = fx.em.requests.length;
    expect(await read(s, ['b.json'])).toMatchObject({ got: { 'b.json': '2' }, version: tip });
    expect(ops(fx.em, from2)).toEqual(['GET git/get-ref 304', 'POST graphql 200']);
    expect(asked).toBe(1);
  });

  it('the token appears in no request log, error or log event of these reads (a refused token included)', async () => {
    seed({ 'a.json': '1', 'bin.dat': BINARY });
    const events: RemoteApiLogEvent[] = [];
    fx.em.inject({ kind: 'status', status: 403, method: 'POST', path: '/graphql' });
    await read(store(fx.em, fx.repo, { logger: (e) => events.push(e) }), ['a.json', 'bin.dat']);
    const bad = `${TOKEN.slice(0, -4)}XXXX`;
    const from = fx.em.requests.length;
    const refused = await read(store(fx.em, fx.repo, { token: bad, logger: (e) => events.push(e) }), ['a.json']).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Error);
    // The query was refused (401), then the ref read, whose 401 is the error.
    expect(ops(fx.em, from)[0]).toBe('POST graphql 401');
    const e = refused as Error & { toJSON?: () => unknown };
    const text = `${JSON.stringify(events)} ${e.message} ${e.stack} ${JSON.stringify(e.toJSON?.())} ${JSON.stringify(fx.em.requests)}`;
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(bad);
  });
});

describe('fewestRounds without a token', () => {
  it('is ignored: the ref read, then the contents reads', async () => {
    const tip = seed({ 'a.json': '1' });
    const s = store(fx.em, fx.repo, { token: undefined });
    const from = fx.em.requests.length;
    expect(await read(s, ['a.json'])).toMatchObject({ got: { 'a.json': '1' }, version: tip });
    expect(ops(fx.em, from).includes('POST graphql 200')).toBe(false);
    expect(ops(fx.em, from)[0]).toBe('GET git/get-ref 200');
  });
});

describe('the childFiles hint (a search without a type: every type’s manifest with the tip)', () => {
  const UNDER = '_docdb/search/ns';
  const HINT = { under: UNDER, names: ['manifest.json', 'delta.txt'] };

  /** A hinted read of `keys` at the tip, then a read of `next` at the version it named: that one's requests. */
  async function hintedThen(s: RefStore, keys: string[], next: string[], childFiles = HINT) {
    let version: string | null = null;
    const from = fx.em.requests.length;
    for await (const item of readManyFrom(s, keys, { fewestRounds: true, childFiles })) version = item.version;
    const first = ops(fx.em, from);
    const got: Record<string, string | null> = {};
    const from2 = fx.em.requests.length;
    for await (const item of readManyFrom(s, next, { version: version ?? undefined })) {
      got[item.key] = item.value === null ? null : new TextDecoder().decode(item.value);
    }
    return { version, first, got, after: ops(fx.em, from2) };
  }

  it('one query brings each directory’s named files: the next read at that version costs no request', async () => {
    const tip = seed({
      'decl.json': '{}',
      [`${UNDER}/a/manifest.json`]: '{"a":1}',
      [`${UNDER}/a/delta.txt`]: 'da',
      [`${UNDER}/a/terms/0.txt`]: 'shard',
      [`${UNDER}/b/manifest.json`]: '{"b":2}',
      [`${UNDER}/b/other.txt`]: 'not named',
    });
    const s = store(fx.em, fx.repo);
    const named = [`${UNDER}/a/manifest.json`, `${UNDER}/a/delta.txt`, `${UNDER}/b/manifest.json`];
    const r = await hintedThen(s, ['decl.json'], named);
    expect(r.version).toBe(tip);
    expect(r.first).toEqual(['POST graphql 200']);
    expect(r.got).toEqual({
      [`${UNDER}/a/manifest.json`]: '{"a":1}',
      [`${UNDER}/a/delta.txt`]: 'da',
      [`${UNDER}/b/manifest.json`]: '{"b":2}',
    });
    expect(r.after).toEqual([]);
    // A file the hint did not name is not taken from that answer: it is read as usual.
    const from = fx.em.requests.length;
    for await (const _ of readManyFrom(s, [`${UNDER}/b/other.txt`], { version: tip })) void _;
    expect(ops(fx.em, from)).toEqual(['POST graphql 200']);
  });

  it('the directory absent (or a file): nothing comes, the next read reads as usual', async () => {
    seed({ 'decl.json': '{}', '_docdb/search/file': 'a file, not a directory' });
    const none = { under: '_docdb/search/none', names: ['manifest.json'] };
    const absent = await hintedThen(store(fx.em, fx.repo), ['decl.json'], ['_docdb/search/none/a/manifest.json'], none);
    expect(absent.first).toEqual(['POST graphql 200']);
    expect(absent.got).toEqual({ '_docdb/search/none/a/manifest.json': null });
    expect(absent.after).toEqual(['POST graphql 200']);
    const file = { under: '_docdb/search/file', names: ['manifest.json'] };
    const r = await hintedThen(store(fx.em, fx.repo), ['decl.json'], ['_docdb/search/file/a/manifest.json'], file);
    expect(r.got).toEqual({ '_docdb/search/file/a/manifest.json': null });
    expect(r.after).toEqual(['POST graphql 200']);
  });

  it('binary and truncated files are left out (read by SHA as usual); the exact ones still come', async () => {
    seed({
      'decl.json': '{}',
      [`${UNDER}/a/manifest.json`]: BINARY,
      [`${UNDER}/b/manifest.json`]: BIG,
      [`${UNDER}/c/manifest.json`]: '{"c":3}',
    });
    const s = store(fx.em, fx.repo);
    const r = await hintedThen(s, ['decl.json'], [`${UNDER}/c/manifest.json`]);
    expect(r.after).toEqual([]);
    const r2 = await hintedThen(s, ['decl.json'], [`${UNDER}/a/manifest.json`, `${UNDER}/b/manifest.json`]);
    expect(r2.got).toEqual({ [`${UNDER}/a/manifest.json`]: BINARY, [`${UNDER}/b/manifest.json`]: BIG });
    // Their paths are resolved (GraphQL), then their bytes by SHA: what a read without the hint does.
    expect(r2.after).toEqual(['POST graphql 200', 'GET git/get-blob 200', 'GET git/get-blob 200']);
  });

  it('more directories than 100: none is kept (the next read reads them, batched)', async () => {
    const files: Record<string, string> = { 'decl.json': '{}' };
    for (let i = 0; i <= 100; i++) files[`${UNDER}/t${i}/manifest.json`] = `{"t":${i}}`;
    seed(files);
    const r = await hintedThen(store(fx.em, fx.repo), ['decl.json'], [`${UNDER}/t0/manifest.json`]);
    expect(r.got).toEqual({ [`${UNDER}/t0/manifest.json`]: '{"t":0}' });
    expect(r.after).toEqual(['POST graphql 200']);
  });

  it('a hint that names no valid files is refused before any request, naming the option', async () => {
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    for (const bad of [
      { under: UNDER, names: [] },
      { under: UNDER, names: ['a/b'] },
      { under: '../x', names: ['m'] },
    ]) {
      const e = await (async () => {
        for await (const _ of readManyFrom(s, ['a.json'], { fewestRounds: true, childFiles: bad })) void _;
      })().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as { code?: string }).code).toMatch(/InvalidConfig|InvalidKey/);
    }
    expect(fx.em.requests.length).toBe(from);
  });
});
