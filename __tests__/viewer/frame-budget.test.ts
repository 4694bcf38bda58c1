/**
 * The rate limit in view and the budget warning (issue 29 item 8), in Chromium: an anonymous visitor with
 * fewer requests left than the overview needs is told so before they are spent, with the ways out — add
 * a token (the panel opens, focus in its field) or open anyway. Its own emulator: the anonymous budget is
 * shared by every anonymous client of one emulator, as GitHub shares it per IP address.
 */
import { describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();

function section(): string {
  const repo = freshRepo(world.em);
  const doc = JSON.stringify({ namespace: 'a', doc_type: 'b', id: '1', data: {} });
  world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'refs/docdb/documents',
    orphan: true,
    files: { 'a/b/1.json': doc },
  });
  return repo;
}

describe('rate limit and budget warning', () => {
  it('keeps the rate limit in view: what is left, the reset, the anonymous allowance', async () => {
    const repo = section();
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 300 });
    await world.open(`repo=${OWNER}/${repo}`, page);
    const budget = world.em.state.anonymousBudget;
    const meter = page.locator('footer .meter');
    expect(await meter.innerText()).toMatch(
      new RegExp(
        `^Rate limit: ${budget.limit - budget.used} of ${budget.limit} requests left, resets at .+ \\(no token: GitHub allows 60 an hour\\) · 3 request\\(s\\) by this page$`,
      ),
    );
    // Always in view: the footer sticks to the bottom of the viewport while the top of the page shows.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(300);
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await meter.isVisible()).toBe(true);
    const box = await meter.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(300);
  });

  it('warns an anonymous visitor before the overview would exceed what is left, and offers the ways out', async () => {
    const repo = section();
    const budget = world.em.state.anonymousBudget;
    // After the frame's head, 1 request is left: the overview needs 2.
    budget.used = budget.limit - 2;
    try {
      const page = await world.open(`repo=${OWNER}/${repo}`);
      const warning = page.locator('.budget-warning[role="alert"]');
      expect(await warning.locator('p').innerText()).toBe(
        'The overview needs about 2 requests and 1 are left in this hour (GitHub allows 60 an hour without a token; a token gives 5,000).',
      );
      expect(await page.locator('table.types').count()).toBe(0);
      await warning.getByRole('button', { name: 'Add a token' }).click();
      expect(await page.locator('details.token-panel').getAttribute('open')).toBe('');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('token-input');

      budget.used = 0;
      await warning.getByRole('button', { name: 'Open anyway' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('table.types').waitFor();
      expect(await page.locator('table.types td.num').innerText()).toBe('1');
      expect(await warning.count()).toBe(0);
    } finally {
      budget.used = 0;
    }
  });
});
