/**
 * `RemoteApiRefStore.listTree` (issue 40 item 9: the viewer's file list): every file of the tree with its
 * size from ONE recursive listing once the commit is known; a listing GitHub cut short is reported
 * (`truncated`), never walked; a pinned version that is not a commit of the ref is refused like any read.
 */
import { describe, expect, it } from 'vitest';
import { InvalidVersion } from '../../src/core/errors.js';
import { emulatorPerFile, OWNER, ops, store } from './helpers.js';

// Recursive listings are cut past 8 entries here (GitHub: 100,000 entries or 7 MB).
const fx = emulatorPerFile({ treeTruncateLimit: 8 });

describe('listTree', () => {
  it('lists every file with its size in one tree request, directories and submodules left out', async () => {
    const tip = fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, {
      branch: 'main',
      files: { 'data/a.csv': 'n\r\n1\r\n', 'data/deep/b.json': '[]', 'c.txt': 'héllo' },
    });
    const s = store(fx.em, fx.repo, { ref: 'refs/heads/main' });
    const from = fx.em.requests.length;
    const listed = await s.listTree(tip);
    const sizes = Object.fromEntries(listed.files.map((f) => [f.path, f.size]));
    expect(sizes).toMatchObject({ 'c.txt': 6, 'data/a.csv': 6, 'data/deep/b.json': 2 });
    expect(listed.files.some((f) => f.path === 'data' || f.path === 'data/deep')).toBe(false);
    expect(listed.truncated).toBe(false);
    // The pinned version is checked, its commit read, then ONE listing.
    expect(ops(fx.em, from).filter((o) => o.includes('get-tree'))).toHaveLength(1);
    expect(fx.em.requests.length - from).toBe(2); // the pinned commit (checked and read), the listing
  });

  it('reports a listing GitHub cut short instead of walking the tree (one tree request)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`d${i % 4}/f${i}.csv`] = `n\r\n${i}\r\n`;
    const tip = fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: 'main', files });
    const s = store(fx.em, fx.repo, { ref: 'refs/heads/main' });
    const from = fx.em.requests.length;
    const listed = await s.listTree(tip);
    expect(listed.truncated).toBe(true);
    expect(listed.files.length).toBeLessThan(20);
    expect(ops(fx.em, from).filter((o) => o.includes('get-tree'))).toHaveLength(1);
    // list() walks the same tree whole: every file, more requests.
    const whole = await store(fx.em, fx.repo, { ref: 'refs/heads/main' }).list({ version: tip });
    expect(whole.entries.filter((e) => e.key.endsWith('.csv'))).toHaveLength(20);
  });

  it('refuses a version that is not a commit of the ref', async () => {
    fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: 'main', files: { 'a.json': '{}' } });
    const s = store(fx.em, fx.repo, { ref: 'refs/heads/main' });
    await expect(s.listTree('f'.repeat(40))).rejects.toBeInstanceOf(InvalidVersion);
  });
});
