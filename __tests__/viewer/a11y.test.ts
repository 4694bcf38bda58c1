/**
 * Accessibility and narrow screens (issue 40 items 12, 15): on every view of the demo section, at 1280 and
 * 375 px and in light and dark, axe-core (run inside the page in Chromium) finds no serious or critical
 * violation, and at 375 px no view scrolls the page sideways (`scrollWidth` ≤ 375).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DemoView, demoViews } from '../../scripts/demo-views.js';
import { seedDemoSection } from '../../src/cli/demo-section.js';
import { DEMO_SEED } from '../../src/emulator/index.js';
import { viewerWorld } from './viewer-page.js';

// The demo world of `docdb view --demo`; the anonymous hour is not what these tests are about.
const world = viewerWorld({ seed: DEMO_SEED, unauthenticatedRateLimit: 100_000 });
let views: DemoView[];
let axeSource: string;

beforeAll(async () => {
  await seedDemoSection(world.em.state);
  views = await demoViews(world.em);
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
}, 120_000);

interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Run axe-core in the page. Evaluated over the DevTools protocol rather than added as a `<script>`: the
 * viewer's Content-Security-Policy (script-src 'self') rightly refuses inline scripts.
 */
async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as AxeFinding[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
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
    await page.close();
  }
  return { problems, widths };
}

describe('every view is accessible and fits a phone', () => {
  it('at 375 px (light): no serious or critical axe violation; no view scrolls sideways', async () => {
    const { problems, widths } = await walk(375, 'light');
    expect(Object.keys(widths)).toHaveLength(8);
    // One assertion, so a run shows every problem at once.
    const wide = Object.entries(widths).filter(([, w]) => w > 375);
    expect({ problems, wide }).toEqual({ problems: [], wide: [] });
  }, 240_000);

  it('at 1280 px, light and dark: no serious or critical axe violation', async () => {
    const light = await walk(1280, 'light');
    const dark = await walk(1280, 'dark');
    expect([...light.problems, ...dark.problems.map((p) => `dark ${p}`)]).toEqual([]);
  }, 240_000);
});
