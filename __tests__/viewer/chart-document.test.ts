/**
 * Chart of one document's field over its versions, in Chromium against the emulator (issue 29 items 6, 8):
 * with a token, the last 100 versions in ≤ 3 requests (ref, history, one GraphQL query) and values equal to
 * the library's reads at each version, gaps named; without a token, what all would cost and a sample of
 * ≤ 18 versions (newest and oldest) drawn at once, ≤ 20 requests in all; keyboard use and a 375 px screen.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { mirrorSteps, starSteps } from '../document/series-section.js';
import { freshRepo, OWNER, store } from '../remote-api/helpers.js';
import { freshAnonymousHour, openChart, tableValues } from './chart-fixtures.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const identity = { namespace: 'github', doc_type: 'repo', id: 'octo/hello' };
const CHART = 'view=chart&ns=github&type=repo&id=octo%2Fhello&field=data.stars';

/** 120 versions of octo/hello: deleted at step 50, "many" stars at 70, else 3 × step. */
async function hundredTwentyVersions(): Promise<{ repo: string; versions: string[] }> {
  const repo = freshRepo(world.em);
  const value = (i: number) => (i === 50 ? undefined : i === 70 ? 'many' : i * 3);
  return { repo, versions: await mirrorSteps(world.em, `${OWNER}/${repo}`, starSteps(120, value)) };
}

/** What the library reads at `versions`: data.stars when it is a number, else null. */
async function libraryValues(repo: string, versions: readonly string[]): Promise<(number | null)[]> {
  const { documents } = await new DocumentStore(store(world.em, repo)).versionsOf<{ stars: unknown }>(
    identity,
    versions,
  );
  return documents.map((d) => (typeof d?.data.stars === 'number' ? d.data.stars : null));
}

