/**
 * Accessibility and narrow screens (issue 40 items 12, 15): on every view of the demo section, at 1280 and
 * 375 px and in light and dark, axe-core (run inside the page in Chromium) finds no serious or critical
 * violation, and at 375 px no view scrolls the page sideways (`scrollWidth` ≤ 375).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DemoView, demoViews } from '../../scripts/demo-views.js';
import { seedDemoSection } from '../../src/cli/demo-section.js';
import { DEMO_SEED } from '../../src/emulator/index.js';
import { axeFindings } from './axe.js';
import { viewerWorld } from './viewer-page.js';

// The demo world of `docdb view --demo`; the anonymous hour is not what these tests are about.
const world = viewerWorld({ seed: DEMO_SEED, unauthenticatedRateLimit: 100_000 });
let views: DemoView[];

beforeAll(async () => {
  await seedDemoSection(world.em.state);
  views = await demoViews(world.em);
}, 120_000);

/**
 * Dates in another format than the viewer's one (`2026-11-28 02:07 CET` — local, naming its zone — or the day
 * alone on a chart's axis): a time without its zone, a locale's `11/28/2026` or `1:07:42 AM`.
 */
function otherDateFormats(text: string): string[] {
  const patterns = [
    /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?!\d| (?:[A-Z]{2,5}|(?:GMT|UTC)[+-]\d{1,2}(?::\d{2})?)\b)\S*/g,
    /\b\d{1,2}[/.]\d{1,2}[/.]\d{4}\b/g,
    /\b\d{1,2}:\d{2}(:\d{2})? ?[AP]M\b/g,
  ];
  return patterns.flatMap((re) => text.match(re) ?? []);
}

/**
 * A chart's text that reaches outside its SVG's viewBox (drawn cut off), e.g. a wide y tick "130,000".
 * Measured in a monospace font, wider than any system font's digits: this machine's narrow sans-serif
 * fits "130,000" where a visitor's font did not.
 */
function clippedChartText(page: Page): Promise<string[]> {
  return page.$$eval('svg.line-chart', (svgs) =>
    svgs.flatMap((svg) => {
      const box = (svg as SVGSVGElement).viewBox.baseVal;
      return [...svg.querySelectorAll('text')]
        .filter((t) => {
          t.style.fontFamily = 'monospace';
          const b = t.getBBox();
          return b.x < box.x || b.x + b.width > box.x + box.width || b.y < box.y || b.y + b.height > box.y + box.height;
        })
        .map((t) => t.textContent ?? '');
    }),
  );
}

/** Open every view at one width and colour scheme; what axe finds and how wide each page is. */
async function walk(width: number, colorScheme: 'light' | 'dark') {
  const problems: string[] = [];
  const widths: Record<string, number> = {};
  for (const view of views) {
    const page = await world.newPage();
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme });
    await world.open(view.query, page);
    expect(await page.getAttribute('body', 'data-state'), `${view.name} settles ready`).toBe('ready');
    for (const finding of await axeFindings(page)) problems.push(`${view.name}: ${finding}`);
    widths[view.name] = await page.evaluate(() => document.documentElement.scrollWidth);
    for (const date of otherDateFormats(await page.locator('body').innerText()))
      problems.push(`${view.name}: a date not in the one format: ${date}`);
    for (const label of await clippedChartText(page)) problems.push(`${view.name}: chart text clipped: ${label}`);
    await page.close();
  }
  return { problems, widths };
}

describe('every view is accessible and fits a phone', () => {
  it('at 375 px (light): no serious or critical axe violation; no view scrolls sideways', async () => {
    const { problems, widths } = await walk(375, 'light');
    expect(Object.keys(widths)).toHaveLength(9);
    // One assertion, so a run shows every problem at once.
    const wide = Object.entries(widths).filter(([, w]) => w > 375);
    expect({ problems, wide }).toEqual({ problems: [], wide: [] });
  }, 240_000);

  it('at 1280 px, light and dark: no serious or critical axe violation', async () => {
    const light = await walk(1280, 'light');
    const dark = await walk(1280, 'dark');
    expect([...light.problems, ...dark.problems.map((p) => `dark ${p}`)]).toEqual([]);
  }, 240_000);

  it('at 375 × 640: one-line footer, focused rows stay above it, the version picker opens over the page', async () => {
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 640 });
    await world.open(views.find((v) => v.name === 'table')?.query as string, page);
    const box = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    // One line of 12 px text in its 2.75 rem bar (three lines before: status, limit, reset, requests).
    expect((await box('footer.bottom')).height).toBeLessThanOrEqual(48);

    // The column the rows are sorted by (data.stars, the third) is in the table's box.
    const [scroller, sorted] = [await box('.vt-scroll'), await box('[aria-sort="descending"]')];
    expect(sorted.left).toBeGreaterThanOrEqual(scroller.left);
    expect(sorted.right).toBeLessThanOrEqual(scroller.right);

    await page.locator('.vt-body .vt-row').first().focus();
    const hidden: number[] = [];
    for (let i = 1; i <= 20; i++) {
      await page.keyboard.press('ArrowDown');
      const { row, footer, index } = await page.evaluate(() => ({
        row: (document.activeElement as HTMLElement).getBoundingClientRect().bottom,
        footer: (document.querySelector('footer.bottom') as HTMLElement).getBoundingClientRect().top,
        index: Number((document.activeElement as HTMLElement).getAttribute('aria-rowindex')),
      }));
      expect(index).toBe(i + 2);
      if (row > footer) hidden.push(i);
    }
    expect(hidden).toEqual([]);

    const header = (await box('header.top')).height;
    await page.getByText('Pick a version').click();
    await page.waitForSelector('.picker-list a');
    const list = await box('.picker-list');
    expect((await box('header.top')).height).toBe(header);
    expect(list.bottom).toBeGreaterThan((await box('header.top')).bottom);
    // Over the page: what is drawn at the list's middle is the list, not the view under it.
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x as number, y as number)?.closest('.picker-list') !== null,
      [list.left + list.width / 2, list.top + list.height / 2],
    );
    expect(onTop).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The overview shows every column of its types table without scrolling it.
    await world.open(views.find((v) => v.name === 'overview')?.query as string, page);
    const types = await page.locator('table.types').evaluate((t) => ({
      table: t.getBoundingClientRect().right,
      box: (t.closest('.table-scroll') as HTMLElement).getBoundingClientRect().right,
    }));
    expect(types.table).toBeLessThanOrEqual(types.box);
  }, 120_000);
});
