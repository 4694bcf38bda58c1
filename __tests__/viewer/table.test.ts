/**
 * The table per type in Chromium against the emulator (issue 29 item 3): the first screen of an indexed
 * 10,000-document type within its request budget, sort and filters in the URL with back/forward, the text
 * filter, keyboard use, 375 px, downloads equal to the library's query, a type without an index, and bad
 * input said in the page.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import type { DocumentQuery } from '../../src/document/query.js';
import { freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { seedType } from './table-seed.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const LANGS = ['TypeScript', 'Go', 'Rust'];
const FIELDS = ['data.stars', 'data.language', 'data.name'];
const id = (i: number) => `octo/r${String(i).padStart(5, '0')}`;
/** Every 7th name is a formula a spreadsheet would run, with a comma and quotes RFC 4180 must quote. */
const name = (i: number) => (i % 7 === 0 ? `=HYPERLINK("http://x",${i})` : `repo ${i}`);
const data = (i: number) => ({ stars: (i * 37) % 1000, language: LANGS[i % 3], name: name(i) });

function seeded(n: number, fields: string[] | undefined = FIELDS): string {
  const repo = freshRepo(world.em);
  seedType(world.em, repo, { n, id, data, ...(fields ? { fields } : {}) });
  return repo;
}

/** A page whose viewer reads with the token (kept for the tab, as a visitor may ask). */
async function withToken(): Promise<Page> {
  const page = await world.newPage();
  await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
  return page;
}

const table = (repo: string, extra = '') => `repo=${OWNER}/${repo}&view=table&ns=github&type=repo${extra}`;
const rowIds = (page: Page) =>
  page.$$eval('.vt-body .vt-row', (rows) =>
    rows
      .map((r) => ({ i: Number((r as HTMLElement).dataset.index), id: (r as HTMLElement).dataset.id }))
      .sort((a, b) => a.i - b.i)
      .map((r) => r.id),
  );
const search = (page: Page) => new URL(page.url()).searchParams;

