/**
 * `changes()` without a token (issue 40 item 4), counted in the emulator's request log: GitHub has no anonymous
 * GraphQL, so the old blob SHAs of a compare come from one recursive listing of `from`'s tree (named by the
 * compare's `base_commit`) — compare + listing, where the tree diff took 2 commits + 2 listings. Then
 * `changes({ withDocuments })` and `changedVersions`: modified documents rebuilt from their patches cost no read,
 * the others one (the `from` version + the patch) or two.
 */
import { describe, expect, it } from 'vitest';
import { changedVersions, DocumentStore } from '../../src/document/index.js';
import { emulatorPerFile, ops, store } from './helpers.js';

type World = ReturnType<typeof emulatorPerFile>;
const fx = emulatorPerFile({ unauthenticatedRateLimit: 100_000 });
/** An emulator that cuts recursive listings past 10 entries, as GitHub past 100,000. */
const cut = emulatorPerFile({ unauthenticatedRateLimit: 100_000, treeTruncateLimit: 10 });
const anonymous = (w: World = fx) => new DocumentStore(store(w.em, w.repo, { token: undefined }));
const withToken = (w: World = fx) => new DocumentStore(store(w.em, w.repo));

const doc = (i: number, data: unknown) => ({ namespace: 'github', type: 'repo', id: `octo/r${i}`, data });
/** A realistic small document: the change to `stars` shows it whole in a patch with 3 lines of context. */
const small = (i: number, stars: number) => doc(i, { language: 'Go', open_issues: i % 7, stars });
/** Fields above `stars` the patch does not show: rebuilding needs the stored `from` version. */
const tall = (i: number, stars: number) => doc(i, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, stars });

/** 1,000 documents, then one commit changing `n` of them (the first `tallOnes` with the tall shape). */
async function twoVersions(n: number, tallOnes = 0, w: World = fx) {
  const docs = withToken(w);
  const shape = (i: number) => (i < tallOnes ? tall : small);
  await docs.putMany(Array.from({ length: 1_000 }, (_, i) => shape(i)(i, i)));
  const from = (await docs.head()) as string;
  await docs.putMany(Array.from({ length: n }, (_, i) => shape(i)(i, i + 1)));
  return { from, to: (await docs.head()) as string };
}

describe('changes() without a token', () => {
  it('50 of 1,000 changed: the ref, one compare, one listing of from — and the same answer as with a token', async () => {
    const { from, to } = await twoVersions(50);
    const since = fx.em.requests.length;
    const got = await anonymous().changes({ from });
    expect(ops(fx.em, since)).toEqual([
      'GET git/get-ref 200',
      'GET repos/compare-commits-with-basehead 200',
      'GET git/get-tree 200',
    ]);
    expect(fx.em.requests.slice(since).every((r) => !r.authenticated)).toBe(true);
    expect(got.requests).toBe(3);
    expect(got.to).toBe(to);
    const expected = await withToken().changes({ from, to });
    expect(got.modified).toEqual(expected.modified);
    expect(got.modified).toHaveLength(50);
  });

  it('to = the tip this store just read: no second ref read (the viewer compares up to the tip it shows)', async () => {
    const { from } = await twoVersions(3);
    const s = anonymous();
    const tip = (await s.head()) as string;
    const since = fx.em.requests.length;
    await s.changes({ from, to: tip });
    expect(ops(fx.em, since)).toEqual(['GET repos/compare-commits-with-basehead 200', 'GET git/get-tree 200']);
  });

  it('a listing GitHub cuts (truncated) is walked level by level: the same answer, never a partial one', async () => {
    const { from, to } = await twoVersions(5, 0, cut);
    const since = cut.em.requests.length;
    const got = await anonymous(cut).changes({ from, to });
    expect(got.modified).toEqual((await withToken(cut).changes({ from, to })).modified);
    expect(got.modified).toHaveLength(5);
    // The cut listing is set aside: the levels on the keys' path, one by one (github/, github/repo/, …).
    expect(ops(cut.em, since).filter((o) => o === 'GET git/get-tree 200').length).toBeGreaterThan(1);
  });
});

describe('both versions of modified documents at the fewest reads', () => {
  it('withDocuments: documents their patch shows whole come with before and after, exact, for no request', async () => {
    const { from, to } = await twoVersions(50, 10);
    const c = await anonymous().changes({ from, to, withDocuments: true });
    const rebuilt = c.modified.filter((d) => d.before && d.after);
    expect(rebuilt).toHaveLength(40);
    const reads = withToken();
    for (const d of rebuilt) {
      const id = { namespace: d.namespace, doc_type: d.doc_type, id: d.id };
      expect(d.before).toEqual(await reads.get(id, { version: from }));
      expect(d.after).toEqual(await reads.get(id, { version: to }));
    }
  });

  it('changedVersions: nothing for the rebuilt, the from version for the rest (the patch gives to): 10 reads for 50', async () => {
    const { from, to } = await twoVersions(50, 10);
    const s = anonymous();
    const c = await s.changes({ from, to, withDocuments: true });
    const since = fx.em.requests.length;
    const pairs = await changedVersions(s, c.modified, c.from, c.to);
    // One read per tall document, at `from` (from's tree is cached by changes(): only the blob).
    expect(fx.em.requests.length - since).toBe(10);
    const reads = withToken();
    for (const [i, d] of c.modified.entries()) {
      const id = { namespace: d.namespace, doc_type: d.doc_type, id: d.id };
      expect(pairs[i], d.key).toEqual({
        before: await reads.get(id, { version: from }),
        after: await reads.get(id, { version: to }),
      });
    }
  });

  it('changedVersions without patches (or a patch that does not apply) reads both versions', async () => {
    const { from, to } = await twoVersions(4, 4);
    const s = anonymous();
    const c = await s.changes({ from, to });
    expect(c.modified.every((d) => d.patch === undefined)).toBe(true);
    const damaged = c.modified.map((d) => ({ ...d, patch: '@@ -1 +1 @@\n-x\n+y' }));
    for (const docs of [c.modified, damaged]) {
      const since = fx.em.requests.length;
      // A fresh store each time: nothing cached from the round before.
      const pairs = await changedVersions(anonymous(), docs, from, to);
      expect(pairs.map((p) => (p.after?.data as { stars: number } | undefined)?.stars)).toEqual([1, 2, 3, 4]);
      expect(pairs.map((p) => (p.before?.data as { stars: number } | undefined)?.stars)).toEqual([0, 1, 2, 3]);
      expect(fx.em.requests.length - since, 'both versions read').toBeGreaterThan(0);
    }
  });
});
