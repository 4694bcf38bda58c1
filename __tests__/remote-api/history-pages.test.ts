/**
 * A key's history page by page on the API (`limit` + `cursor`): one request per page of up to 100, the
 * next page starting at the commit GitHub's `sha=` is given, counted in the emulator's request log.
 */
import { describe, expect, it } from 'vitest';
import { emulatorPerFile, OWNER, ops, since, store } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const KEY = 'github/repo/octo/hello.json';

/** Seed the section directly in the emulator (costs no HTTP). */
function seed(files: Record<string, string | null>): string {
  const fresh = fx.em.state.repo(`${OWNER}/${fx.repo}`).db.readRef(REF) === undefined;
  const all = fresh ? { 'README.md': null, ...files } : files;
  return fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files: all, message: 'seed' });
}

describe('history pages on the API', () => {
  it('250 versions in pages of 100: three pages, one request each, the whole history in order', async () => {
    for (let i = 0; i < 250; i++) seed({ [KEY]: `v${i}`, [`noise/${i}`]: 'n' });
    const whole = (await store(fx.em, fx.repo).history(KEY)).entries.map((e) => e.version);
    expect(whole).toHaveLength(250);
    const s = store(fx.em, fx.repo);
    const from = fx.em.requests.length;
    const p1 = await s.history(KEY, { limit: 100 });
    const p2 = await s.history(KEY, { limit: 100, cursor: p1.nextCursor! });
    const p3 = await s.history(KEY, { limit: 100, cursor: p2.nextCursor! });
    expect([p1, p2, p3].map((p) => p.entries.length)).toEqual([100, 100, 50]);
    expect([p1, p2, p3].map((p) => p.requests)).toEqual([1, 1, 1]);
    expect(p3.nextCursor).toBeUndefined();
    expect([...p1.entries, ...p2.entries, ...p3.entries].map((e) => e.version)).toEqual(whole);
    expect(ops(fx.em, from)).toEqual(Array(3).fill('GET repos/list-commits 200'));
    expect(since(fx.em, from)[1]!.query).toContain(`sha=${p1.nextCursor}`);
    // A version a page listed is known to be in the section: reading at it needs no section listing.
    const old = p3.entries[10]!.version;
    const at = fx.em.requests.length;
    expect(new TextDecoder().decode((await s.get(KEY, { version: old }))!.value)).toBe('v39');
    expect(ops(fx.em, at).filter((o) => o.includes('list-commits'))).toEqual([]);
  });

  it('a page asked again while nothing changed: a 304, and it still says where the next page starts', async () => {
    for (let i = 0; i < 5; i++) seed({ [KEY]: `v${i}` });
    const s = store(fx.em, fx.repo);
    const first = await s.history(KEY, { limit: 2 });
    expect(first.nextCursor).toBeDefined();
    const from = fx.em.requests.length;
    const again = await s.history(KEY, { limit: 2 });
    expect(ops(fx.em, from)).toEqual(['GET repos/list-commits 304']);
    expect(again.entries).toEqual(first.entries);
    expect(again.nextCursor).toBe(first.nextCursor);
  });

  it('a cursor that is no commit of the repository is InvalidVersion, said with the version', async () => {
    seed({ [KEY]: 'v1' });
    const s = store(fx.em, fx.repo);
    const e = await s.history(KEY, { limit: 1, cursor: 'f'.repeat(40) }).catch((err: unknown) => err);
    expect((e as Error).name).toBe('InvalidVersion');
    expect((e as Error).message).toContain('f'.repeat(40));
  });
});
