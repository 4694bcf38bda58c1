/**
 * Type charts without dead ends (issue 40 items 1 and 3), in Chromium against the emulator: a type chart
 * opened without `field`/`agg` (the overview's "chart" links, the header's "<type> chart") draws the document
 * count at once under a form — field from the type's index, aggregate count, sum, mean, min or max — whose
 * choices go into the URL (back and forward work); and a small type without an index is charted from its
 * documents, as the table reads them, instead of a gap "the type has no index" at every version.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { mirrorSteps, type SeriesStep, seriesByQuery, typeSteps } from '../document/series-section.js';
import { freshRepo, OWNER, store } from '../remote-api/helpers.js';
import { freshAnonymousHour, openChart, tableValues } from './chart-fixtures.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();

/**
 * `n` versions of `count` weather stations (no index): temperatures move each version, the last station comes
 * in the second version, the first goes in the last (the documents at the newest and the oldest version are
 * every document of the type: what the chart follows).
 */
function stationSteps(n: number, count: number): SeriesStep[] {
  const station = (j: number, i: number) => ({
    namespace: 'weather',
    type: 'station',
    id: `s${j}`,
    data: { temperature_c: i * 10 + j, name: `Station ${j}`, ...(j === 0 ? { temperature_c: 'n/a' } : {}) },
  });
  return Array.from({ length: n }, (_, i) => async (docs: DocumentStore) => {
    const here = Array.from({ length: count }, (_, j) => j).filter(
      (j) => (j !== count - 1 || i > 0) && (j !== 0 || i < n - 1),
    );
    if (i === n - 1) await docs.delete({ namespace: 'weather', doc_type: 'station', id: 's0' });
    await docs.putMany(here.map((j) => station(j, i)));
  });
}

/** What the library's query (the table's read) says at each version: the count and the numbers' mean, min and max. */
async function stationsByQuery(repo: string, versions: readonly string[]) {
  const docs = new DocumentStore(store(world.em, repo));
  const out = [];
  for (const version of versions) {
    const r = await docs.query({ namespace: 'weather', type: 'station', version });
    const numbers = (r.documents ?? [])
      .map((d) => (d.data as { temperature_c: unknown }).temperature_c)
      .filter((v): v is number => typeof v === 'number');
    out.push({
      count: r.documents?.length ?? 0,
      mean: numbers.reduce((a, b) => a + b, 0) / numbers.length,
      max: Math.max(...numbers),
    });
  }
  return out;
}

async function pick(page: Page, agg: string, field: string): Promise<void> {
  await page.selectOption('#chart-agg', agg);
  await page.selectOption('#chart-field', field);
  await page.getByRole('button', { name: 'Draw' }).click();
  await page.waitForFunction((a) => new URLSearchParams(location.search).get('agg') === a, agg);
  await settled(page);
}

