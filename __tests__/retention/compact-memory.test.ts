/**
 * compactSection on the memory store: what a policy keeps, the shape of the new history (one root with the
 * oldest kept tree, kept commits re-created with the same trees, authors and trailers), writers landing
 * mid-compaction (re-created too, none lost), giving up cleanly, and bad input refused before any write.
 */
import { describe, expect, it } from 'vitest';
import { ConcurrentUpdate, InvalidConfig, NotFound } from '../../src/core/errors.js';
import { ObjectDb } from '../../src/core/git/object-db.js';
import type { RefStore } from '../../src/core/refstore.js';
import { compactedFrom, compactionRoot, compactSection } from '../../src/retention/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { eightWriters, history, racing } from './helpers.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5); // a Monday

/** A memory section whose commits are an hour apart from T0; its clock and db. */
function section() {
  const db = new ObjectDb();
  let t = T0;
  const now = () => {
    t += HOUR;
    return t;
  };
  return { db, store: new MemoryRefStore({ db, now }), peer: () => new MemoryRefStore({ db, now }), clock: () => t };
}

async function trees(store: RefStore): Promise<string[]> {
  return (await store.commits!()).entries.map((e) => e.tree!);
}

describe('compactSection (memory)', () => {
  it('keepCommits: the newest N re-created on a new root with the same trees, authors and a trailer each', async () => {
    const { store } = section();
    const versions = await history(store, 10);
    const before = (await store.commits!()).entries;
    const r = await compactSection(store, { keepCommits: 3 }, { pacing: false });
    expect(r).toMatchObject({ compacted: true, previousVersion: versions[9], kept: 3, attempts: 1, removed: null });
    const after = (await store.commits!()).entries;
    expect(after).toHaveLength(3);
    expect(after.map((e) => e.tree)).toEqual(before.slice(0, 3).map((e) => e.tree));
    expect(after.map((e) => e.author)).toEqual(before.slice(0, 3).map((e) => e.author));
    expect(after.map((e) => compactedFrom(e.message))).toEqual([[versions[9]], [versions[8]], [versions[7]]]);
    expect(after[2]!.parents).toEqual([]);
    expect(compactionRoot(after[2]!.message)).toBe(versions[9]);
    expect(compactionRoot(after[0]!.message)).toBeUndefined();
    expect(r.version).toBe(after[0]!.version);
    expect(r.replaced[versions[7]!]).toBe(after[2]!.version);
    // Every document is as it was, at the tip and at each kept version.
    expect(text((await store.get('log/0.json'))!.value)).toBe('{"i":0}');
    expect(text((await store.get('state.json', { version: after[2]!.version }))!.value)).toBe('{"n":7}');
  });

  it('a second compaction with the same policy changes nothing; one that keeps fewer re-roots once more', async () => {
    const { store } = section();
    const versions = await history(store, 6);
    const first = await compactSection(store, { keepCommits: 4 }, { pacing: false });
    const tip = await store.head();
    const again = await compactSection(store, { keepCommits: 4 }, { pacing: false });
    expect(again).toMatchObject({ compacted: false, version: tip, attempts: 0 });
    expect(await store.head()).toBe(tip);
    const fewer = await compactSection(store, { keepCommits: 2 }, { pacing: false });
    const after = (await store.commits!()).entries;
    expect(after).toHaveLength(2);
    // A commit that survived two compactions names both commits it replaced, oldest first: its original,
    // then the first compaction's re-creation of it.
    expect(fewer.previousVersion).toBe(first.replaced[versions[5]!]);
    expect(compactedFrom(after[0]!.message)).toEqual([versions[5], fewer.previousVersion]);
    expect(compactedFrom(after[1]!.message)).toEqual([versions[4], first.replaced[versions[4]!]]);
  });

  it('keepDays keeps the commits of the last D days; thin keeps one per day of the older history', async () => {
    const { store, clock } = section();
    await history(store, 72); // three days of hourly commits
    const before = (await store.commits!()).entries;
    const now = clock();
    const r = await compactSection(store, { keepDays: 1, thin: 'day' }, { pacing: false, now: () => now });
    const after = (await store.commits!()).entries;
    const lastDay = before.filter((e) => Date.parse(e.committer.date) >= now - 24 * HOUR);
    // The last day's commits, plus the newest commit of each older UTC day.
    const olderDays = new Set(before.slice(lastDay.length).map((e) => e.committer.date.slice(0, 10)));
    expect(after).toHaveLength(lastDay.length + olderDays.size);
    expect(r.removed).toBe(before.length - after.length);
    expect(after.map((e) => e.tree)).toEqual(
      before.filter((e) => after.some((a) => compactedFrom(a.message).includes(e.version))).map((e) => e.tree),
    );
  });

  it('eight writers landing mid-compaction: their commits are re-created on the new history, none lost', async () => {
    const { store, peer } = section();
    await history(store, 20);
    const before = await trees(store);
    const writers = eightWriters(peer);
    const racer = racing(store, writers.run, 2); // they land twice: before the first and the second move
    const r = await compactSection(racer, { keepCommits: 5 }, { pacing: false });
    expect(racer.races).toBe(2);
    expect(r.attempts).toBe(3);
    expect(r.kept).toBe(5 + 2 * 16);
    for (const [key, value] of writers.last) expect(text((await store.get(key))!.value)).toBe(value);
    const after = (await store.commits!()).entries;
    expect(after).toHaveLength(r.kept);
    // The kept history's trees are the original five followed by the writers' 32 commits' trees.
    expect(after.slice(32).map((e) => e.tree)).toEqual(before.slice(0, 5));
    expect(after[after.length - 1]!.parents).toEqual([]);
  });

  it('gives up cleanly after maxAttempts when writers keep landing: the section is exactly as they left it', async () => {
    const { store, peer } = section();
    await history(store, 5);
    const writers = eightWriters(peer, 1);
    const racer = racing(store, writers.run, 10);
    const e = await compactSection(racer, { keepCommits: 2 }, { pacing: false, maxAttempts: 2 }).catch((x) => x);
    expect(e).toBeInstanceOf(ConcurrentUpdate);
    expect(e.message).toMatch(/gave up.*nothing of theirs was lost/);
    expect((await store.commits!()).entries).toHaveLength(5 + 16);
    for (const [key, value] of writers.last) expect(text((await store.get(key))!.value)).toBe(value);
  });

  it('refuses a policy that keeps nothing, bad values, a missing section, and a store without the capability', async () => {
    const { store } = section();
    for (const bad of [
      {},
      { thin: 'week' as const },
      { keepCommits: 0 },
      { keepDays: -1 },
      { keepCommits: 2, thin: 'month' },
    ]) {
      const e = await compactSection(store, bad as never, { pacing: false }).catch((x) => x);
      expect(e, JSON.stringify(bad)).toBeInstanceOf(InvalidConfig);
    }
    expect((await compactSection(store, {}).catch((x) => x)).message).toMatch(/keeps nothing/);
    await expect(compactSection(store, { keepCommits: 1 }, { pacing: false })).rejects.toBeInstanceOf(NotFound);
    await history(store, 3);
    const { replaceHistory: _, ...without } = Object.assign(Object.create(null), {
      ref: store.ref,
      commits: () => store.commits(),
    });
    await expect(compactSection(without as RefStore, { keepCommits: 1 })).rejects.toThrow(/no replaceHistory/);
  });
});
