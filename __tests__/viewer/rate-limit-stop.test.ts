/**
 * Where a rate limit stops the page (issue 40 item 2), in Chromium against the emulator with GitHub's
 * anonymous limit (60 an hour, shared by every anonymous visitor of one emulator, as GitHub shares it per
 * IP address): the PRIMARY limit — a 403 with `x-ratelimit-remaining: 0` — is named as the hourly limit, with
 * its reset (in the viewer's one date format: local time with its zone) and "Add a token"; only a real secondary limit (`retry-after`, budget left) says
 * "secondary". Before the fix an anonymous visitor past 60 requests read "GitHub asked to slow down
 * (secondary rate limit). Try again in 3387 seconds".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatLocal } from '../../src/viewer/dates.js';
import { freshRepo, OWNER, TOKEN } from '../remote-api/helpers.js';
import { seedType } from './table-seed.js';
import { settled, VIEWER_ZONE, viewerWorld } from './viewer-page.js';

const world = viewerWorld();

function section(): string {
  const repo = freshRepo(world.em);
  const doc = (id: string) => JSON.stringify({ namespace: 'a', type: 'b', id, data: { n: Number(id) } });
  world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'refs/docdb/documents',
    orphan: true,
    files: { 'a/b/1.json': doc('1'), 'a/b/2.json': doc('2') },
  });
  return repo;
}

/**
 * The reset time as the page formats it (src/viewer/dates.ts) in the test browser's zone (Paris, en-GB), from
 * the emulator's `x-ratelimit-reset`: `… CET`, one hour ahead of UTC in winter (two in summer, `CEST`).
 */
function resetTime(epochSeconds: number): string {
  const text = formatLocal(epochSeconds * 1000, 'minute', VIEWER_ZONE);
  expect(text).toMatch(/ CES?T$/);
  return text;
}

describe('a rate limit that stops the page', () => {
  afterEach(() => {
    world.em.clearFaults();
    world.em.state.anonymousBudget.used = 0;
  });

  it('the hour used up (60 of 60): says the hourly limit, its reset in local time, and offers a token that works', async () => {
    const repo = section();
    const budget = world.em.state.refreshBudget(world.em.state.anonymousBudget);
    budget.used = budget.limit; // the visitor has used the 60 requests of the hour
    const page = await world.open(`repo=${OWNER}/${repo}&view=document&ns=a&type=b&id=1`);
    const stop = page.locator('.limit-stop[role="alert"]');
    expect(await stop.getAttribute('data-limit')).toBe('primary');
    const text = await stop.locator('p').innerText();
    expect(text).toBe(
      `GitHub's hourly rate limit is used up (60 requests an hour without a token): nothing more can be read until it resets at ${resetTime(budget.reset)}. Add a token for 5,000 an hour.`,
    );
    expect(await page.locator('body').innerText()).not.toMatch(/secondary|seconds/);

    // Anywhere the limit stops the page: another view of the same page (the client holds its request back,
    // unsent, until the reset) says the same.
    const sent = world.requests(page);
    await page.evaluate((q) => {
      history.pushState(null, '', `?${q}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `repo=${OWNER}/${repo}&view=table&ns=a&type=b`);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('view') === 'table');
    await settled(page);
    expect(await page.locator('.limit-stop').getAttribute('data-limit')).toBe('primary');
    expect(await page.locator('.limit-stop p').innerText()).toContain('hourly rate limit is used up');
    expect(world.requests(page)).toBe(sent);

    await page.locator('.limit-stop').getByRole('button', { name: 'Add a token' }).click();
    expect(await page.locator('details.token-panel').getAttribute('open')).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('token-input');
    await page.getByLabel('GitHub token').fill(TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.waitForSelector('body[data-state="ready"]');
    expect(await page.locator('.limit-stop').count()).toBe(0);
    expect(await page.locator('#view').innerText()).toContain('(all 2 read)');
  });

  it('the hour running out while the table scrolls: the next page says the hourly limit above the grid', async () => {
    const repo = freshRepo(world.em);
    seedType(world.em, repo, {
      n: 3000,
      id: (i) => `octo/r${String(i).padStart(5, '0')}`,
      data: (i) => ({ stars: i }),
      fields: ['data.stars'],
    });
    const budget = world.em.state.refreshBudget(world.em.state.anonymousBudget);
    budget.used = budget.limit - 4; // the table opens with 4 (ref, declaration, manifest, one part): none left
    const page = await world.open(`repo=${OWNER}/${repo}&view=table&ns=github&type=repo`);
    await page.locator('.vt-body .vt-row').first().focus();
    const stop = page.locator('.limit-stop[role="alert"]');
    // End nears the end of the rows loaded: the next page is read, from the part already read while it holds
    // them, then from the next part — the request the hour cannot pay for.
    for (let loaded = '200'; (await stop.count()) === 0; ) {
      await page.keyboard.press('End');
      await page.waitForFunction(
        (before) =>
          document.querySelector('.limit-stop') !== null ||
          (document.querySelector('.vt-scroll') as HTMLElement | null)?.dataset.loaded !== before,
        loaded,
      );
      loaded = (await page.getAttribute('.vt-scroll', 'data-loaded')) ?? '';
    }
    expect(await stop.getAttribute('data-limit')).toBe('primary');
    expect(await stop.locator('p').innerText()).toContain("GitHub's hourly rate limit is used up");
    expect(await stop.getByRole('button', { name: 'Add a token' }).count()).toBe(1);
    expect(await page.locator('.vt-body .vt-row').count()).toBeGreaterThan(0); // the rows loaded stay
  });

  it('a secondary limit (retry-after, budget left) says secondary and when to try again, not the hourly limit', async () => {
    const repo = section();
    world.em.inject({ kind: 'secondary-rate-limit', retryAfter: 3387, method: 'GET', path: `/repos/${OWNER}/${repo}` });
    const page = await world.open(`repo=${OWNER}/${repo}&view=document&ns=a&type=b&id=1`);
    const stop = page.locator('.limit-stop[role="alert"]');
    expect(await stop.getAttribute('data-limit')).toBe('secondary');
    expect(await stop.locator('p').innerText()).toBe(
      'GitHub asked to slow down (a secondary rate limit, for bursts of requests; the hourly limit is not used up). Try again in 3387 seconds.',
    );
    expect(await stop.getByRole('button', { name: 'Add a token' }).count()).toBe(0);
  });
});
