/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts, so every backend runs it): one
 * commit whose changes arrive in parts, through `commitInParts` — natively (`commitParts`) where a store
 * streams, gathered into `commit` elsewhere. Same result either way.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../src/core/commit-parts.js';
import { InvalidConfig, InvalidKey } from '../../src/core/errors.js';
import type { Change, RefStore } from '../../src/core/refstore.js';
import type { ContractFixture } from './refstore-contract.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function* slowly(parts: Change[][], failAfter?: number) {
  let i = 0;
  for (const p of parts) {
    if (failAfter !== undefined && i === failAfter) throw new Error('the source failed');
    i++;
    await new Promise((r) => setTimeout(r, 1));
    yield p;
  }
}

const put = (key: string, value: string): Change => ({ op: 'put', key, value });

export function describePartsContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('one commit in parts (commitInParts)', () => {
    it('three parts (async) make ONE commit with every change; written lists each key once', async () => {
      const { store } = get();
      await store.commit([put('p/old.json', 'old'), put('p/keep.json', 'keep')]);
      const before = await store.head();
      const r = await commitInParts(
        store,
        slowly([
          [put('p/a.json', '1'), put('p/keep.json', 'keep')],
          [put('p/b/c.json', '2')],
          [{ op: 'delete', key: 'p/old.json' }, put('q.json', '3')],
        ]),
        { message: 'in parts' },
      );
      expect(r.changed).toBe(true);
      expect(r.previousVersion).toBe(before);
      expect([...r.written].sort()).toEqual(['p/a.json', 'p/b/c.json', 'q.json']);
      expect(r.deleted).toEqual(['p/old.json']);
      expect(r.unchanged).toBe(1);
      const h = await store.history('p/a.json');
      expect(h.entries).toHaveLength(1);
      expect(h.entries[0]?.parents).toEqual([before]);
      expect(h.entries[0]?.message).toBe('in parts');
      expect((await store.list()).entries.map((e) => e.key)).toEqual([
        'p/a.json',
        'p/b/c.json',
        'p/keep.json',
        'q.json',
      ]);
      expect(text((await store.get('p/b/c.json'))!.value)).toBe('2');
    });

    it('sync iterables work too; parts that change nothing make no commit', async () => {
      const { store } = get();
      const first = await commitInParts(store, [[put('s/a.json', '1')], [put('s/b.json', '2')]]);
      expect(first.changed).toBe(true);
      const again = await commitInParts(store, [[put('s/a.json', '1')], [], [{ op: 'delete', key: 's/none.json' }]]);
      expect(again).toMatchObject({ changed: false, version: first.version, unchanged: 2 });
      expect(await store.head()).toBe(first.version);
    });

    it('a key in two parts is InvalidKey "duplicate"; a key and its directory across parts is "conflict"; no commit', async () => {
      const { store } = get();
      await store.put('d/seed.json', '0');
      const tip = await store.head();
      const dup = await commitInParts(store, slowly([[put('d/x.json', '1')], [put('d/x.json', '2')]])).catch((e) => e);
      expect(dup).toBeInstanceOf(InvalidKey);
      expect(dup.data.rule).toBe('duplicate');
      const conflict = await commitInParts(store, slowly([[put('d/y', '1')], [put('d/y/z.json', '2')]])).catch(
        (e) => e,
      );
      expect(conflict).toBeInstanceOf(InvalidKey);
      expect(conflict.data.rule).toBe('conflict');
      expect(await store.head()).toBe(tip);
      expect(await store.get('d/x.json')).toBeNull();
    });

    it('a source that fails midway ends the write with its error and no commit', async () => {
      const { store } = get();
      await store.put('f/seed.json', '0');
      const tip = await store.head();
      const err = await commitInParts(store, slowly([[put('f/a.json', '1')], [put('f/b.json', '2')]], 1)).catch(
        (e) => e,
      );
      expect(err?.message).toBe('the source failed');
      expect(await store.head()).toBe(tip);
      expect(await store.get('f/a.json')).toBeNull();
    });

    it('ifMatch is refused (compare-and-set needs every key up front: use commit)', async () => {
      const { store } = get();
      const err = await commitInParts(store, [[put('i.json', '1')]], { ifMatch: { 'i.json': null } } as never).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(InvalidConfig);
      expect(err.data.field).toBe('ifMatch');
      expect(await store.head()).toBeNull();
    });

    it('a peer writing between the parts and the commit: both writes survive', async () => {
      const { fx, store } = get();
      await store.put('r/seed.json', '0');
      const peer = fx.peer();
      async function* racing() {
        yield [put('r/a.json', 'mine')];
        await peer.put('r/b.json', 'theirs'); // lands while this commit is being built
        yield [put('r/c.json', 'mine too')];
      }
      const r = await commitInParts(store, racing());
      expect(r.changed).toBe(true);
      const keys = (await fx.peer().list({ prefix: 'r/' })).entries.map((e) => e.key);
      expect(keys).toEqual(['r/a.json', 'r/b.json', 'r/c.json', 'r/seed.json']);
    });
  });
}
