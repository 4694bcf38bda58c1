/**
 * Part of the ONE RefStore contract (called from refstore-contract.ts inside its describe, so every
 * backend runs it): compare-and-set writes (`ifMatch`), `changes()` between versions, and versions
 * that are not commits of the section.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidVersion, PreconditionFailed } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import type { RefStore } from '../../src/core/refstore.js';
import { resolveVersion } from '../../src/core/resolve-version.js';
import type { ContractFixture } from './refstore-contract.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const sha = (s: string) => blobSha(new TextEncoder().encode(s));

async function rejectsWith<T>(p: Promise<unknown>, cls: new (...a: never[]) => T): Promise<T> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `expected ${cls.name}`).toBeInstanceOf(cls);
  return e as T;
}

export function describeVersionsContract(get: () => { fx: ContractFixture; store: RefStore }): void {
  describe('compare-and-set (ifMatch)', () => {
    it('get returns the blob SHA; a put with the current blobSha lands, a stale one fails and writes nothing', async () => {
      const { store } = get();
      await store.put('cas/a.json', 'v1');
      const got = (await store.get('cas/a.json'))!;
      expect(got.blobSha).toBe(sha('v1'));
      const v2 = await store.put('cas/a.json', 'v2', { ifMatch: got.blobSha });
      expect(v2.changed).toBe(true);
      const tip = await store.head();
      const e = await rejectsWith(store.put('cas/a.json', 'v3', { ifMatch: got.blobSha }), PreconditionFailed);
      expect(e.code).toBe('PreconditionFailed');
      expect(e.data).toMatchObject({ key: 'cas/a.json', expected: sha('v1'), actual: sha('v2'), version: tip });
      expect(await store.head()).toBe(tip);
      expect(text((await store.get('cas/a.json'))!.value)).toBe('v2');
    });

    it('ifMatch null creates only: lands when absent, fails when the key exists (even with identical content)', async () => {
      const { store } = get();
      expect((await store.put('cas/new.json', 'x', { ifMatch: null })).changed).toBe(true);
      const tip = await store.head();
      const e = await rejectsWith(store.put('cas/new.json', 'x', { ifMatch: null }), PreconditionFailed);
      expect(e.data).toMatchObject({ key: 'cas/new.json', expected: null, actual: sha('x') });
      expect(await store.head()).toBe(tip);
    });

    it('delete with ifMatch: a stale expectation fails, the current one deletes; expecting a blob of an absent key fails', async () => {
      const { store } = get();
      await store.put('cas/d.json', 'one');
      await store.put('cas/d.json', 'two');
      await rejectsWith(store.delete('cas/d.json', { ifMatch: sha('one') }), PreconditionFailed);
      expect((await store.get('cas/d.json'))!.blobSha).toBe(sha('two'));
      expect((await store.delete('cas/d.json', { ifMatch: sha('two') })).deleted).toEqual(['cas/d.json']);
      const e = await rejectsWith(store.delete('cas/d.json', { ifMatch: sha('two') }), PreconditionFailed);
      expect(e.data).toMatchObject({ actual: null });
    });

    it('commit: one failing expectation fails the whole batch; bad ifMatch input is InvalidConfig before any write', async () => {
      const { store } = get();
      await store.put('cas/b1.json', 'b1');
      const tip = await store.head();
      const e = await rejectsWith(
        store.commit(
          [
            { op: 'put', key: 'cas/b1.json', value: 'new' },
            { op: 'put', key: 'cas/b2.json', value: 'new' },
          ],
          { ifMatch: { 'cas/b1.json': sha('b1'), 'cas/b2.json': sha('something') } },
        ),
        PreconditionFailed,
      );
      expect(e.data).toMatchObject({ key: 'cas/b2.json', actual: null });
      expect(await store.head()).toBe(tip);
      expect(await store.get('cas/b2.json')).toBeNull();
      await rejectsWith(
        store.commit([{ op: 'put', key: 'cas/b1.json', value: 'z' }], { ifMatch: { 'other.json': null } }),
        InvalidConfig,
      );
      await rejectsWith(store.put('cas/b1.json', 'z', { ifMatch: 'not-a-sha' }), InvalidConfig);
      expect(await store.head()).toBe(tip);
      const ok = await store.commit(
        [
          { op: 'put', key: 'cas/b1.json', value: 'new' },
          { op: 'put', key: 'cas/b2.json', value: 'new' },
        ],
        { ifMatch: { 'cas/b1.json': sha('b1'), 'cas/b2.json': null } },
      );
      expect(ok.written).toEqual(['cas/b1.json', 'cas/b2.json']);
    });

    it('two concurrent editors of ONE key with the same etag: exactly one wins, the other gets PreconditionFailed', async () => {
      const { fx, store } = get();
      await store.put('cas/shared.json', 'base');
      const a = fx.peer();
      const b = fx.peer();
      const etagA = (await a.get('cas/shared.json'))!.blobSha;
      const etagB = (await b.get('cas/shared.json'))!.blobSha;
      const settled = await Promise.allSettled([
        a.put('cas/shared.json', 'from A', { ifMatch: etagA }),
        b.put('cas/shared.json', 'from B', { ifMatch: etagB }),
      ]);
      const won = settled.filter((s) => s.status === 'fulfilled');
      const lost = settled.filter((s) => s.status === 'rejected') as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(PreconditionFailed);
      const winner = settled[0]!.status === 'fulfilled' ? 'from A' : 'from B';
      const final = (await store.get('cas/shared.json'))!;
      expect(text(final.value)).toBe(winner);
      expect((lost[0]!.reason as PreconditionFailed).actual).toBe(final.blobSha);
      expect((await store.history('cas/shared.json')).entries).toHaveLength(2);
    });

    it('two concurrent editors of DIFFERENT keys with ifMatch both land', async () => {
      const { fx, store } = get();
      await store.commit([
        { op: 'put', key: 'cas/x.json', value: 'x0' },
        { op: 'put', key: 'cas/y.json', value: 'y0' },
      ]);
      const a = fx.peer();
      const b = fx.peer();
      const ex = (await a.get('cas/x.json'))!.blobSha;
      const ey = (await b.get('cas/y.json'))!.blobSha;
      const [ra, rb] = await Promise.all([
        a.put('cas/x.json', 'x1', { ifMatch: ex }),
        b.put('cas/y.json', 'y1', { ifMatch: ey }),
      ]);
      expect(ra.changed && rb.changed).toBe(true);
      expect(text((await store.get('cas/x.json'))!.value)).toBe('x1');
      expect(text((await store.get('cas/y.json'))!.value)).toBe('y1');
    });
  });

  describe('changes between versions', () => {
    it('reports added, changed and removed keys with blob SHAs; to defaults to the tip; prefix filters', async () => {
      const { store } = get();
      const v1 = (
        await store.commit([
          { op: 'put', key: 'ch/keep.json', value: 'k' },
          { op: 'put', key: 'ch/edit.json', value: 'e1' },
          { op: 'put', key: 'ch/gone/deep.json', value: 'g' },
          { op: 'put', key: 'other/o.json', value: 'o1' },
        ])
      ).version!;
      const v2 = (
        await store.commit([
          { op: 'put', key: 'ch/edit.json', value: 'e2' },
          { op: 'delete', key: 'ch/gone/deep.json' },
          { op: 'put', key: 'ch/new/a.json', value: 'n' },
          { op: 'put', key: 'other/o.json', value: 'o2' },
        ])
      ).version!;
      const r = await store.changes({ from: v1 });
      expect(r.from).toBe(v1);
      expect(r.to).toBe(v2);
      expect(r.added).toEqual([{ key: 'ch/new/a.json', blobSha: sha('n') }]);
      expect(r.changed).toEqual([
        { key: 'ch/edit.json', blobSha: sha('e2'), previousBlobSha: sha('e1') },
        { key: 'other/o.json', blobSha: sha('o2'), previousBlobSha: sha('o1') },
      ]);
      expect(r.removed).toEqual([{ key: 'ch/gone/deep.json', previousBlobSha: sha('g') }]);
      // `modified` is the list; `changed` its deprecated alias, the very same list (issue 32 item 3).
      expect(r.modified).toEqual(r.changed);
      expect(r.modified).toHaveLength(2);
      const only = await store.changes({ from: v1, to: v2, prefix: 'other/' });
      expect(only.added).toEqual([]);
      expect(only.removed).toEqual([]);
      expect(only.changed.map((c) => c.key)).toEqual(['other/o.json']);
      const none = await store.changes({ from: v2, to: v2 });
      expect([none.added, none.modified, none.changed, none.removed]).toEqual([[], [], [], []]);
      expect(only.modified).toEqual(only.changed);
    });

    it('a key that becomes a directory is removed and its new keys added', async () => {
      const { store } = get();
      const v1 = (await store.put('swap', 'file')).version!;
      await store.delete('swap');
      await store.put('swap/inner.json', 'i');
      const r = await store.changes({ from: v1 });
      expect(r.removed.map((c) => c.key)).toEqual(['swap']);
      expect(r.added.map((c) => c.key)).toEqual(['swap/inner.json']);
    });

    it('rejects a from newer than to, and malformed versions, with InvalidVersion', async () => {
      const { store } = get();
      const v1 = (await store.put('ord.json', '1')).version!;
      const v2 = (await store.put('ord.json', '2')).version!;
      const swapped = await rejectsWith(store.changes({ from: v2, to: v1 }), InvalidVersion);
      // Both are versions of the section: the message says the order is wrong, not that v2 is foreign.
      expect(swapped.message).toContain(`from ${v2} is not an ancestor of to ${v1}; pass the older version as from`);
      await rejectsWith(store.changes({ from: 'nope' }), InvalidVersion);
      await rejectsWith(store.changes({ from: v1, to: 'ABC' }), InvalidVersion);
    });
  });

  describe('versions must be commits of the section', () => {
    it('get, list and changes at a commit of ANOTHER section of the same repository are InvalidVersion', async () => {
      const { fx, store } = get();
      expect(fx.otherSection, 'the fixture must provide otherSection()').toBeTypeOf('function');
      await store.put('mine.json', 'm');
      const other = fx.otherSection!();
      const foreign = (await other.put('mine.json', 'from the other section')).version!;
      const e = await rejectsWith(store.get('mine.json', { version: foreign }), InvalidVersion);
      expect(e.message).toMatch(/not a commit of the section/);
      await rejectsWith(store.list({ version: foreign }), InvalidVersion);
      await rejectsWith(store.changes({ from: foreign }), InvalidVersion);
      // The section's own versions still read fine.
      const own = (await store.put('mine.json', 'm2')).version!;
      expect(text((await store.get('mine.json', { version: own }))!.value)).toBe('m2');
    });

    it('before the section exists, any version is InvalidVersion', async () => {
      const { fx, store } = get();
      const other = fx.otherSection!();
      const foreign = (await other.put('x.json', 'x')).version!;
      await rejectsWith(store.get('x.json', { version: foreign }), InvalidVersion);
      await rejectsWith(store.changes({ from: foreign }), InvalidVersion);
    });
  });

  describe("the section's commits and abbreviated versions (commits, resolveVersion)", () => {
    it('commits lists the section newest first (limit honoured); an abbreviation resolves to its commit', async () => {
      const { store } = get();
      expect(store.commits, 'every store in this repository lists its commits').toBeTypeOf('function');
      expect((await store.commits!()).entries).toEqual([]);
      const absent = await rejectsWith(resolveVersion(store, 'abcd'), InvalidVersion);
      expect(absent.data).toMatchObject({ reason: 'not-in-section', searched: 0 });
      const v1 = (await store.put('ab/a.json', '1')).version!;
      const v2 = (await store.put('ab/b.json', '2')).version!;
      const v3 = (await store.put('ab/a.json', '3')).version!;
      expect((await store.commits!()).entries.map((e) => e.version)).toEqual([v3, v2, v1]);
      expect((await store.commits!({ limit: 2 })).entries.map((e) => e.version)).toEqual([v3, v2]);
      expect(await resolveVersion(store, v1.slice(0, 7))).toBe(v1);
      expect(await resolveVersion(store, v2.slice(0, 4).toUpperCase())).toBe(v2);
      expect(await resolveVersion(store, v3)).toBe(v3);
    });

    it('an abbreviation of a commit of ANOTHER section is not-in-section, and says how far it looked', async () => {
      const { fx, store } = get();
      await store.put('mine.json', 'm');
      const foreign = (await fx.otherSection!().put('mine.json', 'other')).version!;
      const e = await rejectsWith(resolveVersion(store, foreign.slice(0, 10)), InvalidVersion);
      expect(e.data).toMatchObject({ reason: 'not-in-section', searched: 1 });
      expect(e.message).toContain(`not a commit of the section ${store.ref} (searched all 1 commits of the section)`);
    });
  });
}