describe('chart of a document field', () => {
  it('with a token: 100 versions in ≤ 3 requests, each value equal to the library read at that version', async () => {
    const { repo, versions } = await hundredTwentyVersions();
    const page = await openChart(world, `repo=${OWNER}/${repo}&${CHART}`, { token: true });
    const rows = await tableValues(page);
    expect(world.requests(page)).toBeLessThanOrEqual(3);
    expect(rows).toHaveLength(100);
    expect(rows.map((r) => r.version)).toEqual(versions.slice(20)); // the last 100, oldest first
    expect(rows.map((r) => r.value)).toEqual(await libraryValues(repo, versions.slice(20)));
    expect(rows[30]?.note).toBe('the document is absent'); // step 50
    expect(rows[50]?.note).toBe('data.stars is a string, not a number'); // step 70
    const summary = await page.locator('.chart-summary').innerText();
    expect(summary).toContain('2 without a value: 1 where the document is absent, 1 where data.stars is not a number');
    expect(await page.locator('.line-chart circle.dot').count()).toBe(98);
    expect(await page.locator('.chart-budget').count()).toBe(0);
  });

  it('pinned with at=: the 100 versions up to that one, older than the last 100 of the tip', async () => {
    const { repo, versions } = await hundredTwentyVersions();
    const at = versions[109] as string;
    const page = await openChart(world, `repo=${OWNER}/${repo}&${CHART}&at=${at}`, { token: true });
    const rows = await tableValues(page);
    expect(rows.map((r) => r.version)).toEqual(versions.slice(10, 110)); // ends at `at`, reaches back past the tip's page
    expect(rows.map((r) => r.value)).toEqual(await libraryValues(repo, versions.slice(10, 110)));
  });

  it('anonymous: says what all would cost and samples ≤ 18 versions at once, ≤ 20 requests in all, equal to the library', async () => {
    const { repo, versions } = await hundredTwentyVersions();
    freshAnonymousHour(world.em);
    const page = await openChart(world, `repo=${OWNER}/${repo}&${CHART}`);
    const rows = await tableValues(page);
    const text = await page.locator('.chart-budget').innerText();
    expect(text).toContain('This chart of 100 versions needs about 100 requests');
    expect(text).toContain('GitHub allows 60 an hour without a token');
    expect(text).toContain('A token reads all 100 versions in about 3 requests');
    expect(await page.locator('.chart-budget').getByRole('button', { name: 'Add a token' }).count()).toBe(1);
    expect(world.requests(page)).toBeLessThanOrEqual(20);
    expect(rows.length).toBeLessThanOrEqual(18);
    expect(rows[0]?.version).toBe(versions[20]); // the oldest charted
    expect(rows.at(-1)?.version).toBe(versions[119]); // the newest
    expect(rows.map((r) => r.value)).toEqual(
      await libraryValues(
        repo,
        rows.map((r) => r.version),
      ),
    );
    expect(await page.locator('.chart-summary').innerText()).toContain(`Sampled: ${rows.length} of 100 versions`);
  });

  it('anonymous with less than a sample left: says so and spends nothing more', async () => {
    const { repo } = await hundredTwentyVersions();
    freshAnonymousHour(world.em);
    world.em.state.anonymousBudget.used = 50;
    const page = await openChart(world, `repo=${OWNER}/${repo}&${CHART}`);
    const refused = page.locator('[data-sample="refused"]');
    await refused.waitFor();
    const spent = world.requests(page); // the ref and the history: no version read
    expect(spent).toBe(2);
    expect(await refused.innerText()).toContain(`The sample needs about 18 requests and ${60 - 50 - spent} are left`);
    expect(await page.locator('.chart-budget').getByRole('button', { name: 'Add a token' }).count()).toBe(1);
    expect(await page.locator('[data-chart]').count()).toBe(0);
  });

  it('keyboard: the chart is one tab stop, arrows read each version out; fits a 375 px screen with its table', async () => {
    const repo = freshRepo(world.em);
    const versions = await mirrorSteps(
      world.em,
      `${OWNER}/${repo}`,
      starSteps(5, (i) => 10 + i),
    );
    const page = await openChart(world, `repo=${OWNER}/${repo}&${CHART}`, { token: true, width: 375 });
    await page.waitForSelector('[data-chart="ready"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    let focused = '';
    for (let i = 0; i < 30 && focused !== 'svg'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? '');
    }
    expect(focused).toBe('svg');
    const readout = page.locator('.chart-readout');
    expect(await readout.innerText()).toContain(`5 of 5`);
    expect(await readout.innerText()).toContain('data.stars 14');
    await page.keyboard.press('ArrowLeft');
    expect(await readout.innerText()).toContain(`4 of 5: `);
    expect(await readout.innerText()).toContain(versions[3]?.slice(0, 7));
    await page.keyboard.press('Home');
    expect(await readout.innerText()).toContain('data.stars 10');
    expect(await page.locator('.chart-values caption').innerText()).toBe('data.stars at each version');
    const link = page.locator('.chart-values tbody tr').first().locator('a');
    expect(await link.getAttribute('href')).toContain(`at=${versions[0]}`);
  });

  it('says what a chart URL lacks, and that a document has no version in the section', async () => {
    const repo = freshRepo(world.em);
    await mirrorSteps(
      world.em,
      `${OWNER}/${repo}`,
      starSteps(2, (i) => i),
    );
    const noField = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=github&type=repo&id=octo%2Fhello`, {
      token: true,
    });
    expect(await noField.locator('.error').innerText()).toContain('A document chart needs "field"');
    const none = await openChart(
      world,
      `repo=${OWNER}/${repo}&view=chart&ns=github&type=repo&id=octo%2Fnope&field=data.stars`,
      {
        token: true,
      },
    );
    expect(await none.locator('.error').innerText()).toContain(
      'No version of github/repo octo/nope is in this section',
    );
    const bad = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=github&type=repo&id=..&field=data.stars`, {
      token: true,
    });
    expect(await bad.getAttribute('body', 'data-state')).toBe('error');
    expect(await bad.locator('.error').innerText()).toContain('id ".." is invalid: no part of it may be "." or ".."');
    const noNumber = await openChart(world, `repo=${OWNER}/${repo}&${CHART.replace('data.stars', 'data.nope')}`, {
      token: true,
    });
    await noNumber.waitForSelector('[data-chart="ready"]');
    expect(await noNumber.locator('.chart-box .error').innerText()).toBe(
      'No version holds a number to chart; the table says why.',
    );
    expect((await tableValues(noNumber)).map((r) => r.note)).toEqual([
      'data.nope is absent, not a number',
      'data.nope is absent, not a number',
    ]);
  });
});