describe('type charts without dead ends', () => {
  it('opened without field or agg: the count at once, a form whose choices are history entries', async () => {
    const repo = freshRepo(world.em);
    const versions = await mirrorSteps(world.em, `${OWNER}/${repo}`, typeSteps(12));
    const expected = await seriesByQuery(new DocumentStore(store(world.em, repo)), versions);
    const page = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=github&type=repo`, { token: true });
    expect((await tableValues(page)).map((r) => r.value)).toEqual(expected.map((e) => e.count));
    expect(await page.locator('h1').innerText()).toBe('Documents of github/repo over time');
    expect(await page.$$eval('#chart-agg option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      'count',
      'sum',
      'mean',
      'min',
      'max',
    ]);
    // The index's fields (id is not a number to chart).
    expect(await page.$$eval('#chart-field option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      '',
      'data.stars',
      'data.language',
    ]);

    await pick(page, 'max', 'data.stars');
    expect(new URL(page.url()).searchParams.get('field')).toBe('data.stars');
    expect((await tableValues(page)).map((r) => r.value)).toEqual(expected.map((e) => e.max));
    expect(await page.locator('h1').innerText()).toBe('Maximum of data.stars of github/repo over time');
    expect(await page.locator('#chart-agg').inputValue()).toBe('max');
    await pick(page, 'min', 'data.stars');
    expect((await tableValues(page)).map((r) => r.value)).toEqual(expected.map((e) => e.min));

    await page.goBack();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('agg') === 'max');
    await settled(page);
    expect((await tableValues(page)).map((r) => r.value)).toEqual(expected.map((e) => e.max));
    await page.goBack();
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('agg'));
    await settled(page);
    expect((await tableValues(page)).map((r) => r.value)).toEqual(expected.map((e) => e.count));
    await page.goForward();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('agg') === 'max');
    await settled(page);
    expect(await page.locator('#chart-field').inputValue()).toBe('data.stars');
  });

  it('an aggregate without a field is said under the form, which offers the fields; the form refuses it too', async () => {
    const repo = freshRepo(world.em);
    await mirrorSteps(world.em, `${OWNER}/${repo}`, typeSteps(4));
    const page = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=github&type=repo&agg=sum`, {
      token: true,
    });
    expect(await page.locator('.chart-view .error').innerText()).toContain('"agg=sum" needs "field"');
    expect(await page.locator('#chart-field option').count()).toBe(3);
    await page.selectOption('#chart-agg', 'mean');
    await page.getByRole('button', { name: 'Draw' }).click();
    expect(await page.locator('.chart-form .form-problem').innerText()).toBe('The mean needs a field: pick one.');
    expect(new URL(page.url()).searchParams.get('agg')).toBe('sum');
  });

  it('a small type without an index, with a token: read from its documents, equal to the table’s read', async () => {
    const repo = freshRepo(world.em);
    const versions = await mirrorSteps(world.em, `${OWNER}/${repo}`, stationSteps(6, 12));
    const expected = await stationsByQuery(repo, versions);
    const count = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=weather&type=station`, {
      token: true,
    });
    const rows = await tableValues(count);
    expect(rows.map((r) => r.value)).toEqual(expected.map((e) => e.count));
    expect(rows.map((r) => r.note)).not.toContain('the type has no index at this version');
    expect(await count.locator('.chart-note').innerText()).toContain('No index: read from the 12 documents');
    // ref, commits, declaration, the two listings (newest, oldest), then `versionsOf` for each document (at
    // most two GraphQL queries each: 23 measured) — not a request per document and version (72).
    expect(world.requests(count)).toBeLessThanOrEqual(5 + 2 * 12);
    // The form's fields come from the documents read, as the table picks its columns.
    expect(await count.$$eval('#chart-field option', (o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      '',
      'data.name',
      'data.temperature_c',
    ]);
    await pick(count, 'mean', 'data.temperature_c');
    expect((await tableValues(count)).map((r) => r.value)).toEqual(expected.map((e) => e.mean));
    await pick(count, 'max', 'data.temperature_c');
    expect((await tableValues(count)).map((r) => r.value)).toEqual(expected.map((e) => e.max));
  });

  it('a small type without an index, anonymous: all its versions when they fit in 20 requests', async () => {
    const repo = freshRepo(world.em);
    const versions = await mirrorSteps(world.em, `${OWNER}/${repo}`, stationSteps(4, 3));
    const expected = await stationsByQuery(repo, versions);
    freshAnonymousHour(world.em);
    const page = await openChart(
      world,
      `repo=${OWNER}/${repo}&view=chart&ns=weather&type=station&agg=max&field=data.temperature_c`,
    );
    expect((await tableValues(page)).map((r) => r.value)).toEqual(expected.map((e) => e.max));
    expect(world.requests(page)).toBeLessThanOrEqual(20);
  });

  it('a small type without an index, anonymous, past what a sample can read: says the cost and asks', async () => {
    const repo = freshRepo(world.em);
    await mirrorSteps(world.em, `${OWNER}/${repo}`, stationSteps(5, 12));
    freshAnonymousHour(world.em);
    const page = await openChart(world, `repo=${OWNER}/${repo}&view=chart&ns=weather&type=station`);
    const warning = page.locator('.chart-budget');
    await warning.waitFor();
    const spent = world.requests(page);
    expect(await warning.locator('.budget-warning p').innerText()).toBe(
      `This chart of 5 versions needs about 60 requests and ${60 - spent} are left in this hour (GitHub allows 60 an hour without a token; a token gives 5,000).`,
    );
    expect(await warning.innerText()).toContain('no sample fits in 20 requests');
    expect(await warning.getByRole('button', { name: 'Sample the versions' }).count()).toBe(0);
    expect(await warning.getByRole('button', { name: 'Add a token' }).count()).toBe(1);
    expect(await page.locator('[data-chart]').count()).toBe(0);
    expect(world.requests(page)).toBe(spent);
  });
});
