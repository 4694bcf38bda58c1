/**
 * Before an action would spend more than is left of the anonymous hour, the page says what it would cost and
 * asks (issue 40 item 2), in Chromium against the emulator with GitHub's anonymous limit: a download that the
 * rate limit stops offers the rows loaded or a token instead of silently saving part of the rows. Its own
 * emulator: the anonymous budget is shared by every anonymous page of one emulator.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { seedType } from './table-seed.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();

describe('asking before spending what is left', () => {
  afterEach(() => {
    world.em.state.anonymousBudget.used = 0;
  });

  it('a download the hour cannot pay for: says so, and downloads the rows loaded only when asked', async () => {
    const repo = freshRepo(world.em);
    seedType(world.em, repo, {
      n: 3000,
      id: (i) => `octo/r${String(i).padStart(5, '0')}`,
      data: (i) => ({ stars: i }),
      fields: ['data.stars'],
    });
    const budget = world.em.state.refreshBudget(world.em.state.anonymousBudget);
    budget.used = budget.limit - 6; // the table opens with 4 (ref, declaration, manifest, one part): 2 are left
    const page = await world.open(`repo=${OWNER}/${repo}&view=table&ns=github&type=repo`);
    await page.waitForSelector('.vt-body .vt-row');
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const warning = page.locator('.budget-warning[role="alert"]');
    await warning.waitFor();
    expect(await warning.locator('p').innerText()).toMatch(
      /^Loading the rows not loaded yet needs about \d+ requests and [0-2] are left in this hour \(GitHub allows 60 an hour without a token; a token gives 5,000\)\. Stopped with (\d+) rows loaded\. The download would hold only those\.$/,
    );
    const loaded = Number((await warning.locator('p').innerText()).match(/Stopped with (\d+) rows/)?.[1]);
    expect(loaded).toBeLessThan(3000);
    expect(downloads).toBe(0);
    expect(await warning.getByRole('button', { name: 'Add a token' }).count()).toBe(1);
    const spent = world.requests(page);

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      warning.getByRole('button', { name: `Download the ${loaded} rows loaded` }).click(),
    ]);
    const csv = await readFile((await file.path()) as string, 'utf8');
    expect(csv.trimEnd().split('\r\n')).toHaveLength(loaded + 1); // the header and the rows loaded
    expect(await page.locator('footer .status').innerText()).toContain('Only the');
    expect(world.requests(page)).toBe(spent);
  });
});
