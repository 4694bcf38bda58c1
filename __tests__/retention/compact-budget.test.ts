/**
 * Issue 31's first budget at a tenth of its size: "compact 8,760 commits to the last 720: ≤ 720 + 10
 * requests, paced within GitHub's content-creation limits; cut off midway, the section is untouched and a
 * re-run finishes" — here 876 → 72, with the emulator's secondary limits ON and scaled like the section (8
 * content-creating requests a minute, 50 an hour: the hour's limit is reached, as 721 requests reach
 * GitHub's 500). Request counts only: the clock is virtual (bench/virtual-clock.ts), nothing waits. The
 * full size is bench/compaction.ts, on the same scenario (bench/compaction-world.ts).
 */
import { describe, expect, it } from 'vitest';
import { type CompactionWorld, compactionWorld, compactOnce, sectionNow } from '../../bench/compaction-world.js';

const COMMITS = 876;
const KEEP = 72;
const SCALED = { contentPerMinute: 8, contentPerHour: 50 };

/** The section is the compacted one: KEEP commits on a root, each with its original's tree. */
function compacted(w: CompactionWorld): void {
  const { chain, treeOf } = sectionNow(w);
  expect(chain).toHaveLength(KEEP);
  expect(chain.map(treeOf)).toEqual(w.original.slice(0, KEEP).map(treeOf));
  expect(w.app.state.repo('octo/data').db.getCommit(chain[KEEP - 1]!).parents).toEqual([]);
}

describe(`compacting ${COMMITS} commits to the last ${KEEP} (GitHub API, secondary limits on)`, () => {
  it(`costs ≤ ${KEEP} + 10 requests, paced: not one secondary-limit answer`, { timeout: 60_000 }, async () => {
    const w = compactionWorld(COMMITS, SCALED);
    const run = await compactOnce(w, KEEP);
    expect(run.error).toBeUndefined();
    expect(run.requests).toBeLessThanOrEqual(KEEP + 10);
    // ⌈73/100⌉ listing page, the 72 commits, the repository id query, the updateRefs mutation.
    expect([run.listPages, run.createCommit, run.graphqlQueries, run.graphqlMutations]).toEqual([1, KEEP, 1, 1]);
    expect(run.requests).toBe(KEEP + 3);
    expect(run.result?.requests).toBe(KEEP + 3);
    expect(run.contentCreating).toBe(KEEP + 1);
    expect(run.secondaryLimitAnswers).toBe(0);
    compacted(w);
  });

  it('cut off midway: the section untouched; a re-run right after finishes, creating no commit twice', {
    timeout: 60_000,
  }, async () => {
    const w = compactionWorld(COMMITS, SCALED);
    const cut = await compactOnce(w, KEEP, KEEP / 2);
    expect(cut.error).toBe('TransportError');
    expect(cut.createCommit).toBe(KEEP / 2);
    expect(sectionNow(w).chain).toEqual(w.original);
    // The re-run's pacer cannot see the cut-off run's requests, still in GitHub's windows: the host refuses
    // some; the compaction waits as told and goes on after the commits that exist.
    const again = await compactOnce(w, KEEP);
    expect(again.error).toBeUndefined();
    expect(again.secondaryLimitAnswers).toBeGreaterThan(0);
    expect(again.insideRetryAfter).toBe(0);
    expect(again.contentCreating).toBe(KEEP + 1);
    expect(again.requests).toBe(KEEP + 3 + again.secondaryLimitAnswers);
    // The result counts them too, the requests of the attempts a rate limit stopped included.
    expect(again.result?.requests).toBe(again.requests);
    compacted(w);
  });

  it('gives up with RateLimited, the section untouched, when the host keeps refusing after 3 waits', {
    timeout: 60_000,
  }, async () => {
    // Limits far below what the pacing assumes (it paces for 8 a minute; the host takes 3 an hour).
    const w = compactionWorld(40, { contentPerMinute: 3, contentPerHour: 3 });
    w.pacing = { perMinute: 8, perHour: 50 };
    const run = await compactOnce(w, 20);
    expect(run.error).toBe('RateLimited');
    expect(run.graphqlMutations).toBe(0);
    expect(sectionNow(w).chain).toEqual(w.original);
  });
});
