/**
 * Issue 21: exactly one `POST /git/commits` per commit that lands. A create-commit whose reply was lost
 * may have created its commit, and without an author GitHub dates (and may sign) the commit itself, so
 * sending the request again makes a second commit: the store used to do just that (the request was
 * retried like a read), which is how one write left 2 commits for 1 tree under load. POSTs are counted
 * in the emulator's log (two identical POSTs in the same second make the same SHA, so counting commit
 * objects could miss a duplicate). Through a front end (front-end.ts), for the fetch and Octokit
 * transports: a reply lost after the emulator applied the POST, and a POST sent on a keep-alive
 * connection the server had closed as idle. Every test here fails when the POST is retried like a read
 * (the store's `retry: true`, or plugin-retry left on for writes).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TransportError, UpstreamUnavailable } from '../../src/core/errors.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import { fetchTransport, octokitTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { type FrontEnd, idleBeforeCommits, startFrontEnd } from './front-end.js';
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

const transports: Record<string, (url: string) => HttpTransport> = {
  fetch: () => fetchTransport({ timeoutMs: 10_000 }),
  octokit: (url) =>
    octokitTransport(
      createOctokit({ auth: TOKEN, baseUrl: url, writeSpacingMs: 0, retryAfterBaseMs: 1, warn: () => {} }),
    ),
};
const authors = { 'without an author': undefined, 'with an author': AUTHOR };

/** A store reaching the emulator through the front end. */
const storeVia = (fe: FrontEnd, transport: HttpTransport, author: typeof AUTHOR | undefined) =>
  new RemoteApiRefStore({
    transport,
    apiUrl: fe.url,
    owner: OWNER,
    repo: fx.repo,
    token: TOKEN,
    sleep: async () => {},
    ...(author ? { author } : {}),
  });

/** What the front end saw of create-commit (`create`) and its check (`check`), with status or fate. */
const commitTraffic = (fe: FrontEnd) =>
  fe.arrivals
    .filter((a) => a.path.includes('/git/commits'))
    .map((a) => {
      const what = a.method === 'POST' ? 'create' : 'check';
      const how = a.late ? 'late' : a.dropped ? `${a.status} dropped` : String(a.status);
      return `${what} ${how}`;
    });

describe('through a front end', () => {
  let fe: FrontEnd | undefined;
  afterEach(async () => {
    await fe?.stop();
    fe = undefined;
  });

  for (const [kind, make] of Object.entries(transports)) {
    for (const [who, author] of Object.entries(authors)) {
      it(`a reply lost after the emulator applied POST /git/commits: one POST reaches it (${kind}, ${who})`, async () => {
        fe = await startFrontEnd(fx.em.url, {
          dropReplyTo: (method, path) => method === 'POST' && path.endsWith('/git/commits'),
        });
        const s = storeVia(fe, make(fe.url), author);
        const objects = commitObjects();
        const from = fx.em.requests.length;
        const r = await s.put('a.json', '1').catch((e) => e);
        // Exactly one create-commit reached the emulator, and it was applied.
        expect(commitPosts(from).map((q) => q.status)).toEqual([201]);
        expect(commitObjects()).toBe(objects + 1);
        if (author) {
          // The commit's SHA is known: one check finds it, and the write lands on it.
          expect(commitTraffic(fe)).toEqual(['create 201 dropped', 'check 200']);
          expect(r.changed).toBe(true);
          expect(db().readRef(REF)).toBe(r.version);
        } else {
          expect(commitTraffic(fe)).toEqual(['create 201 dropped']);
          expect(r).toBeInstanceOf(TransportError);
          expect(r.data).toMatchObject({ outcome: 'not-applied', step: 'create commit' });
          expect(db().readRef(REF)).toBeUndefined();
        }
      });

      it(`a connection the server closed as idle, reused for POST /git/commits: never sent again blindly (${kind}, ${who})`, async () => {
        fe = await startFrontEnd(fx.em.url);
        const s = storeVia(fe, idleBeforeCommits(make(fe.url), fe), author);
        const objects = commitObjects();
        const from = fx.em.requests.length;
        const writes = 3;
        const outcomes: unknown[] = [];
        for (let i = 0; i < writes; i++) outcomes.push(await s.put(`k${i}.json`, String(i)).catch((e) => e));
        // The hazard happened: each write's create-commit went out on a connection the server had closed.
        expect(fe.arrivals.filter((a) => a.late && a.reused && a.path.endsWith('/git/commits'))).toHaveLength(writes);
        expect(fe.connections).toBeLessThan(fe.arrivals.length);
        if (author) {
          // Reset unprocessed: the check finds no commit, and only then is the same body sent again.
          expect(commitTraffic(fe)).toEqual(Array(writes).fill(['create late', 'check 404', 'create 201']).flat());
          for (const r of outcomes) expect((r as { changed: boolean }).changed).toBe(true);
          expect(commitPosts(from)).toHaveLength(writes);
          expect(commitObjects()).toBe(objects + writes);
        } else {
          // Nothing tells whether the reset request was applied: the write stops, typed, the ref untouched.
          expect(commitTraffic(fe)).toEqual(Array(writes).fill('create late'));
          for (const e of outcomes) {
            expect(e).toBeInstanceOf(TransportError);
            expect((e as TransportError).data).toMatchObject({ outcome: 'not-applied', step: 'create commit' });
          }
          expect(commitPosts(from)).toHaveLength(0);
          expect(db().readRef(REF)).toBeUndefined();
        }
      });
    }
  }
});
