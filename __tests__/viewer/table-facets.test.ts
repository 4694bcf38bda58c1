/**
 * Issue 40 items 7 and 8 in Chromium against the emulator (the anonymous limit on: 60 requests an hour):
 * facets over the whole type from the value counts the index keeps — one request per field anonymously, one
 * GraphQL request with a token, asserted at 5,000 documents where each run has several parts — and from one
 * read of one run for an index written before counts, a facet click filtering the table through the URL, the type's total and the
 * matching count, sort and filter by `id` on an index that does not declare it, and End landing on the
 * type's last row rather than the last row loaded.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import type { DocumentQuery } from '../../src/document/query.js';
import { freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { seedType } from './table-seed.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const LANGS = ['TypeScript', 'Go', 'Rust', 'C'];
const FIELDS = ['data.stars', 'data.language', 'data.topics'];
const N = 5_000;
const id = (i: number) => `octo/r${String(i).padStart(5, '0')}`;
/** Languages in unequal shares (TypeScript 4/10, Go 3/10, Rust 2/10, C 1/10), so the order is checkable. */
const lang = (i: number) => LANGS[[0, 0, 0, 0, 1, 1, 1, 2, 2, 3][i % 10] as number];
const data = (i: number) => ({
  stars: (i * 37) % 1000,
  language: lang(i),
  ...(i % 5 === 0 ? {} : { topics: i % 2 ? ['cli', 'web'] : ['cli'] }),
});

function seeded(n = N, withoutCounts = false): { repo: string; parts: number } {
  const repo = freshRepo(world.em);
  const files = seedType(world.em, repo, { n, id, data, fields: FIELDS, withoutCounts });
  const manifest = JSON.parse(new TextDecoder().decode(files['_docdb/index/github/repo/manifest.json']));
  return { repo, parts: manifest.runs[0].parts.length };
}

const table = (repo: string, extra = '') => `repo=${OWNER}/${repo}&view=table&ns=github&type=repo${extra}`;
const search = (page: Page) => new URL(page.url()).searchParams;
const api = (from: number) => world.em.requests.slice(from).filter((r) => r.method !== 'OPTIONS');

async function libraryRows(repo: string, q: Omit<DocumentQuery, 'namespace' | 'type'>) {
  const docs = new DocumentStore(store(world.em, repo));
  const r = await docs.query({ namespace: 'github', type: 'repo', ...q });
  return r.rows;
}

/** The facet list of one field as the page shows it: [label, count] pairs. */
const facetOf = (page: Page, field: string) =>
  page
    .getByRole('list', { name: `Counts of ${field}` })
    .locator('li')
    .evaluateAll((lis) =>
      lis.map((li) => [
        li.querySelector('a')?.textContent ?? '',
        li.querySelector('.vt-facet-count')?.textContent?.trim(),
      ]),
    );

