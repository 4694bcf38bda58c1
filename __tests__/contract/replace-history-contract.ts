/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts inside its describe, so every
 * backend runs it): `replaceHistory`, the capability compaction stands on — new commits on the section's
 * own trees, the ref moved with a compare-and-swap that allows a non-fast-forward, nothing moved when the
 * ref is no longer where the caller read it.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidVersion } from '../../src/core/errors.js';
import type { HistoryEntry, RefStore, ReplacementCommit } from '../../src/core/refstore.js';
import { resolveVersion } from '../../src/core/resolve-version.js';
import { compactSection } from '../../src/retention/index.js';
import type { ContractFixture } from './refstore-contract.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
/** The compaction's clock: its root's Docdb-Compaction-Date. */
const COMPACTED_AT = Date.UTC(2026, 11, 2, 3, 0, 0);

/** The capability, which every backend must have. */
function rewriter(store: RefStore): NonNullable<RefStore['replaceHistory']> {
  expect(store.replaceHistory, 'every backend implements replaceHistory').toBeTypeOf('function');
  return (o) => store.replaceHistory!(o);
}

/** A replacement of an original commit: same tree, author and committer, a marked message. */
const again = (e: HistoryEntry): ReplacementCommit => {
  expect(e.tree, 'commits() gives each commit its tree').toMatch(/^[0-9a-f]{40}$/);
  return {
    tree: e.tree!,
    message: `${e.message}\n\nDocdb-Compacted-From: ${e.version}`,
    author: e.author,
    committer: e.committer,
  };
};

