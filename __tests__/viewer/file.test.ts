/**
 * The file view (issue 29 item 1) in Chromium: data files on a branch — `.json` as a collapsible tree,
 * `.jsonl` and `.csv` (RFC 4180 quoting) as tables, large files capped — and a sentence for a file that
 * is not JSON/JSONL/CSV, that does not parse, or that is not there.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshRepo, OWNER } from '../remote-api/helpers.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
let repo: string;

beforeAll(() => {
  repo = freshRepo(world.em);
  const many = ['n,square', ...Array.from({ length: 1500 }, (_, i) => `${i},${i * i}`)].join('\r\n');
  world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'main',
    files: {
      'data/x.json': JSON.stringify({ name: 'docdb', tags: ['a', 'b'], nested: { deep: { deeper: { n: 1 } } } }),
      'data/x.jsonl': '{"id":1,"name":"ada"}\n{"id":2,"city":"Paris"}\n\n7\n',
      'data/x.csv': 'name,note\r\nada,"likes, commas"\r\nbob,"two\r\nlines and ""quotes"""\r\n',
      'data/many.csv': many,
      'data/notes.txt': 'hello',
      'data/bad.json': '{"open": ',
      'data/bad.csv': 'a,b\r\nx"y,z\r\n',
      'data/evil.json': JSON.stringify({ '<img src=x onerror=alert(1)>': '<script>alert(1)</script>' }),
    },
  });
});

const openFile = (path: string): Promise<Page> =>
  world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&path=${encodeURIComponent(path)}`);

/** The grid as text: the header's column names, then each row drawn (in row order). */
const cells = (page: Page) =>
  page.locator('.vt-scroll').evaluate((grid) => {
    const text = (row: Element) => Array.from(row.querySelectorAll('.vt-cell'), (c) => c.textContent);
    const rows = Array.from(grid.querySelectorAll<HTMLElement>('.vt-body .vt-row')).sort(
      (a, b) => Number(a.dataset.index) - Number(b.dataset.index),
    );
    return [text(grid.querySelector('.vt-head') as Element), ...rows.map(text)];
  });

describe('file view', () => {
  it('draws .json as a tree that opens and closes from the keyboard', async () => {
    const page = await openFile('data/x.json');
    const tree = page.locator('.json-tree');
    expect(await tree.innerText()).toContain('"docdb"');
    // Two levels open at first; the third is drawn when it is opened.
    expect(await tree.getByText('deeper').count()).toBe(0);
    const deep = tree.locator('summary', { hasText: 'deep' }).last();
    await deep.focus();
    await page.keyboard.press('Enter');
    await tree.getByText('deeper').waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await tree.getByText('deeper').waitFor({ state: 'hidden' });
    expect(await tree.getByText('deeper').count()).toBe(1);
  });

  it('draws .jsonl and .csv as tables, quoted commas, line breaks and quotes included', async () => {
    const jsonl = await openFile('data/x.jsonl');
    expect(await cells(jsonl)).toEqual([
      ['data.id', 'data.name', 'data.city', 'data.value'],
      ['1', 'ada', '', ''],
      ['2', '', 'Paris', ''],
      ['', '', '', '7'],
    ]);
    const csv = await openFile('data/x.csv');
    expect(await cells(csv)).toEqual([
      ['data.name', 'data.note'],
      ['ada', 'likes, commas'],
      ['bob', 'two\r\nlines and "quotes"'],
    ]);
  });

  it('caps what it draws of a large file and says so', async () => {
    const page = await openFile('data/many.csv');
    expect(await page.locator('.vt-scroll').getAttribute('aria-rowcount')).toBe('1001');
    expect(await page.locator('.file-count').innerText()).toBe('The first 1,000 rows (the page reads at most 1,000).');
  });

  it('says so for a file that is not JSON/JSONL/CSV, that does not parse, or that is missing', async () => {
    const say = async (path: string) => (await openFile(path)).locator('main .notice').innerText();
    expect(await say('data/notes.txt')).toBe(
      'data/notes.txt is not a JSON, JSONL or CSV file: the file view opens .json, .jsonl (or .ndjson) and .csv files.',
    );
    expect(await say('data/bad.json')).toMatch(/^data\/bad\.json is not valid JSON: /);
    expect(await say('data/bad.csv')).toBe(
      'data/bad.csv is not valid CSV (RFC 4180): line 2: a quote inside an unquoted field (quote the whole field).',
    );
    expect(await say('data/none.json')).toMatch(
      /^There is no file data\/none\.json on refs\/heads\/main at [0-9a-f]{7}\.$/,
    );
  });

  it('shows markup in a file as text, never as HTML, and fits 375 px', async () => {
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 700 });
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await world.open(`repo=${OWNER}/${repo}&ref=refs/heads/main&path=data/evil.json`, page);
    expect(await page.locator('.json-tree').innerText()).toContain('<script>alert(1)</script>');
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(dialogs).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
