/**
 * GitHttpRefStore's writes when they do not simply land, against git's own `git http-backend` (the
 * cases SubprocessGitRefStore's tests cover for `git push`):
 * - another writer moves the ref just before each push: `ConcurrentUpdate` naming the other tip once
 *   the retries are spent, every retry re-planned on the new tip after a wait of the shared backoff
 *   (an injected sleep and random source record the waits — no timing);
 * - a pre-receive hook declines: `Forbidden` with git's reason and the hook's own words, not retried;
 * - the push's reply is lost after the server applied it: reported as landed, because the re-read ref
 *   is our commit; lost before it was applied: the transport's error, nothing claimed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdate, Forbidden, TransportError } from '../../src/core/errors.js';
import type { RemoteApiLogEvent } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/transport/types.js';
import { git } from '../git/helpers.js';
import { type GitHttpFixture, gitHttpFixture } from './helpers.js';

const REF = 'refs/docdb/documents';
let fx: GitHttpFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const isPush = (req: HttpRequest) => req.method === 'POST' && req.url.endsWith('/git-receive-pack');
const pushes = (f: GitHttpFixture) =>
  f.server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/git-receive-pack'));
const serverTip = (f: GitHttpFixture) => git(['--git-dir', f.repoDir, 'rev-parse', REF]).trim();

/** A transport that runs `around` for every push (it decides whether and how the push is sent). */
function aroundPushes(
  around: (req: HttpRequest, send: () => Promise<HttpResponse>) => Promise<HttpResponse>,
): HttpTransport {
  const inner = fetchTransport({ timeoutMs: 30_000 });
  return { request: (req) => (isPush(req) ? around(req, () => inner.request(req)) : inner.request(req)) };
}

/** Another writer: an empty commit on the served section's tip (as `intruderBefore` does for git push). */
function intrude(f: GitHttpFixture): string {
  const tip = serverTip(f);
  const commit = git(['--git-dir', f.repoDir, 'commit-tree', '-p', tip, '-m', 'intruder', `${tip}^{tree}`]).trim();
  git(['--git-dir', f.repoDir, 'update-ref', REF, commit, tip]);
  return commit;
}

/** Injected backoff: records every wait, never sleeps; jitter fixed at half the ceiling. */
function recordedBackoff() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms), random: () => 0.5 };
}

describe('GitHttpRefStore when another writer moves the ref first', () => {
  it('retryConcurrentWrites: 0 → ConcurrentUpdate naming the other tip after one push, no wait', async () => {
    fx = await gitHttpFixture();
    const f = fx;
    await f.store().put('base.json', '"base"');
    let other = '';
    const backoff = recordedBackoff();
    const store = f.store({
      retryConcurrentWrites: 0,
      ...backoff,
      transport: aroundPushes(async (_req, send) => {
        other = intrude(f);
        return send();
      }),
    });
    const from = pushes(f).length;
    const e = await store.put('mine.json', '"mine"').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConcurrentUpdate);
    expect((e as ConcurrentUpdate).otherSha).toBe(other);
    expect(other).toBe(serverTip(f));
    expect((e as ConcurrentUpdate).data.attempts).toBe(1);
    expect(pushes(f).length - from).toBe(1);
    expect(backoff.waits).toEqual([]);
    expect(git(['--git-dir', f.repoDir, 'ls-tree', '--name-only', REF]).trim()).toBe('base.json');
  });

  it('each lost race waits the shared full-jitter backoff, re-plans on the new tip, then ConcurrentUpdate', async () => {
    fx = await gitHttpFixture();
    const f = fx;
    await f.store().put('base.json', '"base"');
    const backoff = recordedBackoff();
    const events: RemoteApiLogEvent[] = [];
    const intruders: string[] = [];
    const store = f.store({
      retryConcurrentWrites: 2,
      writeBackoffBaseMs: 100,
      ...backoff,
      logger: (ev) => events.push(ev),
      transport: aroundPushes(async (_req, send) => {
        intruders.push(intrude(f));
        return send();
      }),
    });
    const e = await store.put('mine.json', '"mine"').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConcurrentUpdate);
    expect((e as ConcurrentUpdate).data.attempts).toBe(3);
    expect((e as ConcurrentUpdate).otherSha).toBe(intruders[2]);
    // fullJitterDelay: random × min(2000, 100 × 2^retry) → 0.5 × 200, 0.5 × 400.
    expect(backoff.waits).toEqual([100, 200]);
    expect(events.filter((ev) => /moved on the remote; rebasing and retrying/.test(ev.message))).toHaveLength(3);
    expect(intruders).toHaveLength(3); // three pushes, each after the ref moved again
  });

  it('a race lost once is retried on the new tip and lands on top of the other writer', async () => {
    fx = await gitHttpFixture();
    const f = fx;
    await f.store().put('base.json', '"base"');
    const backoff = recordedBackoff();
    let other: string | undefined;
    const store = f.store({
      ...backoff,
      transport: aroundPushes(async (_req, send) => {
        other ??= intrude(f);
        return send();
      }),
    });
    const r = await store.put('mine.json', '"mine"');
    expect(r.version).toBe(serverTip(f));
    expect(git(['--git-dir', f.repoDir, 'rev-parse', `${r.version}^`]).trim()).toBe(other);
    expect(backoff.waits).toEqual([100]);
  });
});

