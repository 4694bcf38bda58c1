/**
 * Live updates (issue 29 item 7) in Chromium: the page polls the section's ref with If-None-Match (304s
 * while idle), says when a commit lands and updates on request; polling pauses while the tab is hidden.
 * The poll interval comes from the page's `<meta name="docdb-watch-interval">` (docs/viewer.md), set
 * small here.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const INTERVAL = 100;

/**
 * A page whose viewer polls every INTERVAL ms: the meta tag goes into the head when parsing ends, before
 * the viewer's module script runs. (Fulfilling index.html through page.route instead would make Chromium
 * treat the page as public and block its requests to the loopback emulator: Private Network Access.)
 */
async function livePage(): Promise<Page> {
  const page = await world.newPage();
  await page.addInitScript((ms) => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      const meta = document.createElement('meta');
      meta.name = 'docdb-watch-interval';
      meta.content = String(ms);
      document.head.append(meta);
    });
  }, INTERVAL);
  return page;
}

const doc = (id: string, n: number) => JSON.stringify({ namespace: 'a', doc_type: 'b', id, data: { n } });

function section(): string {
  const repo = freshRepo(world.em);
  world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'refs/docdb/documents',
    orphan: true,
    files: { 'a/b/1.json': doc('1', 1) },
  });
  return repo;
}

/** The section's ref reads (polls) the emulator answered since `from`. */
const refReads = (repo: string, from: number) =>
  world.em.requests
    .slice(from)
    .filter((r) => r.method === 'GET' && r.path === `/repos/${OWNER}/${repo}/git/ref/docdb/documents`);

const liveState = (page: Page) =>
  page.evaluate(() => (window as unknown as { docdbViewer: { stats(): { live: string } } }).docdbViewer.stats().live);

describe('live updates', () => {
  it('polls with 304s while idle; a new commit shows a banner; Update shows the new version', async () => {
    const repo = section();
    const page = await livePage();
    await world.open(`repo=${OWNER}/${repo}`, page);
    const opened = world.em.requests.length;
    const historyLength = await page.evaluate(() => history.length);
    await expect.poll(() => refReads(repo, opened).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(refReads(repo, opened).map((r) => r.status)).toEqual(refReads(repo, opened).map(() => 304));
    expect(await page.locator('.live').isHidden()).toBe(true);

    const next = world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      files: { 'a/b/2.json': doc('2', 2) },
    });
    const banner = page.locator('.live');
    await banner.getByRole('button', { name: 'Update' }).waitFor();
    expect(await banner.innerText()).toContain(`The section changed (new commit ${next.slice(0, 7)}: 1 added)`);
    // Nothing re-rendered on its own: still the old count until the visitor asks.
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
    await banner.getByRole('button', { name: 'Update' }).click();
    await page.waitForFunction(() => document.querySelector('table.types td.num')?.textContent === '2');
    await settled(page);
    expect(await page.locator('.version-line').innerText()).toContain(next.slice(0, 7));
    expect(await banner.isHidden()).toBe(true);
    // Update replaced the history entry (no new one to go back through).
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
  });

  it('pauses while the tab is hidden and resumes when it is shown', async () => {
    const repo = section();
    const page = await livePage();
    await world.open(`repo=${OWNER}/${repo}`, page);
    const opened = world.em.requests.length;
    await expect.poll(() => refReads(repo, opened).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    // Hidden, as the Page Visibility API reports it to the watch's VisibilitySource.
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await expect.poll(() => liveState(page), { timeout: 10_000 }).toBe('paused');
    const paused = world.em.requests.length;
    world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      files: { 'a/b/2.json': doc('2', 2) },
    });
    // Five intervals of the page's own timers pass: a watch that kept polling would read the ref and see the commit.
    await page.evaluate((ms) => new Promise((r) => setTimeout(r, ms)), INTERVAL * 5);
    expect(refReads(repo, paused)).toEqual([]);
    expect(await page.locator('.live').isHidden()).toBe(true);
    await setHidden(false);
    await page.locator('.live').getByRole('button', { name: 'Update' }).waitFor();
    expect(refReads(repo, paused).length).toBeGreaterThanOrEqual(1);
  });

  it('does not follow a pinned version', async () => {
    const repo = section();
    const tip = world.em.state.commitFiles(`${OWNER}/${repo}`, {
      branch: 'refs/docdb/documents',
      files: { 'a/b/2.json': doc('2', 2) },
    });
    const page = await livePage();
    await world.open(`repo=${OWNER}/${repo}&at=${tip}`, page);
    expect(await liveState(page)).toBe('off');
  });
});
