/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): a write's
 * derived changes (`CommitOptions.derive`, what keeps a section's index files exact) land in the SAME commit,
 * are computed on the tip the commit lands on, and are computed again — not rebased — after a lost race.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../src/core/commit-parts.js';
import { InvalidConfig } from '../../src/core/errors.js';
import type { DeriveChanges, RefStore } from '../../src/core/refstore.js';
import type { ContractFixture } from './refstore-contract.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** A derived counter: `count.txt` = 1 + the count at the tip the attempt builds on. */
const counter =
  (seen: (string | null)[]): DeriveChanges =>
  async ({ version, read }) => {
    seen.push(version);
    const at = (await read(['count.txt'])).get('count.txt');
    return [{ op: 'put', key: 'count.txt', value: String(at ? Number(text(at.value)) + 1 : 1) }];
  };

export function describeDeriveContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('derived changes (CommitOptions.derive)', () => {
    it('land in the same commit as the write, computed on the tip it builds on', async () => {
      const { store } = get();
      const seen: (string | null)[] = [];
      const first = await store.commit([{ op: 'put', key: 'a.json', value: '1' }], { derive: counter(seen) });
      expect(seen).toEqual([null]);
      expect([...first.written].sort()).toEqual(['a.json', 'count.txt']);
      const second = await store.put('b.json', '2');
      const third = await store.commit([{ op: 'put', key: 'c.json', value: '3' }], { derive: counter(seen) });
      expect(seen[1]).toBe(second.version);
      expect(third.previousVersion).toBe(second.version);
      expect(text((await store.get('count.txt'))!.value)).toBe('2');
      // One commit per write: count.txt changed exactly in the two derived commits.
      expect((await store.history('count.txt')).entries.map((e) => e.version)).toEqual([third.version, first.version]);
    });

    it('after a lost race the hook runs again on the new tip (the other writer is counted, nothing lost)', async () => {
      const { fx, store } = get();
      await store.commit([{ op: 'put', key: 'seed.json', value: '0' }], { derive: counter([]) });
      const other = fx.peer();
      const seen: (string | null)[] = [];
      let raced = false;
      const racing: DeriveChanges = async (base) => {
        if (!raced) {
          raced = true;
          // Another writer lands between this attempt's reads and its publish.
          await other.commit([{ op: 'put', key: 'other.json', value: 'x' }], { derive: counter([]) });
        }
        return counter(seen)(base);
      };
      const r = await store.commit([{ op: 'put', key: 'mine.json', value: 'y' }], { derive: racing });
      expect(r.changed).toBe(true);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen[seen.length - 1]).toBe(r.previousVersion);
      expect(text((await store.get('count.txt'))!.value)).toBe('3');
      expect(text((await store.get('other.json'))!.value)).toBe('x');
    });

    it('a commit in parts takes a hook too; a derived key that the write itself changes is refused, nothing written', async () => {
      const { store } = get();
      const r = await commitInParts(
        store,
        [[{ op: 'put', key: 'p/1.json', value: '1' }], [{ op: 'put', key: 'p/2.json', value: '2' }]],
        {
          derive: counter([]),
        },
      );
      expect([...r.written].sort()).toEqual(['count.txt', 'p/1.json', 'p/2.json']);
      const head = await store.head();
      const clash: DeriveChanges = async () => [{ op: 'put', key: 'x.json', value: 'derived' }];
      await expect(
        store.commit([{ op: 'put', key: 'x.json', value: 'mine' }], { derive: clash }),
      ).rejects.toBeInstanceOf(InvalidConfig);
      const failing: DeriveChanges = async () => {
        throw new Error('the hook failed');
      };
      await expect(store.commit([{ op: 'put', key: 'y.json', value: 'y' }], { derive: failing })).rejects.toThrow(
        'the hook failed',
      );
      expect(await store.head()).toBe(head);
      expect(await store.get('y.json')).toBeNull();
    });
  });
}
