/**
 * What the compaction trailers say about a version the section no longer holds (core/compaction-removed.ts),
 * on the memory store through the two paths that read versions: a pinned read of a full SHA and
 * resolveVersion of an abbreviation. The contract (replace-history-contract.ts) runs the common case on
 * every backend; here: two compactions, a root written before the date trailer, several removed versions
 * sharing a prefix.
 */
import { describe, expect, it } from 'vitest';
import { compactionFacts, removedByCompaction } from '../../src/core/compaction-removed.js';
import { compactedMessage, compactionDate, DATE_TRAILER, ROOT_TRAILER } from '../../src/core/compaction-trailers.js';
import { InvalidVersion } from '../../src/core/errors.js';
import { resolveVersion } from '../../src/core/resolve-version.js';
import { compactSection } from '../../src/retention/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { history } from './helpers.js';

const DAY1 = Date.UTC(2026, 11, 1, 12, 0, 0);
const DAY2 = Date.UTC(2026, 11, 2, 12, 0, 0);
const sha = (c: string) => c.repeat(40);

describe('a version removed by a compaction', () => {
  it('two compactions: a version the first removed says "an earlier compaction than" the newest one', async () => {
    const store = new MemoryRefStore();
    const v = await history(store, 5);
    const first = await compactSection(store, { keepCommits: 3 }, { pacing: false, now: () => DAY1 });
    const second = await compactSection(store, { keepCommits: 2 }, { pacing: false, now: () => DAY2 });
    const keptFrom = (await store.commits()).entries.at(-1)!.version;
    const newest = `the compaction at ${first.version} on 2026-12-02T12:00:00Z; history kept from ${keptFrom}`;
    // v[4] was re-created by the first compaction, and that re-creation by the second: both named.
    const e = (await store.get('state.json', { version: v[4]! }).catch((x) => x)) as InvalidVersion;
    expect(e).toBeInstanceOf(InvalidVersion);
    expect(e.message).toContain(`removed from ${store.ref} by an earlier compaction than ${newest}`);
    expect(e.data).toMatchObject({
      keptAs: second.version,
      compactedTip: first.version,
      compactedOn: '2026-12-02T12:00:00Z',
    });
    const again = (await store.get('state.json', { version: first.version! }).catch((x) => x)) as InvalidVersion;
    expect(again.message).toContain(`was removed from ${store.ref} by ${newest}`);
    // The root carries ONE compaction record, the newest (a re-created root drops the older one).
    const root = (await store.commits()).entries.find((c) => c.version === keptFrom)!.message;
    expect(
      root.split('\n').filter((l) => l.startsWith(`${ROOT_TRAILER}: `) || l.startsWith(`${DATE_TRAILER}: `)),
    ).toEqual([`${ROOT_TRAILER}: ${first.version}`, `${DATE_TRAILER}: 2026-12-02T12:00:00Z`]);
  });

  it('a root written before the date trailer existed: the sentence has no date, the rest stands', () => {
    const root = { version: sha('b'), message: compactedMessage('run 3', sha('a'), { tip: sha('c') }) };
    expect(compactionDate(root.message)).toBeUndefined();
    const e = removedByCompaction(sha('d'), 'refs/docdb/documents', compactionFacts(sha('d'), [root], true));
    expect(e?.message).toBe(
      `version ${sha('d')} is not a commit of refs/docdb/documents (no kept commit names it): if it was one, it was removed by the compaction at ${sha('c')}; history kept from ${sha('b')}`,
    );
    // Not listed down to the root (an abbreviation searched only the newest commits): nothing is claimed.
    expect(removedByCompaction(sha('d'), 'refs/x/y', compactionFacts(sha('d'), [root], false))).toBeUndefined();
    // A section never compacted says nothing either: the caller's "not in the section" stands.
    const plain = [{ version: sha('e'), message: 'run 0' }];
    expect(removedByCompaction(sha('d'), 'refs/x/y', compactionFacts(sha('d'), plain, true))).toBeUndefined();
  });

  it('an abbreviation that two removed versions start with is ambiguous, naming both', async () => {
    const kept = [
      { version: sha('1'), message: compactedMessage('run 1', `abcd${'1'.repeat(36)}`) },
      {
        version: sha('2'),
        message: compactedMessage('run 0', `abcd${'2'.repeat(36)}`, { tip: sha('9'), date: '2026-12-02T12:00:00Z' }),
      },
    ];
    const store = {
      ref: 'refs/docdb/documents',
      commits: async () => ({
        entries: kept.map((k) => ({ ...k, author: PERSON, committer: PERSON, parents: [] })),
      }),
    };
    const e = (await resolveVersion(store, 'abcd').catch((x) => x)) as InvalidVersion;
    expect(e).toBeInstanceOf(InvalidVersion);
    expect(e.data).toMatchObject({ reason: 'ambiguous' });
    expect((e.data as { candidates: string[] }).candidates.sort()).toEqual([
      `abcd${'1'.repeat(36)}`,
      `abcd${'2'.repeat(36)}`,
    ]);
    const one = (await resolveVersion(store, 'abcd1').catch((x) => x)) as InvalidVersion;
    expect(one.data).toMatchObject({ reason: 'compacted', keptAs: sha('1'), removed: `abcd${'1'.repeat(36)}` });
  });
});

const PERSON = { name: 'a', email: 'a@example.com', date: '2026-12-01T00:00:00Z' };