/** Every row of a query, through the library in Node (the oracle the page is compared with). */
async function libraryRows(repo: string, q: Omit<DocumentQuery, 'namespace' | 'type'>) {
  const docs = new DocumentStore(store(world.em, repo));
  const rows = [];
  let cursor: string | undefined;
  do {
    const r = await docs.query({ namespace: 'github', type: 'repo', ...q, limit: 5000, ...(cursor ? { cursor } : {}) });
    rows.push(...r.rows);
    cursor = r.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

describe('table per type', () => {
  it('first screen of an indexed 10,000-document type, anonymous: ≤ 3 requests after the tip', async () => {
    const repo = seeded(10_000);
    const from = world.em.requests.length;
    const page = await world.open(table(repo));
    await page.waitForSelector('.vt-body .vt-row');
    const api = world.em.requests.slice(from).filter((r) => r.method !== 'OPTIONS');
    expect(api.every((r) => !r.authenticated)).toBe(true);
    // The frame's one ref read (the tip every view pins to) is the overview's share; the table's: the
    // declaration, the manifest and the first part of the sorted run — not the search declaration (docs/viewer.md
    // "Search": read when the box is used).
    const refReads = api.filter((r) => r.path.includes('/git/ref/'));
    expect(refReads).toHaveLength(1);
    expect(api.length - refReads.length, api.map((r) => `${r.method} ${r.path}`).join('\n')).toBeLessThanOrEqual(3);
    expect(api.filter((r) => r.path.endsWith('/contents/_docdb/search.json'))).toHaveLength(0);
    expect(
      await page.evaluate(
        () => (window as never as { docdbViewer: { stats(): { requests: number } } }).docdbViewer.stats().requests,
      ),
    ).toBe(api.length);
    // The rows are the library's first page: the index's first field ascending (then id).
    const expected = (await libraryRows(repo, { orderBy: { field: 'data.stars' }, fields: ['data.stars'] })).slice(
      0,
      5,
    );
    expect((await rowIds(page)).slice(0, 5)).toEqual(expected.map((r) => r.id));
    expect(await page.locator('[role="columnheader"]').allInnerTexts()).toEqual([
      'id',
      'data.stars ▲',
      'data.language',
      'data.name',
    ]);
    expect(await page.locator('.vt-body .vt-row').count()).toBeLessThan(100);
    // Each row links to its document.
    const href = await page.locator('.vt-body .vt-row a').first().getAttribute('href');
    expect(new URLSearchParams(href ?? '').get('view')).toBe('document');
    expect(new URLSearchParams(href ?? '').get('id')).toBe(expected[0]?.id);
  });

  it('sort and filters live in the URL; back and forward restore them', async () => {
    const repo = seeded(300);
    const page = await withToken();
    await world.open(table(repo), page);
    // Without a sort the rows are in the index's first field ascending, and its header says so: one click turns it.
    expect(await page.getByRole('columnheader', { name: 'Sort by data.stars' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    await page.getByRole('button', { name: 'Sort by data.stars' }).click();
    await settled(page);
    expect(search(page).get('sort')).toBe('-data.stars');
    expect(await page.getByRole('columnheader', { name: 'Sort by data.stars' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    const desc = await libraryRows(repo, {
      orderBy: { field: 'data.stars', direction: 'desc' },
      fields: ['data.stars'],
    });
    expect((await rowIds(page)).slice(0, 3)).toEqual(desc.slice(0, 3).map((r) => r.id));
    await page.getByLabel('Column', { exact: true }).selectOption('data.language');
    await page.getByLabel('Condition').selectOption('=');
    await page.getByLabel('Value').fill('Go');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.waitForURL(/where=/);
    await settled(page);
    expect(search(page).getAll('where')).toEqual(['data.language=Go']);
    const go = await libraryRows(repo, {
      where: [{ field: 'data.language', op: '=', value: 'Go' }],
      orderBy: { field: 'data.stars', direction: 'desc' },
      fields: ['data.stars'],
    });
    expect((await rowIds(page)).slice(0, 5)).toEqual(go.slice(0, 5).map((r) => r.id));
    await page.goBack();
    await settled(page);
    expect(search(page).getAll('where')).toEqual([]);
    expect(search(page).get('sort')).toBe('-data.stars');
    expect((await rowIds(page)).slice(0, 3)).toEqual(desc.slice(0, 3).map((r) => r.id));
    await page.goForward();
    await settled(page);
    expect(search(page).getAll('where')).toEqual(['data.language=Go']);
    await page.getByRole('button', { name: 'Remove filter data.language=Go' }).click();
    await page.waitForURL((u) => !u.search.includes('where='));
  });

  it('the text filter searches the rows loaded as you type; Enter puts it in the URL, back removes it', async () => {
    const repo = seeded(300);
    const page = await withToken();
    await world.open(table(repo), page);
    const all = await page.locator('.vt-body .vt-row').count();
    // Its first use asks once whether the type has a search index (it has none here: the box stays a filter).
    await page.getByLabel('Text filter (rows loaded)').focus();
    await page.waitForFunction(() =>
      (document.getElementById('vt-q') as HTMLInputElement | null)?.placeholder.startsWith('No search index'),
    );
    const from = world.em.requests.length;
    await page.getByLabel('Text filter (rows loaded)').pressSequentially('repo 12');
    await page.waitForFunction(() => document.querySelectorAll('.vt-body .vt-row').length < 20);
    // Typing reads nothing: the rows loaded are filtered in place.
    expect(world.em.requests.length).toBe(from);
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=repo/);
    await settled(page);
    expect(search(page).get('q')).toBe('repo 12');
    const ids = await rowIds(page);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((x) => /^octo\/r00(012|12\d)$/.test(x ?? ''))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('vt-q');
    expect(await page.locator('.vt-count').innerText()).toContain('(the text filter searches the rows loaded)');
    await page.goBack();
    await settled(page);
    expect(search(page).get('q')).toBeNull();
    expect(await page.locator('.vt-body .vt-row').count()).toBe(all);
  });

  it('keyboard: arrows and Page Down move the focused row, Enter opens its document', async () => {
    const repo = seeded(300);
    const page = await withToken();
    await world.open(table(repo), page);
    await page.locator('.vt-body .vt-row').first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('PageDown');
    const focusedIndex = () => page.evaluate(() => Number((document.activeElement as HTMLElement).dataset.index));
    await page.keyboard.press('End');
    // End goes to the type's last row, not the last of the 200 loaded (issue 40 item 8): the rest loads
    // and the focus follows (table-facets.test.ts counts what that costs).
    await page.waitForSelector('.vt-scroll[data-done="true"]');
    await page.waitForFunction(() => (document.activeElement as HTMLElement).dataset.index === '299');
    await page.keyboard.press('End');
    expect(await focusedIndex()).toBe(299);
    await page.keyboard.press('Home');
    expect(await focusedIndex()).toBe(0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('PageDown');
    const focused = await page.evaluate(() => (document.activeElement as HTMLElement).dataset.index);
    expect(Number(focused)).toBeGreaterThan(2);
    const rows = await libraryRows(repo, { orderBy: { field: 'data.stars' }, fields: ['data.stars'] });
    await page.keyboard.press('Enter');
    await page.waitForURL(/view=document/);
    expect(search(page).get('id')).toBe(rows[Number(focused)]?.id);
  });

  it('at 375 px the page does not scroll sideways and the controls are reachable', async () => {
    const repo = seeded(300);
    const page = await withToken();
    await page.setViewportSize({ width: 375, height: 700 });
    await world.open(table(repo), page);
    await page.waitForSelector('.vt-body .vt-row');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const control of [
      page.getByLabel('Column', { exact: true }),
      page.getByRole('button', { name: 'Add filter' }),
      page.getByRole('button', { name: 'Download CSV' }),
      page.getByLabel('Text filter (rows loaded)'),
    ]) {
      const box = await control.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    }
  });

  it('downloads the filtered rows as CSV (RFC 4180, formulas inert) and JSON, equal to the library query', async () => {
    const repo = seeded(3_000);
    const page = await withToken();
    await world.open(table(repo, '&sort=-data.stars&where=data.language%3DGo'), page);
    const expected = await libraryRows(repo, {
      where: [{ field: 'data.language', op: '=', value: 'Go' }],
      orderBy: { field: 'data.stars', direction: 'desc' },
      fields: ['data.stars', 'data.language', 'data.name'],
    });
    expect(expected.length).toBe(1000);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('github-repo.csv');
    const field = (v: unknown) => {
      let t = typeof v === 'string' ? v : JSON.stringify(v);
      if (typeof v === 'string' && /^[=+\-@\t\r]/.test(t)) t = `'${t}`;
      return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
    };
    const lines = [
      'id,data.stars,data.language,data.name',
      ...expected.map((r) =>
        [r.id, r.values['data.stars'], r.values['data.language'], r.values['data.name']].map(field).join(','),
      ),
    ];
    const text = await readFile((await csv.path()) as string, 'utf8');
    expect(text).toBe(`${lines.join('\r\n')}\r\n`);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",`);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    const items = JSON.parse(await readFile((await json.path()) as string, 'utf8'));
    expect(items).toEqual(expected.map((r) => ({ id: r.id, ...r.values })));
  });

  it('a type without an index: columns from a sample, said in the page; values are text', async () => {
    const repo = freshRepo(world.em);
    seedType(world.em, repo, {
      n: 30,
      id,
      data: (i) => ({ title: i === 3 ? '<img src=x onerror="window.pwned=1">' : `t${i}`, meta: { n: i } }),
    });
    const page = await withToken();
    await world.open(table(repo), page);
    expect(await page.locator('.vt-note').innerText()).toBe(
      'No index: columns from a sample of 20 documents; sorting and filtering read every document (all 30 read).',
    );
    expect(await page.locator('[role="columnheader"]').allInnerTexts()).toEqual(['id', 'data.meta.n', 'data.title']);
    expect(await page.locator('.vt-body img').count()).toBe(0);
    expect(await page.getByText('<img src=x onerror="window.pwned=1">').count()).toBe(1);
    expect(await page.evaluate(() => (window as never as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('a type without an index too large for an anonymous visit: the first 20 documents, and why', async () => {
    const repo = freshRepo(world.em);
    seedType(world.em, repo, { n: 120, id, data: (i) => ({ stars: i }) });
    const page = await world.open(table(repo));
    const note = await page.locator('.vt-note').innerText();
    expect(note).toContain(
      'No index: columns from a sample of 20 documents; sorting and filtering read every document',
    );
    expect(note).toMatch(
      /Reading all 120 documents of github\/repo needs about 120 requests and \d+ are left in this hour/,
    );
    expect(note).toContain('Showing the first 20 of 120 documents, unsorted and unfiltered.');
    expect(await rowIds(page)).toEqual(Array.from({ length: 20 }, (_, i) => id(i)));
    expect(await page.getByRole('button', { name: /^Sort by/ }).count()).toBe(0);
  });

  it('a filter or sort on a field the index lacks is said and left out (it would read every document)', async () => {
    const repo = seeded(50, ['data.stars']);
    const page = await withToken();
    await world.open(table(repo, '&where=data.name%3Dx&where=data.stars%3E%3D990&sort=-data.language'), page);
    const errors = (await page.locator('.view .error').allInnerTexts()).join('\n');
    expect(errors).toContain('The filter on data.name is not an indexed field of this type (indexed: data.stars)');
    expect(errors).toContain('The sort by data.language is not an indexed field of this type (indexed: data.stars)');
    const expected = (
      await libraryRows(repo, {
        where: [{ field: 'data.stars', op: '>=', value: 990 }],
        orderBy: { field: 'data.stars' },
        fields: ['data.stars'],
      })
    ).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await rowIds(page)).toEqual(expected);
  });

  it('names a malformed filter and sort in the page and opens the rest', async () => {
    const repo = seeded(50);
    const page = await withToken();
    await world.open(table(repo, '&where=data.stars%3C&where=data.language%3DGo&sort=stars'), page);
    const errors = await page.locator('.view .error').allInnerTexts();
    expect(errors.join('\n')).toContain('filter: "data.stars<"');
    expect(errors.join('\n')).toContain('this filter is left out');
    expect(errors.join('\n')).toContain('"sort": "stars" is not a field');
    const ids = await rowIds(page);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((x) => Number(x?.slice(6)) % 3 === 1)).toBe(true);
  });

  it('says so when the URL names no type', async () => {
    const repo = seeded(5);
    const page = await withToken();
    await world.open(`repo=${OWNER}/${repo}&view=table`, page);
    // The frame catches a view without its type before the table is drawn (src/viewer/state.ts).
    expect(await page.locator('.problems').innerText()).toContain(
      'view=table needs "ns" and "type"; showing the overview instead',
    );
  });
});
