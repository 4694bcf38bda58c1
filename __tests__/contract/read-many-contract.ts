/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): bulk reads
 * through `readManyFrom` — the store's own `readMany` where it has one, one `get` per key otherwise — give
 * exactly what `get` gives, at one version.
 */
import { describe, expect, it } from 'vitest';
import { InvalidKey } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { readManyFrom } from '../../src/core/read-many.js';
import type { ReadManyItem, RefStore } from '../../src/core/refstore.js';
import type { ContractFixture } from './refstore-contract.js';

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

async function all(it: AsyncIterable<ReadManyItem>): Promise<Map<string, ReadManyItem>> {
  const out = new Map<string, ReadManyItem>();
  for await (const item of it) out.set(item.key, item);
  return out;
}

export function describeReadManyContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('bulk reads (readManyFrom)', () => {
    it('reads every key once at one version; absent keys and directories are null; before the section, all null', async () => {
      const { store } = get();
      const empty = await all(readManyFrom(store, ['a.json']));
      expect(empty.get('a.json')).toMatchObject({ value: null, blobSha: null });
      const v1 = (
        await store.commit([
          { op: 'put', key: 'a.json', value: 'A' },
          { op: 'put', key: 'd/b.json', value: 'B' },
        ])
      ).version as string;
      await store.put('a.json', 'A2');
      const got = await all(readManyFrom(store, ['a.json', 'd/b.json', 'missing.json', 'd', 'a.json']));
      expect(got.size).toBe(4);
      expect(text(got.get('a.json')?.value ?? null)).toBe('A2');
      expect(got.get('a.json')?.blobSha).toBe(blobSha(new TextEncoder().encode('A2')));
      expect(text(got.get('d/b.json')?.value ?? null)).toBe('B');
      expect(got.get('missing.json')?.value).toBeNull();
      expect(got.get('d')?.value).toBeNull();
      expect(new Set([...got.values()].map((i) => i.version))).toEqual(new Set([await store.head()]));
      const old = await all(readManyFrom(store, ['a.json'], { version: v1 }));
      expect(text(old.get('a.json')?.value ?? null)).toBe('A');
      expect(old.get('a.json')?.version).toBe(v1);
    });

    it('with the fewestRounds hint: the same values at the same one version (a store may only read them sooner)', async () => {
      const { store } = get();
      const none = await all(readManyFrom(store, ['a.json'], { fewestRounds: true }));
      expect(none.get('a.json')).toMatchObject({ value: null, blobSha: null });
      await store.commit([
        { op: 'put', key: 'a.json', value: 'A' },
        { op: 'put', key: 'd/b.json', value: 'B' },
      ]);
      const tip = (await store.put('a.json', 'A2')).version;
      const keys = ['a.json', 'd/b.json', 'missing.json', 'd'];
      const hinted = await all(readManyFrom(store, keys, { fewestRounds: true }));
      const plain = await all(readManyFrom(store, keys));
      const rows = (m: Map<string, ReadManyItem>, at: (i: ReadManyItem) => unknown) =>
        keys.map((k) => m.get(k)).map((i) => i && [i.key, text(i.value), i.blobSha, at(i)]);
      expect(rows(hinted, (i) => i.version)).toEqual(rows(plain, () => tip));
      expect(text(hinted.get('a.json')?.value ?? null)).toBe('A2');
    });

    it('with the childFiles hint too: the same items, and the named files read next at that version as usual', async () => {
      const { store } = get();
      const { version: tip } = await store.commit([
        { op: 'put', key: 'a.json', value: 'A' },
        { op: 'put', key: 's/ns/t1/manifest.json', value: 'M1' },
        { op: 'put', key: 's/ns/t1/other.txt', value: 'O' },
        { op: 'put', key: 's/ns/t2/manifest.json', value: 'M2' },
      ]);
      if (tip === null) throw new Error('the commit wrote nothing');
      const childFiles = { under: 's/ns', names: ['manifest.json'] };
      const hinted = await all(readManyFrom(store, ['a.json', 'gone.json'], { fewestRounds: true, childFiles }));
      expect([...hinted.values()].map((i) => [i.key, text(i.value), i.version])).toEqual([
        ['a.json', 'A', tip],
        ['gone.json', null, tip],
      ]);
      const next = ['s/ns/t1/manifest.json', 's/ns/t2/manifest.json', 's/ns/t1/other.txt', 's/ns/t3/manifest.json'];
      const after = await all(readManyFrom(store, next, { version: tip }));
      expect(next.map((k) => text(after.get(k)?.value ?? null))).toEqual(['M1', 'M2', 'O', null]);
      await expect(
        all(readManyFrom(store, ['a.json'], { fewestRounds: true, childFiles: { under: 's/ns', names: ['x/y'] } })),
      ).rejects.toMatchObject({ code: 'InvalidConfig' });
    });

    it('refuses an invalid key before reading anything', async () => {
      const { store } = get();
      await expect(all(readManyFrom(store, ['ok.json', '../x']))).rejects.toBeInstanceOf(InvalidKey);
    });
  });
}
