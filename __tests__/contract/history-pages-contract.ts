/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts inside its describe, so every
 * backend runs it): a key's history read page by page (`limit` + `cursor` → `nextCursor`) is the whole
 * history, in order, without a gap or a repeat; a cursor that is not a commit of the section is refused.
 */
import { describe, expect, it } from 'vitest';
import { InvalidVersion } from '../../src/core/errors.js';
import type { HistoryResult, RefStore } from '../../src/core/refstore.js';
import type { ContractFixture } from './refstore-contract.js';

/** Every page of `key`'s history at `limit` entries a page, following `nextCursor`. */
async function allPages(store: RefStore, key: string, limit: number): Promise<HistoryResult[]> {
  const pages = [await store.history(key, { limit })];
  for (let last = pages[0]!; last.nextCursor !== undefined; ) {
    last = await store.history(key, { limit, cursor: last.nextCursor });
    pages.push(last);
    expect(pages.length, 'paging must end').toBeLessThan(20);
  }
  return pages;
}

export function describeHistoryPagesContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('history pages (limit + cursor)', () => {
    it('pages through every version of a key, in order, and the last page has no nextCursor', async () => {
      const { store } = get();
      const written: string[] = [];
      for (let i = 0; i < 5; i++) {
        written.push((await store.put('pg/doc.json', String(i))).version!);
        // Commits that do not touch the key sit between its versions: a page must skip them.
        await store.put(`pg/other-${i}.json`, String(i));
      }
      const newestFirst = [...written].reverse();
      expect((await store.history('pg/doc.json')).entries.map((e) => e.version)).toEqual(newestFirst);
      const pages = await allPages(store, 'pg/doc.json', 2);
      expect(pages.map((p) => p.entries.length)).toEqual([2, 2, 1]);
      expect(pages.flatMap((p) => p.entries.map((e) => e.version))).toEqual(newestFirst);
      expect(pages.at(-1)!.nextCursor).toBeUndefined();
      // The cursor is where the next page starts, not one of this page's entries.
      expect(newestFirst.slice(0, 2)).not.toContain(pages[0]!.nextCursor);
      // A limit that divides the history: the last full page says there is nothing more.
      const exact = await allPages(store, 'pg/doc.json', 5);
      expect(exact).toHaveLength(1);
      expect(exact[0]!.nextCursor).toBeUndefined();
      // Without a limit: everything, no cursor.
      expect((await store.history('pg/doc.json')).nextCursor).toBeUndefined();
    });

    it('a page from a cursor sees only versions at or below it, even after the key moved on', async () => {
      const { store } = get();
      const v1 = (await store.put('pg/moving.json', '1')).version!;
      const v2 = (await store.put('pg/moving.json', '2')).version!;
      const first = await store.history('pg/moving.json', { limit: 1 });
      expect(first.entries.map((e) => e.version)).toEqual([v2]);
      const v3 = (await store.put('pg/moving.json', '3')).version!;
      const second = await store.history('pg/moving.json', { limit: 1, cursor: first.nextCursor! });
      expect(second.entries.map((e) => e.version)).toEqual([v1]);
      expect(second.nextCursor).toBeUndefined();
      expect((await store.history('pg/moving.json', { limit: 1 })).entries.map((e) => e.version)).toEqual([v3]);
    });

    it('refuses a malformed cursor before any I/O, and a commit of another section', async () => {
      const { fx, store } = get();
      await store.put('pg/x.json', '1');
      const before = fx.requestCount?.();
      await expect(store.history('pg/x.json', { limit: 1, cursor: 'not-a-sha' })).rejects.toBeInstanceOf(
        InvalidVersion,
      );
      if (before !== undefined) expect(fx.requestCount!()).toBe(before);
      const foreign = (await fx.otherSection!().put('pg/x.json', 'elsewhere')).version!;
      const e = await store.history('pg/x.json', { limit: 1, cursor: foreign }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(InvalidVersion);
      expect((e as Error).message).toMatch(/not a commit of the section/);
    });
  });
}
