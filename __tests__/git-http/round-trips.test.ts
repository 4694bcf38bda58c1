/**
 * Round trips are part of GitHttpRefStore's contract, counted on the server's request log (git's own
 * `git http-backend`): a tip read is one `ls-refs`; a warm read of an unchanged tip downloads no pack;
 * a new tip costs one `fetch` of what changed; a write is `ls-refs` + one push; history deepens on
 * demand. Bytes and timings are measured in bench/, not here.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCacheBackend } from '../../src/cache/backend.js';
import { type GitHttpFixture, gitHttpFixture, requestsSince } from './helpers.js';

let fx: GitHttpFixture;
beforeEach(async () => {
  fx = await gitHttpFixture();
});
afterEach(() => fx.cleanup());

const DISCOVER = 'GET /info/refs?service=git-upload-pack';
const LS_REFS = 'POST /git-upload-pack ls-refs';
const FETCH = 'POST /git-upload-pack fetch';
const PUSH_ADVERT = 'GET /info/refs?service=git-receive-pack';
const PUSH = 'POST /git-receive-pack';

/** The requests `op` makes, as `METHOD path command` strings. */
async function trips(op: () => Promise<unknown>): Promise<string[]> {
  const from = fx.server.requests.length;
  await op();
  return requestsSince(fx.server, from);
}

async function seed(keys: number): Promise<void> {
  await fx
    .store()
    .commit(Array.from({ length: keys }, (_, i) => ({ op: 'put', key: `k/${i}.json`, value: `{"i":${i}}` })));
}

describe('GitHttpRefStore round trips', () => {
  it('a cold get is discover + ls-refs + one fetch; a warm get of an unchanged tip is one ls-refs, no pack', async () => {
    await seed(50);
    const reader = fx.store();
    expect(await trips(() => reader.get('k/7.json'))).toEqual([DISCOVER, LS_REFS, FETCH]);
    expect(await trips(() => reader.get('k/8.json'))).toEqual([LS_REFS]);
    expect(await trips(() => reader.list({ prefix: 'k/' }))).toEqual([LS_REFS]);
    const r = await reader.get('k/9.json');
    expect(r?.requests).toBe(1);
    expect(await trips(() => reader.head())).toEqual([LS_REFS]);
  });

  it('after a write elsewhere, a get is ls-refs + one fetch, and that pack holds only what changed', async () => {
    await seed(200);
    const reader = fx.store();
    await reader.get('k/0.json');
    const cold = fx.server.requests.at(-1)?.bytes ?? 0;
    await fx.store().put('k/1.json', '{"i":"changed"}');
    expect(await trips(() => reader.get('k/1.json'))).toEqual([LS_REFS, FETCH]);
    const warm = fx.server.requests.at(-1)?.bytes ?? 0;
    expect(warm).toBeLessThan(cold / 4);
    expect(new TextDecoder().decode((await reader.get('k/1.json'))?.value)).toBe('{"i":"changed"}');
  });

  it('a write is ls-refs + one push (plus the push advertisement once); a read after it needs no fetch', async () => {
    await seed(10);
    const writer = fx.store();
    expect(await trips(() => writer.put('k/a.json', '1'))).toEqual([DISCOVER, LS_REFS, FETCH, PUSH_ADVERT, PUSH]);
    expect(await trips(() => writer.put('k/b.json', '2'))).toEqual([LS_REFS, PUSH]);
    expect(await trips(() => writer.get('k/b.json'))).toEqual([LS_REFS]);
    const same = await trips(() => writer.put('k/b.json', '2'));
    expect(same).toEqual([LS_REFS]); // a no-op write makes no commit and no push
  });

  it('history deepens on demand: one fetch of the tip, then deepen-relative fetches until the root', async () => {
    const writer = fx.store();
    for (let i = 0; i < 5; i++) await writer.put('h.json', String(i));
    const reader = fx.store();
    const log = await trips(() => reader.history('h.json'));
    expect(log.slice(0, 3)).toEqual([DISCOVER, LS_REFS, FETCH]);
    expect(log.slice(3)).toEqual([FETCH]); // 4 older commits < the first deepening step (32)
    expect((await reader.history('h.json')).entries).toHaveLength(5);
    expect(await trips(() => reader.history('h.json', { limit: 2 }))).toEqual([LS_REFS]);
  });

  it('history with a limit stops deepening as soon as it has enough entries', async () => {
    const writer = fx.store();
    for (let i = 0; i < 40; i++) {
      await writer.put(`x/${i}.json`, String(i));
      if (i === 20) await writer.put('h.json', 'first');
    }
    await writer.put('h.json', 'last');
    const reader = fx.store();
    // A page of 1 needs the tip's change and the next one (to say whether an older page exists, `nextCursor`),
    // 20 commits down: one deepening step (32 commits), not the whole history.
    let page: Awaited<ReturnType<typeof reader.history>> | undefined;
    expect(
      await trips(async () => {
        page = await reader.history('h.json', { limit: 1 });
      }),
    ).toEqual([DISCOVER, LS_REFS, FETCH, FETCH]);
    expect(page?.entries).toHaveLength(1);
    expect(page?.nextCursor).toBeDefined();
    // All of it needs the rest: one more step.
    expect(await trips(() => reader.history('h.json'))).toEqual([LS_REFS, FETCH]);
  });

  it('objects the cache evicted are fetched again (whole), and the read still answers', async () => {
    await seed(30);
    const cache = new MemoryCacheBackend();
    const reader = fx.store({ cache });
    await reader.get('k/3.json');
    const evictAllButCommits = () => {
      for (const [key, value] of cache.entries()) if ((value as { type: string }).type !== 'commit') cache.delete(key);
    };
    evictAllButCommits();
    expect(await trips(() => reader.get('k/3.json'))).toEqual([LS_REFS, FETCH]);
    expect(new TextDecoder().decode((await reader.get('k/3.json'))?.value)).toBe('{"i":3}');
    // A thin pack whose delta bases were evicted: fetched again without claiming anything.
    await fx.store().put('k/4.json', '"new"');
    evictAllButCommits();
    expect(await trips(() => reader.get('k/4.json'))).toEqual([LS_REFS, FETCH, FETCH]);
    expect(new TextDecoder().decode((await reader.get('k/4.json'))?.value)).toBe('"new"');
    expect((await reader.list()).entries).toHaveLength(30);
  });
});
