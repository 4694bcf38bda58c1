/**
 * Data files on a branch (issue 40 item 9) in Chromium: `view=file` without `path` lists the ref's
 * `.json`, `.jsonl` and `.csv` files with their sizes from ONE tree listing (said when GitHub cuts it); a
 * JSON array of objects is a table; file tables sort, filter (URL state, the library's query semantics)
 * and download CSV/JSON of the rows that match, with the formula guard — none of it a request once the
 * file is read. Hostile headers and cells stay text.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { settled, viewerWorld } from './viewer-page.js';

// A tree listing is cut past 40 entries here (GitHub: 100,000), so one repository shows the cut.
const world = viewerWorld({ treeTruncateLimit: 40 });
let repo: string;
let big: string;

const STARS = [
  { name: 'ada', stars: 12, lang: 'Go' },
  { name: 'bob', stars: 3, lang: 'Rust' },
  { name: 'cy', stars: 40, lang: 'Go' },
  { name: 'dee', stars: 7 },
];

beforeAll(() => {
  repo = freshRepo(world.em);
  world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'main',
    files: {
      'data/stars.json': JSON.stringify(STARS),
      'data/config.json': JSON.stringify({ name: 'docdb', nested: { a: 1 } }),
      'nested.json': JSON.stringify([
        { name: 'a', meta: { x: 1 } },
        { name: 'b', meta: [1, 2] },
      ]),
      'data/people.csv': 'name,score,note\r\nann,10,"=HYPERLINK(""http://x"")"\r\nben,9,fine\r\ncid,100,"-2+3"\r\n',
      'logs/events.jsonl': '{"n":1}\n{"n":2}\n',
      'notes.txt': 'not data',
      'data/evil.csv':
        '<img src=x onerror=alert(1)>,__proto__,constructor\r\n<script>alert(1)</script>,polluted,"{""a"":1}"\r\n',
    },
  });
  big = freshRepo(world.em);
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`d/f${String(i).padStart(2, '0')}.csv`] = `n\r\n${i}\r\n`;
  world.em.state.commitFiles(`${OWNER}/${big}`, { branch: 'main', files });
});

beforeEach(() => {
  world.em.state.anonymousBudget.used = 0;
});

const grid = (page: Page) =>
  page.locator('.vt-scroll').evaluate((g) => {
    const text = (row: Element) => Array.from(row.querySelectorAll('.vt-cell'), (c) => c.textContent);
    const rows = Array.from(g.querySelectorAll<HTMLElement>('.vt-body .vt-row')).sort(
      (a, b) => Number(a.dataset.index) - Number(b.dataset.index),
    );
    return rows.map(text);
  });

const openFile = (r: string, path: string) =>
  world.open(`repo=${OWNER}/${r}&ref=refs/heads/main&path=${encodeURIComponent(path)}`);

async function downloaded(page: Page, format: 'csv' | 'json'): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`button[data-format="${format}"]`)]);
  return readFile((await file.path()) as string, 'utf8');
}

describe('data files on a branch', () => {
  it('lists the data files with their sizes from one tree listing, each a link that opens it', async () => {
    const page = await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&view=file`);
    const listed = await page
      .locator('table.file-list tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (c) => c.textContent)));
    const size = (s: string) => `${Buffer.byteLength(s)} B`;
    expect(listed).toEqual([
      ['data/config.json', size(JSON.stringify({ name: 'docdb', nested: { a: 1 } })), ''],
      ['data/evil.csv', expect.stringMatching(/^\d+ B$/), ''],
      ['data/people.csv', expect.stringMatching(/^\d+ B$/), ''],
      ['data/stars.json', size(JSON.stringify(STARS)), ''],
      ['logs/events.jsonl', '16 B', ''],
      ['nested.json', expect.stringMatching(/^\d+ B$/), ''],
    ]);
    expect(await page.locator('.file-list-truncated').count()).toBe(0);
    // The frame's ref read, the commit, ONE recursive tree listing.
    expect(world.requests(page)).toBe(3);
    await page.click('a:text("data/stars.json")');
    await settled(page);
    await page.locator('.vt-scroll').waitFor();
    // Opening a listed file: one request more (the file's contents).
    expect(world.requests(page)).toBe(4);
  });

  it('says so when GitHub cuts the listing, and lists what it got', async () => {
    const page = await world.open(`repo=${OWNER}/${big}&ref=refs/heads/main&view=file`);
    expect(await page.locator('.file-list-truncated').innerText()).toContain(
      'GitHub cut the listing of this tree short',
    );
    const n = await page.locator('table.file-list tbody tr').count();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(60);
    expect(world.requests(page)).toBe(3);
  });

  it('a JSON array of objects is a table that sorts and filters through the URL, for no request', async () => {
    const page = await openFile(repo, 'data/stars.json');
    expect(await grid(page)).toEqual([
      ['ada', '12', 'Go'],
      ['bob', '3', 'Rust'],
      ['cy', '40', 'Go'],
      ['dee', '7', ''],
    ]);
    const opened = world.requests(page);
    await page.click('button[aria-label="Sort by data.stars"]');
    await settled(page);
    await page.click('button[aria-label="Sort by data.stars"]');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-data.stars');
    expect((await grid(page)).map((r) => r[0])).toEqual(['cy', 'ada', 'dee', 'bob']);
    await page.selectOption('#vt-filter-field', 'data.lang');
    await page.selectOption('#vt-filter-op', '=');
    await page.fill('#vt-filter-value', 'Go');
    await page.click('form.vt-filter button[type="submit"]');
    await settled(page);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('where') === 'data.lang=Go');
    expect((await grid(page)).map((r) => r[0])).toEqual(['cy', 'ada']);
    expect(await page.locator('.file-count').innerText()).toBe('4 row(s), 2 match the filters.');
    // Back restores the unfiltered, sorted rows.
    await page.goBack();
    await settled(page);
    expect((await grid(page)).map((r) => r[0])).toEqual(['cy', 'ada', 'dee', 'bob']);
    expect(world.requests(page) - opened).toBe(0);
  });

  it('downloads the rows that match the filters and the text filter, CSV with the formula guard', async () => {
    const page = await world.open(
      `repo=${OWNER}/${repo}&ref=refs/heads/main&path=data/people.csv&where=${encodeURIComponent('data.score>=10')}`,
    );
    // CSV numbers are numbers: 100 ≥ 10 although "100" < "10" as text.
    expect((await grid(page)).map((r) => r[0])).toEqual(['ann', 'cid']);
    expect(await downloaded(page, 'csv')).toBe(
      `name,score,note\r\nann,10,"'=HYPERLINK(""http://x"")"\r\ncid,100,'-2+3\r\n`,
    );
    await page.fill('#vt-q', 'cid');
    await page.press('#vt-q', 'Enter');
    await settled(page);
    expect(new URL(page.url()).searchParams.get('q')).toBe('cid');
    expect((await grid(page)).map((r) => r[0])).toEqual(['cid']);
    expect(await downloaded(page, 'json')).toBe('[\n{"name":"cid","score":100,"note":"-2+3"}\n]\n');
  });

  it('a column holding objects is shown as JSON text but neither sorts nor filters (a query could not compare it)', async () => {
    const page = await world.open(
      `repo=${OWNER}/${repo}&ref=refs/heads/main&path=nested.json&sort=data.meta&where=${encodeURIComponent('data.meta exists')}`,
    );
    expect(await grid(page)).toEqual([
      ['a', '{"x":1}'],
      ['b', '[1,2]'],
    ]);
    expect(await page.locator('#vt-filter-field option').allInnerTexts()).toEqual(['data.name']);
    expect((await page.locator('main .error').allInnerTexts()).filter((t) => t !== '')).toEqual([
      'The filter data.meta exists: data.meta is not a column of this file that filters and sorts (data.name); it is left out.',
      "The sort by data.meta: data.meta is not a column of this file that filters and sorts (data.name); the rows are in the file's order.",
    ]);
  });

  it('keeps hostile headers and cells as text: no markup, no prototype, no dialog', async () => {
    const page = await world.newPage();
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&path=data/evil.csv`, page);
    const head = await page.locator('.vt-head .vt-cell').allInnerTexts();
    expect(head).toEqual(['data.<img src=x onerror=alert(1)>', 'data.__proto__', 'data.constructor']);
    expect(await grid(page)).toEqual([['<script>alert(1)</script>', 'polluted', '{"a":1}']]);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(dialogs).toBe(0);
    // A header a clause cannot name does not sort or filter; the others do.
    expect(await page.locator('#vt-filter-field option').allInnerTexts()).toEqual([
      'data.__proto__',
      'data.constructor',
    ]);
    await page.click('button[aria-label="Sort by data.__proto__"]');
    await settled(page);
    expect(await grid(page)).toEqual([['<script>alert(1)</script>', 'polluted', '{"a":1}']]);
    // "__proto__" is a column like any other: a filter on it finds the row (not the prototype).
    await world.open(
      `repo=${OWNER}/${repo}&ref=refs/heads/main&path=data/evil.csv&where=${encodeURIComponent('data.__proto__=polluted')}`,
      page,
    );
    expect(await grid(page)).toEqual([['<script>alert(1)</script>', 'polluted', '{"a":1}']]);
  });

  it('the list and a file table fit a 375 px screen', async () => {
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 700 });
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&view=file`, page);
    expect(await width()).toBeLessThanOrEqual(375);
    await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&path=data/people.csv`, page);
    await page.locator('.vt-scroll').waitFor();
    expect(await width()).toBeLessThanOrEqual(375);
  });
});
