/**
 * The overview in Chromium (issue 29 item 2): counts per type, the tip commit, recent commits — within
 * its share of the budget "overview + table of a 10,000-document type with 3 indexed fields, cold, no
 * token: ≤ 6" (head, one page of commits, one listing), and "reload, section unchanged: ≤ 2, all 304".
 */
import { describe, expect, it } from 'vitest';
import { indexedSectionFiles } from '../document/indexed-section.js';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();

/** The emulator's log since `from`, as `METHOD path?query status`. */
const requestsSince = (from: number) =>
  world.em.requests
    .slice(from)
    // CORS preflights are the browser's, not API requests: they cost no rate limit.
    .filter((r) => r.method !== 'OPTIONS')
    .map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''} ${r.status}`);

async function bigSection(): Promise<{ repo: string; tip: string }> {
  const repo = freshRepo(world.em);
  const documents = Array.from({ length: 10_000 }, (_, i) => ({
    namespace: 'github',
    type: 'repo',
    id: `octo/r${i}`,
    data: { language: ['Go', 'TypeScript', 'Rust'][i % 3], stars: i, forks: i % 17 },
  }));
  documents.push({ namespace: 'people', type: 'user', id: 'ada', data: { language: 'en', stars: 1, forks: 0 } });
  const files = await indexedSectionFiles(documents, [
    { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars', 'data.forks'] },
  ]);
  const tip = world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'refs/docdb/documents',
    orphan: true,
    files,
    message: 'Seed 10,000 repositories',
  });
  return { repo, tip };
}

describe('overview', () => {
  it('opens a 10,000-document section cold in 3 requests and reloads in ≤ 2, all 304', async () => {
    const { repo, tip } = await bigSection();
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    const from = world.em.requests.length;
    await world.open(`repo=${OWNER}/${repo}`, page);
    const cold = requestsSince(from);
    expect(cold).toEqual([
      `GET /repos/${OWNER}/${repo}/git/ref/docdb/documents 200`,
      `GET /repos/${OWNER}/${repo}/commits?sha=refs%2Fdocdb%2Fdocuments&per_page=20 200`,
      expect.stringMatching(new RegExp(`^GET /repos/${OWNER}/${repo}/git/trees/[0-9a-f]{40}\\?recursive=1 200$`)),
    ]);
    const rows = await page.locator('table.types tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
      ['github', 'repo', '10,000', 'indexed', 'chart'],
      ['people', 'user', '1', '—', 'chart'],
    ]);
    expect(await page.getByRole('link', { name: 'repo', exact: true }).getAttribute('href')).toBe(
      `?repo=${OWNER}%2F${repo}&view=table&ns=github&type=repo`,
    );
    expect(await page.locator('.version-line').innerText()).toContain(
      `Tip commit ${tip.slice(0, 7)} — Seed 10,000 repositories`,
    );
    expect(await page.locator('ol.commits li a').first().getAttribute('href')).toBe(
      `?repo=${OWNER}%2F${repo}&at=${tip}`,
    );
    expect(
      await page.evaluate(
        () => (window as unknown as { docdbViewer: { stats(): { requests: number } } }).docdbViewer.stats().requests,
      ),
    ).toBe(3);
    // Usable at 375 px: nothing wider than the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const again = world.em.requests.length;
    await page.reload();
    await settled(page);
    const reload = world.em.requests.slice(again).filter((r) => r.method !== 'OPTIONS');
    expect(reload.length).toBeLessThanOrEqual(2);
    expect(reload.map((r) => r.status)).toEqual(reload.map(() => 304));
    expect(await page.locator('table.types tbody tr').count()).toBe(2);
  });

  it('links every commit to its version and its changes; the version line pins, "back to the tip" unpins', async () => {
    const repo = freshRepo(world.em);
    const ref = 'refs/docdb/documents';
    const doc = (n: number) => JSON.stringify({ namespace: 'a', doc_type: 'b', id: `d${n}`, data: { n } });
    const first = world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: ref,
      orphan: true,
      files: { 'a/b/d1.json': doc(1) },
      message: 'one',
    });
    const second = world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: ref,
      files: { 'a/b/d2.json': doc(2) },
      message: 'two',
    });
    const page = await world.open(`repo=${OWNER}/${repo}`);
    expect(await page.locator('table.types td.num').innerText()).toBe('2');
    const changes = page.locator('ol.commits li').first().getByRole('link', { name: 'changes' });
    expect(await changes.getAttribute('href')).toBe(`?repo=${OWNER}%2F${repo}&view=diff&from=${first}&to=${second}`);
    await page
      .locator('ol.commits li')
      .nth(1)
      .getByRole('link', { name: first.slice(0, 7) })
      .click();
    await page.waitForURL(`**at=${first}`);
    await settled(page);
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
    expect(await page.locator('.version .pinned').innerText()).toContain(first.slice(0, 7));
    // Focus moved to the new view's heading (keyboard and screen-reader users land there).
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.getByRole('link', { name: 'back to the tip' }).click();
    await page.waitForURL((url) => !url.search.includes('at='));
    await settled(page);
    expect(await page.locator('table.types td.num').innerText()).toBe('2');
    await page.goBack();
    await settled(page);
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
  });

  it('picks a version from the recent commits in the header', async () => {
    const repo = freshRepo(world.em);
    const ref = 'refs/docdb/documents';
    const doc = (n: number) => JSON.stringify({ namespace: 'a', doc_type: 'b', id: `d${n}`, data: { n } });
    const first = world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: ref,
      orphan: true,
      files: { 'a/b/d1.json': doc(1) },
    });
    world.em.state.commitFiles(`${OWNER}/${repo}`, { branch: ref, files: { 'a/b/d2.json': doc(2) } });
    const page = await world.open(`repo=${OWNER}/${repo}&view=table&ns=a&type=b`);
    const before = world.em.requests.length;
    await page.locator('details.picker summary').focus();
    await page.keyboard.press('Enter');
    const pick = page.locator('.picker-list a').nth(1);
    await pick.waitFor();
    expect(await pick.innerText()).toBe(first.slice(0, 7));
    await pick.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('at') === first);
    expect(new URL(page.url()).searchParams.get('view')).toBe('table');
    expect(world.em.requests.length).toBeGreaterThan(before);
  });
});
