/**
 * Issue 12 §1: a lost fast-forward race costs 4 requests — one compare against the ref name (the new tip,
 * its tree and every file changed), create tree, create commit, update ref — whether or not the other
 * writer touched the same key, counted exactly in the emulator's log.
 */
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { fetchTransport, recordingTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, ops, store } from './helpers.js';

const fx = emulatorPerFile();

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
const WRITE = ['POST git/create-tree 201', 'POST git/create-commit 201'];
const LOST = ['PATCH git/update-ref 422', 'GET repos/compare-commits-with-basehead 200'];

/**
 * Two stores that both know the current tip. b trusts its cached tip (`trustCachedTipMs`, off by default)
 * and so writes on it without reading the ref: the same race as another writer landing between b's ref
 * read and its ref update, made deterministic.
 */
async function twoWarmWriters() {
  const a = store(fx.em, fx.repo, { sleep: async () => {} });
  const b = store(fx.em, fx.repo, { sleep: async () => {}, trustCachedTipMs: Number.MAX_SAFE_INTEGER });
  await a.commit([
    { op: 'put', key: 'docs/x/one.json', value: '1' },
    { op: 'put', key: 'docs/y/two.json', value: '2' },
  ]);
  await b.get('docs/x/one.json'); // b reads the tip and the path's levels
  await b.list(); // and every level
  return { a, b };
}

describe('a lost race costs 4 requests', () => {
  it('the other writer changed another key (in the same directory): compare, tree, commit, ref', async () => {
    const { a, b } = await twoWarmWriters();
    await a.put('docs/x/three.json', '3');
    const from = fx.em.requests.length;
    const r = await b.put('docs/x/four.json', '4');
    expect(r.changed).toBe(true);
    expect(ops(fx.em, from)).toEqual([...WRITE, ...LOST, ...WRITE, 'PATCH git/update-ref 200']);
    expect(r.requests).toBe(3 + 4);
    const reader = store(fx.em, fx.repo);
    expect((await reader.list({ prefix: 'docs/x/' })).entries.map((e) => e.key)).toEqual([
      'docs/x/four.json',
      'docs/x/one.json',
      'docs/x/three.json',
    ]);
  });

  it('the other writer changed the SAME key: the change is judged again on the new tree, still 4 requests', async () => {
    const { a, b } = await twoWarmWriters();
    await a.put('docs/x/one.json', 'from a');
    const from = fx.em.requests.length;
    const r = await b.put('docs/x/one.json', 'from b');
    expect(r.changed).toBe(true);
    // The new tree was computed from the compare's file list (no tree read), and b's value is written on it.
    expect(ops(fx.em, from)).toEqual([...WRITE, ...LOST, ...WRITE, 'PATCH git/update-ref 200']);
    expect(text((await store(fx.em, fx.repo).get('docs/x/one.json'))?.value)).toBe('from b');
    // a's write survives in history.
    const h = await store(fx.em, fx.repo).history('docs/x/one.json');
    expect(h.entries).toHaveLength(3);
  });

  it('the other writer already wrote the same value: the retry is a no-op, 1 request after the loss', async () => {
    const { a, b } = await twoWarmWriters();
    // (Another message: identical commits made in the same second would be one and the same commit.)
    await a.put('docs/x/one.json', 'same', { message: 'a wrote it' });
    const from = fx.em.requests.length;
    const r = await b.put('docs/x/one.json', 'same');
    expect(r.changed).toBe(false);
    expect(ops(fx.em, from)).toEqual([...WRITE, ...LOST]);
  });

  it('an ifMatch judged on the old tip is checked again on the new tree: PreconditionFailed, no tree read', async () => {
    const { a, b } = await twoWarmWriters();
    const seen = await b.get('docs/x/one.json');
    await a.put('docs/x/one.json', 'moved on');
    const from = fx.em.requests.length;
    const err = await b.put('docs/x/one.json', 'stale edit', { ifMatch: seen?.blobSha ?? '' }).catch((e) => e);
    expect(err?.name).toBe('PreconditionFailed');
    expect(ops(fx.em, from)).toEqual([...WRITE, ...LOST]);
  });
});

describe('the emulator’s compare', () => {
  it('resolves a full ref name as head and lists same-second commits in first-parent order', async () => {
    const s = store(fx.em, fx.repo);
    await s.put('a.json', '0');
    const base = (await s.head()) as string;
    const made: string[] = [];
    for (let i = 1; i <= 5; i++) made.push((await s.put('a.json', String(i))).version as string);
    const res = await fetch(`${fx.em.url}/repos/octo/${fx.repo}/compare/${base}...refs/docdb/documents`, {
      headers: { authorization: 'Bearer ghp_TestTokenValue0123456789abcdefABCDEF' },
    });
    const body = (await res.json()) as { status: string; commits: { sha: string }[] };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ahead');
    expect(body.commits.map((c) => c.sha)).toEqual(made);
  });
});

describe('a lost reply to the ref update', () => {
  it('is known to have landed even when 25 other commits were built on it before the re-read (1 compare)', async () => {
    const inner = fetchTransport({ timeoutMs: 10_000 });
    const peer = store(fx.em, fx.repo);
    let dropped = false;
    // The ref update reaches GitHub, another writer builds 25 commits on it, and only then is the reply
    // lost: the writer must find its commit deep in the history, not report a failure or write again.
    const lossy: HttpTransport = {
      request: async (req) => {
        const res = await inner.request(req);
        if (req.method === 'PATCH' && !dropped && res.status === 200) {
          dropped = true;
          for (let i = 0; i < 25; i++) await peer.put(`peer/${i}.json`, String(i));
          throw new TransportError('socket hang up (test)', { reason: 'network' });
        }
        return res;
      },
    };
    const t = recordingTransport({ inner: lossy });
    const s = store(fx.em, fx.repo, { transport: t });
    await s.put('seed.json', '0'); // creates the section (POST /git/refs)
    t.clear();
    const r = await s.put('mine.json', '1');
    expect(r.changed).toBe(true);
    const mine = t.requests.map((q) => `${q.method} ${new URL(q.url).pathname.split('/').slice(4, 6).join('/')}`);
    expect(mine).toEqual([
      'GET git/ref', // every write confirms its cached tip first (issue 21)
      'POST git/trees',
      'POST git/commits',
      'PATCH git/refs', // applied, reply lost
      'GET git/ref', // the tip is 25 commits further
      `GET compare/${r.version}...${await store(fx.em, fx.repo).head()}`, // one compare: ours is in its history
    ]);
    const h = await store(fx.em, fx.repo).history('mine.json');
    expect(h.entries.map((e) => e.version)).toEqual([r.version]);
  });
});
