/**
 * The section diff grouped by type (issue 40 item 11) in Chromium: one collapsible group per type with its
 * counts in the heading, the first groups open and the rest collapsed (53 modified documents are not one
 * 5,744 px page), a collapsed group reads nothing until opened, and a filter by key narrows the groups.
 */
import { describe, expect, it } from 'vitest';
import { groupByType, groupCounts, OPEN_DOCUMENTS, openAtStart } from '../../src/viewer/section-diff/groups.js';
import { OWNER } from '../remote-api/helpers.js';
import { type SeedDoc, seeder } from './document-fixtures.js';
import { viewerWorld } from './viewer-page.js';

// The anonymous hour is not what these tests are about (section-diff.test.ts covers the budget).
const world = viewerWorld({ unauthenticatedRateLimit: 100_000 });

const TYPES = ['t0', 't1', 't2', 't3', 't4', 't5'];
const doc = (type: string, i: number, data: unknown): SeedDoc => ({ namespace: 'app', type, id: `k${i}`, data });

/** Fields above the ones that change: no patch shows a whole document, so each field diff costs a read. */
const about = { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 };

/** 6 types of 9 documents, then one commit modifying 53 of them (all but t5/k8). */
function fiftyThreeModified() {
  const s = seeder(world.em);
  const all = TYPES.flatMap((t) => Array.from({ length: 9 }, (_, i) => ({ t, i })));
  const from = s.commit(all.map(({ t, i }) => doc(t, i, { about, n: i, owner: { login: 'ann' }, tags: ['x'] })));
  const changed = all.filter(({ t, i }) => !(t === 't5' && i === 8));
  const to = s.commit(
    changed.map(({ t, i }) => doc(t, i, { about, n: i + 1, owner: { login: 'bob' }, tags: ['x', 'y'] })),
  );
  return { url: `repo=${OWNER}/${s.repo}&view=diff&from=${from}&to=${to}` };
}

const pageHeight = (page: import('playwright-core').Page) => page.evaluate(() => document.documentElement.scrollHeight);

describe('section diff groups (units)', () => {
  const d = (ns: string, type: string, id: string) => ({
    namespace: ns,
    doc_type: type,
    id,
    key: `${ns}/${type}/${id}.json`,
  });
  it('groups by namespace/type sorted, filters by key case-insensitively, counts in the heading', () => {
    const c = {
      added: [d('b', 'x', '1')],
      modified: [d('a', 'y', 'Foo'), d('b', 'x', '2')],
      removed: [d('a', 'y', 'bar')],
    } as never;
    const groups = groupByType(c);
    expect(groups.map((g) => g.name)).toEqual(['a/y', 'b/x']);
    expect(groups.map(groupCounts)).toEqual(['2 changed: 1 modified, 1 removed', '2 changed: 1 added, 1 modified']);
    expect(groupByType(c, ' FOO ').map((g) => [g.name, g.modified.map((m) => m.id)])).toEqual([['a/y', ['Foo']]]);
    expect(groupByType(c, 'nothing')).toEqual([]);
  });
  it('opens the first group whatever its size, then groups while the open ones hold at most OPEN_DOCUMENTS', () => {
    const g = (n: number) => ({ name: '', added: Array(n).fill(null), modified: [], removed: [] });
    expect(openAtStart([g(OPEN_DOCUMENTS + 5), g(1)])).toEqual([true, false]);
    expect(openAtStart([g(4), g(5), g(2), g(1)])).toEqual([true, true, false, false]);
  });
});

describe('section diff groups (Chromium)', () => {
  it('53 modified documents in 6 types: counts in the headings, the first group open, the page a fraction as long', async () => {
    const { url } = fiftyThreeModified();
    const page = await world.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await world.open(url, page);
    const headings = await page.locator('.diff-group > summary h2').allInnerTexts();
    expect(headings).toEqual([
      ...TYPES.slice(0, 5).map((t) => `app/${t} 9 changed: 9 modified`),
      'app/t5 8 changed: 8 modified',
    ]);
    const open = await page
      .locator('details.diff-group')
      .evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open));
    expect(open).toEqual([true, false, false, false, false, false]);
    expect(await page.locator('.modified-doc .field-diff').count()).toBe(9);
    const collapsed = await pageHeight(page);
    // Open every group: all 53 field diffs drawn, the page as long as the ungrouped one was.
    for (const t of TYPES.slice(1)) await page.locator(`details[data-type="app/${t}"] > summary`).click();
    await page.waitForFunction(() => document.querySelectorAll('.modified-doc .field-diff').length === 53);
    const expanded = await pageHeight(page);
    expect(collapsed, `collapsed ${collapsed} px, all open ${expanded} px`).toBeLessThan(expanded / 2);
    // Measured 1280×800: 2,039 px collapsed, 8,033 open (the ungrouped page of issue 40: 5,744 for 53).
    expect(collapsed).toBeLessThan(2_500);
  });

  it('a collapsed group reads nothing until opened; the filter narrows the groups and re-reads nothing', async () => {
    const { url } = fiftyThreeModified();
    const page = await world.open(url);
    const before = world.requests(page);
    await page.locator('details.diff-group[data-type="app/t4"] > summary').click();
    await page.waitForFunction(
      () => document.querySelectorAll('details[data-type="app/t4"] .modified-doc .field-diff').length === 9,
    );
    expect(world.requests(page) - before, 'opening a group reads its page of field diffs').toBeGreaterThan(0);
    const opened = world.requests(page);
    await page.fill('#diff-filter', 'T4');
    expect(await page.locator('details.diff-group').count(), 'typing alone redraws nothing').toBe(6);
    await page.fill('#diff-filter', 'T4/K3');
    await page.locator('#diff-filter').press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('details.diff-group').length === 1);
    expect(await page.locator('.diff-group > summary h2').allInnerTexts()).toEqual(['app/t4 1 changed: 1 modified']);
    expect(await page.locator('.filter-count').innerText()).toBe('1 documents in 1 types match "T4/K3".');
    await page.waitForSelector('details[data-type="app/t4"][open] .modified-doc .field-diff');
    expect(
      await page.locator('.modified-doc').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key)),
    ).toEqual(['app/t4/k3.json']);
    expect(world.requests(page), 'the filter redraws from what was read').toBe(opened);
    await page.fill('#diff-filter', '');
    await page.locator('#diff-filter').press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('details.diff-group').length === 6);
  });
});
