/**
 * DocumentStore's `expect` on a local git repository (GitRefStore, issue 38): the same evaluation on the tip
 * the commit builds on — a prune over max-removed is refused with the tip named and the ref unmoved, one
 * within it lands, and a reference to a document the write's own tip no longer has is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpectationsFailed } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { GitRefStore } from '../../../src/stores/git/index.js';
import { bareRepo, GIT_TEST_ENV, tempDir } from '../../git/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  tmp = tempDir('docdb-expect-git-');
});
afterAll(() => tmp?.cleanup());

const repo = (id: string) => ({ namespace: 'g', type: 'repo', id, data: { id } });
const del = (id: string) => ({ op: 'delete' as const, identity: { namespace: 'g', doc_type: 'repo', id } });

describe('expect on GitRefStore', () => {
  it('refuses a prune over max-removed on the tip it read; lands one within it; references from the listing', async () => {
    const store = new GitRefStore({ dir: bareRepo(tmp.dir, 'expect.git'), env: GIT_TEST_ENV });
    const docs = new DocumentStore(store);
    await docs.putMany(Array.from({ length: 20 }, (_, i) => repo(`o/r${i}`)));
    const tip = await store.head();
    const expect10 = [{ namespace: 'g', type: 'repo', expectations: { maxRemoved: '10%' as const } }];
    const e = await docs.commit([del('o/r0'), del('o/r1'), del('o/r2')], { expect: expect10 }).catch((x) => x);
    expect(e).toBeInstanceOf(ExpectationsFailed);
    expect((e as ExpectationsFailed).data.version).toBe(tip);
    expect(await store.head()).toBe(tip);
    expect((await docs.commit([del('o/r0'), del('o/r1')], { expect: expect10 })).changed).toBe(true);
    const refs = [{ namespace: 'g', type: 'issue', expectations: { references: { 'data.repo': 'g/repo' } } }];
    const issue = (id: string, r: string) => ({ namespace: 'g', type: 'issue', id, data: { repo: r } });
    const bad = await docs.putMany([issue('1', 'o/r5'), issue('2', 'o/r0')], { expect: refs }).catch((x) => x);
    expect((bad as ExpectationsFailed).data.violations.map((v) => v.key)).toEqual(['g/issue/2.json']);
  });
});
