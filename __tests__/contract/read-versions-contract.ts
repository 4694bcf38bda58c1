/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): one key
 * at many versions through `readVersionsFrom` — the store's own `readVersions` where it has one, one pinned
 * `get` each otherwise — gives exactly what `get` gives at each version, in the order asked.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidKey, InvalidVersion } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { MAX_VERSIONED_READS, readVersionsFrom } from '../../src/core/read-versions.js';
import type { RefStore } from '../../src/core/refstore.js';
import type { ContractFixture } from './refstore-contract.js';

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

export function describeReadVersionsContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('one key at many versions (readVersionsFrom)', () => {
    it('each pair holds what get gives at that version: absent there, a directory, unchanged blobs, in the order asked', async () => {
      const { store } = get();
      const v1 = (await store.put('s/a.json', 'one')).version as string;
      const v2 = (await store.put('s/other.json', 'x')).version as string; // a.json unchanged
      const v3 = (await store.delete('s/a.json')).version as string;
      const v4 = (await store.put('s/a.json', 'four')).version as string;
      const reads = [v4, v3, v2, v1, v4].map((version) => ({ key: 's/a.json', version }));
      reads.push({ key: 's', version: v1 }, { key: 's/other.json', version: v2 });
      let calls = 0;
      const items = await readVersionsFrom(store, reads, { onMeta: () => calls++ });
      expect(items.map((i) => [i.version, text(i.value)])).toEqual([
        [v4, 'four'],
        [v3, null],
        [v2, 'one'],
        [v1, 'one'],
        [v4, 'four'],
        [v1, null],
        [v2, 'x'],
      ]);
      expect(items[2]?.blobSha).toBe(blobSha(new TextEncoder().encode('one')));
      expect(items[1]?.blobSha).toBeNull();
      expect(items[5]?.key).toBe('s');
      expect(calls).toBe(1);
      for (const item of items) {
        const one = await store.get(item.key, { version: item.version });
        expect(text(item.value)).toBe(text(one?.value ?? null));
      }
    });

    it('a version that is not a commit of the section is InvalidVersion; bad input is refused before any read', async () => {
      const { fx, store } = get();
      await store.put('s/a.json', 'one');
      const before = fx.requestCount?.();
      await expect(readVersionsFrom(store, [{ key: '../x', version: 'a'.repeat(40) }])).rejects.toBeInstanceOf(
        InvalidKey,
      );
      await expect(readVersionsFrom(store, [{ key: 's/a.json', version: 'nope' }])).rejects.toBeInstanceOf(
        InvalidVersion,
      );
      const tooMany = Array.from({ length: MAX_VERSIONED_READS + 1 }, () => ({
        key: 's/a.json',
        version: 'a'.repeat(40),
      }));
      const e = await readVersionsFrom(store, tooMany).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(InvalidConfig);
      expect((e as Error).message).toContain(`at most ${MAX_VERSIONED_READS} pairs`);
      if (before !== undefined) expect(fx.requestCount?.()).toBe(before);
      const missing = await readVersionsFrom(store, [{ key: 's/a.json', version: 'b'.repeat(40) }]).catch(
        (err: unknown) => err,
      );
      expect(missing).toBeInstanceOf(InvalidVersion);
      const other = fx.otherSection?.();
      if (other) {
        const foreign = (await other.put('s/a.json', 'elsewhere')).version as string;
        const got = await readVersionsFrom(store, [{ key: 's/a.json', version: foreign }]).catch((err: unknown) => err);
        expect(got).toBeInstanceOf(InvalidVersion);
      }
    });
  });
}