describe('GitHttpRefStore when the server refuses the update itself', () => {
  it('a pre-receive hook that declines: Forbidden with git’s reason and the hook’s words, one push', async () => {
    fx = await gitHttpFixture();
    const f = fx;
    const before = (await f.store().put('base.json', '"base"')).version;
    writeFileSync(
      join(f.repoDir, 'hooks/pre-receive'),
      '#!/bin/sh\necho "protected: section is read-only" >&2\nexit 1\n',
      {
        mode: 0o755,
      },
    );
    const backoff = recordedBackoff();
    const from = pushes(f).length;
    const e = await f
      .store({ retryConcurrentWrites: 5, ...backoff })
      .put('mine.json', '"mine"')
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Forbidden);
    expect((e as Forbidden).message).toMatch(/refused the update of refs\/docdb\/documents: pre-receive hook declined/);
    expect((e as Forbidden).message).toContain('protected: section is read-only');
    expect((e as Forbidden).data.remoteMessages).toContain('protected: section is read-only');
    expect(pushes(f).length - from).toBe(1); // not retried as a race
    expect(backoff.waits).toEqual([]);
    expect(serverTip(f)).toBe(before);
  });
});

describe('GitHttpRefStore when a push’s reply is lost', () => {
  it.each([
    [
      'the connection drops',
      (req: HttpRequest) => Promise.reject(new TransportError(`${req.url} reset`, { reason: 'network' })),
    ],
    [
      'a proxy answers 502',
      async () => ({ status: 502, headers: { 'content-type': 'text/html' }, body: new Uint8Array() }),
    ],
  ])('after the server applied it (%s): landed, found by re-reading the ref, pushed once', async (_name, lose) => {
    fx = await gitHttpFixture();
    const f = fx;
    await f.store().put('base.json', '"base"');
    const store = f.store({
      transport: aroundPushes(async (req, send) => {
        await send(); // the server applies the push…
        return lose(req); // …and the reply never arrives
      }),
    });
    const from = f.server.requests.length;
    const r = await store.put('mine.json', '"mine"');
    expect(r.changed).toBe(true);
    expect(r.version).toBe(serverTip(f));
    expect(pushes(f).filter((p) => f.server.requests.indexOf(p) >= from)).toHaveLength(1);
    // The verdict came from reading the ref again after the push.
    const after = f.server.requests.slice(from);
    const push = after.findIndex((q) => q.method === 'POST' && q.url.endsWith('/git-receive-pack'));
    expect(after.slice(push + 1).some((q) => q.command === 'ls-refs')).toBe(true);
    expect(new TextDecoder().decode((await f.store().get('mine.json'))?.value)).toBe('"mine"');
  });

  it('before the server got it: the transport’s error, nothing claimed, nothing written', async () => {
    fx = await gitHttpFixture();
    const f = fx;
    const before = (await f.store().put('base.json', '"base"')).version;
    const store = f.store({
      transport: aroundPushes((req) => Promise.reject(new TransportError(`${req.url} reset`, { reason: 'network' }))),
    });
    const e = await store.put('mine.json', '"mine"').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect(serverTip(f)).toBe(before);
  });
});
