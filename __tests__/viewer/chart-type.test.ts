/**
 * Chart of a type across section versions, in Chromium against the emulator (issue 29 items 6, 8): the
 * count, sum and mean of an indexed field at each version equal what the library's query answers at that
 * version; with a token in a handful of requests (each distinct index part read once); anonymous, what all
 * would cost and a sample within 20 requests in all whose values equal the library's at those versions.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { mirrorSteps, seriesByQuery, typeSteps } from '../document/series-section.js';
import { freshRepo, OWNER, store } from '../remote-api/helpers.js';
import { freshAnonymousHour, openChart, tableValues } from './chart-fixtures.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const TYPE = 'view=chart&ns=github&type=repo';

async function section(steps: number): Promise<{ repo: string; versions: string[] }> {
  const repo = freshRepo(world.em);
  return { repo, versions: await mirrorSteps(world.em, `${OWNER}/${repo}`, typeSteps(steps)) };
}

describe('chart of a type across section versions', () => {
  it('with a token: count, sum and mean equal the query at each version; sum in ≤ 6 requests', async () => {
    const { repo, versions } = await section(14);
    const expected = await seriesByQuery(new DocumentStore(store(world.em, repo)), [...versions].reverse());
    const oldestFirst = [...expected].reverse();
    const sum = await openChart(world, `repo=${OWNER}/${repo}&${TYPE}&agg=sum&field=data.stars`, { token: true });
    const sumRows = await tableValues(sum);
    // ref, commits, the index declaration (the form's fields, and whether the type has an index), the
    // manifests (one query), the parts' SHAs (one query), the distinct parts (one query)
    expect(world.requests(sum)).toBeLessThanOrEqual(6);
    expect(sumRows.map((r) => r.version)).toEqual(versions);
    expect(sumRows.map((r) => r.value)).toEqual(oldestFirst.map((e) => e.sum));
    expect(sumRows[0]?.note).toBe('the type has no index at this version');
    const mean = await openChart(world, `repo=${OWNER}/${repo}&${TYPE}&agg=mean&field=data.stars`, { token: true });
    expect((await tableValues(mean)).map((r) => r.value)).toEqual(oldestFirst.map((e) => e.mean));
    const count = await openChart(world, `repo=${OWNER}/${repo}&${TYPE}&agg=count`, { token: true });
    expect((await tableValues(count)).map((r) => r.value)).toEqual(oldestFirst.map((e) => e.count));
    expect(await count.locator('h1').innerText()).toBe('Documents of github/repo over time');
  });

  it('anonymous: a mean over 40 versions is explained, then sampled within 20 requests, equal to the query', async () => {
    const { repo, versions } = await section(40);
    freshAnonymousHour(world.em);
    const page = await openChart(world, `repo=${OWNER}/${repo}&${TYPE}&agg=mean&field=data.stars`);
    const rows = await tableValues(page);
    expect(await page.locator('.chart-budget').innerText()).toContain(
      'This chart of 40 versions needs about 80 requests',
    );
    expect(world.requests(page)).toBeLessThanOrEqual(20);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]?.version).toBe(versions[0]);
    expect(rows.at(-1)?.version).toBe(versions[39]);
    const expected = await seriesByQuery(
      new DocumentStore(store(world.em, repo)),
      rows.map((r) => r.version),
    );
    expect(rows.map((r) => r.value)).toEqual(expected.map((e) => e.mean));
    expect(await page.locator('.chart-summary').innerText()).toContain(`Sampled: ${rows.length} of 40 versions`);
  });

  it('anonymous, over 100 versions: the count and the sum sampled within 20 requests, the page says how many of how many', async () => {
    const { repo, versions } = await section(110);
    for (const [agg, of] of [
      ['count', 'count'],
      ['sum&field=data.stars', 'sum'],
    ] as const) {
      freshAnonymousHour(world.em);
      const page = await openChart(world, `repo=${OWNER}/${repo}&${TYPE}&agg=${agg}`);
      const rows = await tableValues(page);
      const warning = page.locator('.chart-budget');
      expect(await warning.innerText()).toContain('This chart of 100 versions needs about');
      expect(await warning.getByRole('button', { name: 'Read all 100 versions' }).count()).toBe(0);
      expect(world.requests(page), of).toBeLessThanOrEqual(20);
      expect(rows.at(-1)?.version).toBe(versions[109]); // the newest
      expect(rows[0]?.version).toBe(versions[10]); // the oldest of the last 100
      const expected = await seriesByQuery(
        new DocumentStore(store(world.em, repo)),
        rows.map((r) => r.version),
      );
      expect(
        rows.map((r) => r.value),
        of,
      ).toEqual(expected.map((e) => e[of]));
      expect(await page.locator('.chart-summary').innerText()).toContain(`Sampled: ${rows.length} of 100 versions`);
    }
  });

  it('says what a type chart URL lacks', async () => {
    const { repo } = await section(4);
    const page = await openChart(world, `repo=${OWNER}/${repo}&${TYPE}&agg=sum`, { token: true });
    expect(await page.locator('.error').innerText()).toContain('"agg=sum" needs "field"');
    const none = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=github`, { token: true });
    // The frame catches a view without its type before the chart is drawn (src/viewer/state.ts).
    expect(await none.locator('.problems').innerText()).toContain(
      'view=chart needs "type"; showing the overview instead',
    );
  });
});