describe('facets, totals, id and End (issue 40 items 7 and 8)', () => {
  it('with a token: facets of every field over the whole type from the counts, in one request', async () => {
    const { repo, parts } = seeded();
    // Several parts per run: a read per part would cost more than one request per field.
    expect(parts).toBeGreaterThan(FIELDS.length);
    const page = await world.newPage();
    await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
    const from = world.em.requests.length;
    await world.open(table(repo), page);
    await page.waitForSelector('.vt-facet');
    const sent = api(from);
    expect(sent.every((r) => r.authenticated)).toBe(true);
    // The table's own first screen alone (ref, declaration, manifest, first part: 4) plus the facets: every
    // field's counts in one GraphQL request.
    const facetRequests = sent.slice(4);
    expect(
      facetRequests.map((r) => `${r.method} ${r.path}`),
      sent.map((r) => `${r.method} ${r.path}`).join('\n'),
    ).toEqual(['POST /graphql']);
    // Counted over the whole type, not the rows loaded (200).
    expect(await facetOf(page, 'data.language')).toEqual([
      ['TypeScript', '2,000'],
      ['Go', '1,500'],
      ['Rust', '1,000'],
      ['C', '500'],
    ]);
    // An array counts once per distinct element; an absent field is a value of its own.
    expect(await facetOf(page, 'data.topics')).toEqual([
      ['cli (element)', '4,000'],
      ['web (element)', '2,000'],
      ['(absent)', '1,000'],
    ]);
    expect(await page.locator('.vt-facet h3').first().innerText()).toBe('data.stars (top 10 of 1000 values)');
    expect(await page.locator('.vt-count').innerText()).toBe(
      '5,000 rows in the type, all match; 200 rows loaded, more as you scroll.',
    );
  });

  it('anonymous: facets on demand (their cost said), a click filters through the URL, counts match', async () => {
    const { repo, parts } = seeded();
    const page = await world.newPage();
    const from = world.em.requests.length;
    await world.open(table(repo), page);
    await page.waitForSelector('.vt-body .vt-row');
    // ref, declaration, manifest, the first part: no facet read yet (nor the search declaration: read when the
    // box is used)
    expect(api(from).length).toBe(4);
    const button = page.getByRole('button', { name: /^Count values \(about \d+ requests\)$/ });
    expect(await button.innerText()).toBe(`Count values (about ${FIELDS.length} requests)`);
    const before = world.em.requests.length;
    await button.click();
    await page.waitForSelector('.vt-facet');
    // One request per field: its counts file (the manifest is the table's, cached), whatever the run's parts.
    const facetReads = api(before);
    expect(facetReads.every((r) => !r.authenticated)).toBe(true);
    expect(facetReads.map((r) => decodeURIComponent(r.path).replace(/^.*\/contents\//, '')).sort()).toEqual(
      FIELDS.map((f) => `_docdb/index/github/repo/${f}/counts.json`).sort(),
    );
    // Reading the run instead would have cost at least as much here (its parts not read yet; the index's format 2
    // packs 5,000 rows in 4 parts) — and ~95 requests at 100,000 documents (table-scale.test.ts: 2).
    expect(parts - 1).toBeGreaterThanOrEqual(FIELDS.length);
    const go = page.getByRole('link', { name: 'Go', exact: true });
    await go.click();
    await page.waitForURL(/where=/);
    await settled(page);
    expect(search(page).getAll('where')).toEqual(['data.language=Go']);
    await page.waitForSelector('.vt-facet'); // the counts are kept: drawn again without a request
    expect(await page.getByRole('link', { name: 'Go', exact: true }).getAttribute('aria-current')).toBe('true');
    const expected = await libraryRows(repo, {
      where: [{ field: 'data.language', op: '=', value: 'Go' }],
      orderBy: { field: 'data.stars' },
      fields: ['data.language'],
    });
    expect(expected).toHaveLength(1500);
    const first = await page.$$eval('.vt-body .vt-row', (rows) => rows.map((r) => (r as HTMLElement).dataset.id));
    expect(first.slice(0, 5)).toEqual(expected.slice(0, 5).map((r) => r.id));
    expect(await page.locator('.vt-count').innerText()).toBe(
      '5,000 rows in the type, at least 200 match the filters ("Load all rows" counts them); 200 rows loaded, more as you scroll.',
    );
    await page.getByRole('button', { name: 'Load all rows' }).click();
    await page.waitForSelector('.vt-scroll[data-done="true"]');
    expect(await page.locator('.vt-count').innerText()).toBe(
      '5,000 rows in the type, 1,500 match the filters; all 1,500 rows loaded.',
    );
    await page.goBack();
    await settled(page);
    expect(search(page).getAll('where')).toEqual([]);
  });

  it('anonymous, an index written before value counts: the same counts from one read of the run', async () => {
    const { repo, parts } = seeded(N, true);
    const page = await world.newPage();
    await world.open(table(repo), page);
    await page.waitForSelector('.vt-body .vt-row');
    const before = world.em.requests.length;
    await page.getByRole('button', { name: /^Count values/ }).click();
    await page.waitForSelector('.vt-facet');
    const sent = api(before).map((r) => decodeURIComponent(r.path).replace(/^.*\/contents\//, ''));
    // Each field's counts asked for (absent: 404), then the run's parts not read yet, each once.
    expect(sent.filter((p) => p.endsWith('/counts.json'))).toHaveLength(FIELDS.length);
    expect(sent.filter((p) => p.endsWith('.jsonl'))).toHaveLength(parts - 1);
    expect(await facetOf(page, 'data.language')).toEqual([
      ['TypeScript', '2,000'],
      ['Go', '1,500'],
      ['Rust', '1,000'],
      ['C', '500'],
    ]);
  });

  it('sorts and filters by id on an index that does not declare it', async () => {
    const { repo } = seeded(300);
    const page = await world.newPage();
    await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
    await world.open(table(repo), page);
    await page.getByRole('button', { name: 'Sort by id' }).click();
    await settled(page);
    expect(search(page).get('sort')).toBe('id');
    await page.getByRole('button', { name: 'Sort by id' }).click();
    await settled(page);
    expect(search(page).get('sort')).toBe('-id');
    const ids = () =>
      page.$$eval('.vt-body .vt-row', (rows) =>
        rows
          .map((r) => ({ i: Number((r as HTMLElement).dataset.index), id: (r as HTMLElement).dataset.id }))
          .sort((a, b) => a.i - b.i)
          .map((r) => r.id),
      );
    expect((await ids()).slice(0, 3)).toEqual([id(299), id(298), id(297)]);
    await page.getByLabel('Column', { exact: true }).selectOption('id');
    await page.getByLabel('Condition').selectOption('<');
    await page.getByLabel('Value').fill('octo/r00003');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.waitForURL(/where=/);
    await settled(page);
    expect(search(page).getAll('where')).toEqual(['id<octo/r00003']);
    expect((await page.locator('.view .error').allInnerTexts()).filter((t) => t !== '')).toEqual([]);
    expect(await ids()).toEqual([id(2), id(1), id(0)]);
  });

  it('End goes to the last row of the type, loading the rest in one query within the rate limit', async () => {
    const { repo, parts } = seeded();
    const page = await world.newPage();
    await world.open(table(repo), page);
    await page.locator('.vt-body .vt-row').first().focus();
    const before = world.em.requests.length;
    await page.keyboard.press('End');
    await page.waitForSelector('.vt-scroll[data-done="true"]');
    await page.waitForFunction((n) => (document.activeElement as HTMLElement)?.dataset?.index === String(n - 1), N);
    const sent = api(before); // before the library's own reads below
    const rows = await libraryRows(repo, { orderBy: { field: 'data.stars' }, fields: ['data.stars'] });
    const last = rows.at(-1)?.id;
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.id)).toBe(last);
    // The parts not read yet, each once, anonymously (the page's budget allowed them).
    expect(sent.every((r) => !r.authenticated)).toBe(true);
    expect(sent.length).toBeLessThanOrEqual(parts - 1);
  });

  // Last in the file: it spends the emulator's anonymous hour (shared by every anonymous page here).
  it('End when the hour would not cover the rest: says so, and the reversed order shows the last rows', async () => {
    const { repo } = seeded();
    // Leave 7 anonymous requests: the table's first screen takes 4, End would need 5 (4,800 rows to go),
    // the reversed order's first screen takes up to 3 (the last part may hold fewer than 200 rows).
    const left = async () =>
      ((await (await fetch(`${world.em.url}/rate_limit`)).json()) as { resources: { core: { remaining: number } } })
        .resources.core.remaining;
    for (let n = (await left()) - 7; n > 0; n--)
      await fetch(`${world.em.url}/repos/${OWNER}/${repo}/git/ref/docdb/documents`);
    expect(await left()).toBe(7);
    const page = await world.open(table(repo));
    await page.locator('.vt-body .vt-row').first().focus();
    const before = world.em.requests.length;
    await page.keyboard.press('End');
    const warning = page.locator('.vt-notice [role="alert"]');
    await warning.waitFor();
    expect(await warning.innerText()).toMatch(/Loading the rows not loaded yet needs about 5 requests and 3 are left/);
    expect(api(before)).toEqual([]); // nothing spent on a read that could not finish
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.index)).toBe('199');
    await page.getByRole('button', { name: 'Show the last rows first' }).click();
    await page.waitForURL(/sort=-data.stars/);
    await settled(page);
    const rows = await libraryRows(repo, { orderBy: { field: 'data.stars' }, fields: ['data.stars'] });
    expect(await page.locator('.vt-row[data-index="0"]').getAttribute('data-id')).toBe(rows.at(-1)?.id);
  });
});