export function describeReplaceHistoryContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('replaceHistory (compaction)', () => {
    it('re-creates the newest commits on a new root with the same trees and moves the ref (non-fast-forward)', async () => {
      const { store } = get();
      for (const v of ['1', '2', '3']) await store.put('rh/a.json', v);
      const before = (await store.commits!()).entries; // newest first
      const kept = before.slice(0, 2).reverse(); // oldest kept first
      const r = await rewriter(store)({ from: before[0]!.version, onto: null, commits: kept.map(again) });
      expect(r.moved).toBe(true);
      expect(r.created).toHaveLength(2);
      expect(r.tip).toBe(r.created[1]);
      expect(await store.head()).toBe(r.created[1]);
      const after = (await store.commits!()).entries;
      expect(after.map((e) => e.version)).toEqual([...r.created].reverse());
      expect(after.map((e) => e.tree)).toEqual(before.slice(0, 2).map((e) => e.tree));
      expect(after[1]!.parents).toEqual([]);
      expect(after[0]!.message).toContain(`Docdb-Compacted-From: ${before[0]!.version}`);
      expect(after[0]!.author).toEqual(before[0]!.author);
      expect(text((await store.get('rh/a.json'))!.value)).toBe('3');
      expect(text((await store.get('rh/a.json', { version: r.created[0]! }))!.value)).toBe('2');
      // The section goes on from the new history.
      const w = await store.put('rh/a.json', '4');
      expect(w.previousVersion).toBe(r.created[1]);
    });

    it('moves nothing when the ref is no longer at `from` (another writer landed): moved false, that tip', async () => {
      const { store, fx } = get();
      await store.put('rh/b.json', '1');
      const started = (await store.commits!()).entries;
      const peer = fx.peer();
      const landed = await peer.put('rh/b.json', '2');
      const r = await rewriter(store)({ from: started[0]!.version, onto: null, commits: [again(started[0]!)] });
      expect(r.moved).toBe(false);
      expect(r.tip).toBe(landed.version);
      expect(await store.head()).toBe(landed.version);
      expect(text((await store.get('rh/b.json'))!.value)).toBe('2');
    });

    it('continues a replacement: commits created on an earlier one (`onto`), then the move', async () => {
      const { store } = get();
      await store.put('rh/c.json', '1');
      await store.put('rh/c.json', '2');
      const [newest, older] = (await store.commits!()).entries;
      const first = await rewriter(store)({ from: older!.version, onto: null, commits: [again(older!)] });
      expect(first.moved).toBe(false); // the ref is at `newest`, not `older`
      const second = await rewriter(store)({
        from: newest!.version,
        onto: first.created[0]!,
        commits: [again(newest!)],
      });
      expect(second.moved).toBe(true);
      const after = (await store.commits!()).entries;
      expect(after.map((e) => e.version)).toEqual([second.created[0], first.created[0]]);
      expect(after[0]!.parents).toEqual([first.created[0]]);
    });

    it('after a compaction, a pinned read of a removed version says which compaction removed it and where history is kept from', async () => {
      const { store } = get();
      const v1 = (await store.put('rh/e.json', '1')).version!;
      await store.put('rh/e.json', '2');
      const v3 = (await store.put('rh/e.json', '3')).version!;
      const r = await compactSection(store, { keepCommits: 1 }, { pacing: false, now: () => COMPACTED_AT });
      const by = `by the compaction at ${v3} on 2026-12-02T03:00:00Z; history kept from ${r.version}`;
      // Re-created as the new root: the kept commit holding the same tree is named.
      const replaced = await store.get('rh/e.json', { version: v3 }).catch((x: unknown) => x);
      expect(replaced).toBeInstanceOf(InvalidVersion);
      expect((replaced as InvalidVersion).data).toMatchObject({ reason: 'compacted', keptAs: r.version, removed: v3 });
      expect((replaced as InvalidVersion).message).toContain(`version ${v3} was removed from ${store.ref} ${by};`);
      expect((replaced as InvalidVersion).message).toContain(`; commit ${r.version} holds the same tree`);
      // Removed outright: nothing kept names it, so the sentence says "if it was one".
      const gone = await store.get('rh/e.json', { version: v1 }).catch((x: unknown) => x);
      expect(gone).toBeInstanceOf(InvalidVersion);
      expect((gone as InvalidVersion).data).toMatchObject({
        reason: 'compacted',
        compactionRoot: r.version,
        compactedTip: v3,
        compactedOn: '2026-12-02T03:00:00Z',
      });
      expect((gone as InvalidVersion).message).toContain(`if it was one, it was removed ${by}`);
      // An abbreviation of a removed version (as docdb printed it) says the same, not "searched all 1 commits".
      const short = await resolveVersion(store, v3.slice(0, 7)).catch((x: unknown) => x);
      expect(short).toBeInstanceOf(InvalidVersion);
      expect((short as InvalidVersion).message).toContain(`(${v3}) was removed from ${store.ref} ${by};`);
      expect((short as InvalidVersion).data).toMatchObject({ reason: 'compacted', keptAs: r.version });
      expect(text((await store.get('rh/e.json', { version: r.version! }))!.value)).toBe('3');
    });

    it("after a compaction, a document's history ends at the compaction root and says so (compactedAt)", async () => {
      const { store } = get();
      for (const v of ['1', '2', '3']) await store.put('rh/f.json', v);
      expect((await store.history('rh/f.json')).compactedAt).toBeUndefined();
      const r = await compactSection(store, { keepCommits: 2 }, { pacing: false });
      const h = await store.history('rh/f.json');
      expect(h.entries).toHaveLength(2);
      expect(h.compactedAt).toBe(h.entries[1]!.version);
      expect(h.entries[0]!.version).toBe(r.version);
    });

    it('refuses a replacement with nothing to create and nowhere to move (InvalidConfig, no request)', async () => {
      const { store, fx } = get();
      await store.put('rh/d.json', '1');
      const tip = (await store.head())!;
      const before = fx.requestCount?.();
      const e = await rewriter(store)({ from: tip, onto: null, commits: [] }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidConfig);
      expect((e as InvalidConfig).message).toMatch(/commit to create/);
      if (before !== undefined) expect(fx.requestCount!()).toBe(before);
      expect(await store.head()).toBe(tip);
    });
  });
}
