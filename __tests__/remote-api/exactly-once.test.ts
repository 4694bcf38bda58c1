/**
 * Issue 21: exactly one `POST /git/commits` per commit that lands. A create-commit whose reply was lost
 * may have created its commit, and without an author GitHub dates (and may sign) the commit itself, so
 * sending the request again makes a second commit: the store used to do just that (the request was
 * retried like a read), which is how one write left 2 commits for 1 tree under load. Counted in the
 * emulator's log and object database; a front end closes idle connections like a real one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TransportError, UpstreamUnavailable } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import { fetchTransport, octokitTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { busyBefore, type FrontEnd, startFrontEnd } from './front-end.js';
import { emulatorPerFile, OWNER, store, TOKEN } from './helpers.js';

const REF = 'refs/docdb/documents';
const AUTHOR = { name: 'Ada', email: 'ada@example.com' };
const fx = emulatorPerFile();
beforeEach(() => fx.em.clearFaults());

const db = () => fx.em.state.repo(`${OWNER}/${fx.repo}`).db;
const commitObjects = () => [...db().objectIds()].filter((id) => db().typeOf(id) === 'commit').length;
const commitPosts = (from: number) =>
  fx.em.requests.slice(from).filter((r) => r.method === 'POST' && r.path.endsWith('/git/commits'));

describe('a lost reply to POST /git/commits', () => {
  it('is not sent again without an author: the write stops, nothing lands, one commit object at most', async () => {
    const s = store(fx.em, fx.repo);
    await s.put('a.json', '1');
    const tip = db().readRef(REF);
    const objects = commitObjects();
    fx.em.inject({ kind: 'drop-reply', method: 'POST', path: `/repos/${OWNER}/${fx.repo}/git/commits` });
    const from = fx.em.requests.length;
    const err = await s.put('b.json', '2').catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.data).toMatchObject({ outcome: 'not-applied', step: 'create commit' });
    expect(err.message).toMatch(/not sent again.*configure `author`.*The section was not changed/s);
    expect(commitPosts(from)).toHaveLength(1);
    expect(commitObjects()).toBe(objects + 1); // the one the lost request made, unreferenced
    expect(db().readRef(REF)).toBe(tip);
    // Retrying the write is safe and lands with one more request.
    const again = fx.em.requests.length;
    expect((await s.put('b.json', '2')).changed).toBe(true);
    expect(commitPosts(again)).toHaveLength(1);
  });

  it('a 5xx is a lost reply too (the commit may exist): not sent again, UpstreamUnavailable not-applied', async () => {
    const s = store(fx.em, fx.repo);
    await s.put('a.json', '1');
    fx.em.inject({ kind: 'status', status: 502, method: 'POST', path: `/repos/${OWNER}/${fx.repo}/git/commits` });
    const from = fx.em.requests.length;
    const err = await s.put('b.json', '2').catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamUnavailable);
    expect(err.data).toMatchObject({ outcome: 'not-applied', status: 502 });
    expect(commitPosts(from)).toHaveLength(1);
  });

  it('with an author the commit is known in advance: one GET finds it, the write lands, one POST', async () => {
    const s = store(fx.em, fx.repo, { author: AUTHOR });
    await s.put('a.json', '1');
    const objects = commitObjects();
    fx.em.inject({ kind: 'drop-reply', method: 'POST', path: `/repos/${OWNER}/${fx.repo}/git/commits` });
    const from = fx.em.requests.length;
    const r = await s.put('b.json', '2');
    expect(r.changed).toBe(true);
    const log = fx.em.requests.slice(from).map((q) => `${q.method} ${q.operation} ${q.status}`);
    expect(log).toEqual([
      'GET git/get-ref 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201', // applied, reply dropped
      'GET git/get-commit 200', // the SHA computed from the body exists: that is our commit
      'PATCH git/update-ref 200',
    ]);
    expect(r.requests).toBe(5);
    expect(commitObjects()).toBe(objects + 1);
    expect(db().readRef(REF)).toBe(r.version);
    expect(db().getCommit(r.version as string).author).toMatchObject(AUTHOR);
  });

  it('with an author, a request reset before it was read (404 on the check) is sent again: 1 commit', async () => {
    const s = store(fx.em, fx.repo, { author: AUTHOR });
    await s.put('a.json', '1');
    const objects = commitObjects();
    fx.em.inject({ kind: 'reset', method: 'POST', path: `/repos/${OWNER}/${fx.repo}/git/commits` });
    const from = fx.em.requests.length;
    const r = await s.put('b.json', '2');
    expect(r.changed).toBe(true);
    expect(fx.em.requests.slice(from).map((q) => `${q.method} ${q.operation} ${q.status}`)).toEqual([
      'GET git/get-ref 200',
      'POST git/create-tree 201',
      'POST git/create-commit 0', // reset: never reached the handler
      'GET git/get-commit 404', // so the commit does not exist…
      'POST git/create-commit 201', // …and the same body is sent again
      'PATCH git/update-ref 200',
    ]);
    expect(commitObjects()).toBe(objects + 1);
  });
});

describe('a front end that closes idle connections (after long CPU pauses)', () => {
  let fe: FrontEnd | undefined;
  afterEach(async () => {
    await fe?.stop();
    fe = undefined;
  });

  const transports: Record<string, (url: string) => HttpTransport> = {
    fetch: () => fetchTransport({ timeoutMs: 10_000 }),
    octokit: (url) =>
      octokitTransport(createOctokit({ auth: TOKEN, baseUrl: url, writeSpacingMs: 0, retryAfterBaseMs: 1 })),
  };

  for (const [kind, make] of Object.entries(transports)) {
    it(`every write lands with exactly one POST /git/commits (${kind} transport, keep-alive closed after 1 ms)`, async () => {
      fe = await startFrontEnd(fx.em.url, { keepAliveTimeoutMs: 1 });
      // The client is busy for 30 ms before each request: longer than the front end keeps an idle connection.
      const transport = busyBefore(make(fe.url), 30);
      const s = new RemoteApiRefStore({ transport, apiUrl: fe.url, owner: OWNER, repo: fx.repo, token: TOKEN });
      const docs = new DocumentStore(s);
      const from = fx.em.requests.length;
      const objects = commitObjects();
      for (let i = 0; i < 3; i++) {
        const r = await docs.putMany(
          Array.from({ length: 20 }, (_, k) => ({ namespace: 'n', type: 't', id: `d${k}`, data: { i, k } })),
        );
        expect(r.changed).toBe(true);
      }
      expect(commitPosts(from)).toHaveLength(3);
      expect(commitObjects()).toBe(objects + 3);
    });
  }

  it('a front end that resets every reused connection: never two commits for one write', async () => {
    fe = await startFrontEnd(fx.em.url, { keepAliveTimeoutMs: 60_000, resetReused: true });
    const s = new RemoteApiRefStore({
      transport: fetchTransport({ timeoutMs: 10_000 }),
      apiUrl: fe.url,
      owner: OWNER,
      repo: fx.repo,
      token: TOKEN,
      sleep: async () => {},
    });
    const from = fx.em.requests.length;
    const objects = commitObjects();
    let landed = 0;
    for (let i = 0; i < 5; i++) {
      const r = await s.put(`k${i}.json`, String(i)).catch((e) => e);
      if (r instanceof Error) expect((r as TransportError).data.outcome).toBe('not-applied');
      else landed++;
    }
    // Each create-commit that reached the emulator made one commit; none was sent after one that did.
    const reached = commitPosts(from).filter((q) => q.status === 201);
    expect(commitObjects() - objects).toBe(reached.length);
    expect(reached.length).toBe(landed);
  });
});
