/**
 * Screenshots of the viewer for the README and docs/viewer.md (issue 29 item 10), taken in Debian's
 * Chromium (playwright-core, as the browser tests drive it) over the world `docdb view --demo` serves:
 * the emulator with the demo seed and the demo section (src/cli/demo-section.ts), the viewer built from
 * src/viewer/ pointed at it. Each view is opened by its URL and shot once `body[data-state="ready"]`.
 *
 *   npx tsx scripts/viewer-screenshots.ts                      # every view → docs/images/viewer-<view>.png
 *   npx tsx scripts/viewer-screenshots.ts --only table,chart   # some of them
 *   npx tsx scripts/viewer-screenshots.ts --out .tmp/shots     # elsewhere (to compare before replacing)
 *   npx tsx scripts/viewer-screenshots.ts --out .tmp/phone --width 375 --scheme dark   # a phone, dark
 *
 * Needs /usr/bin/chromium (or DOCDB_CHROMIUM) and esbuild (a checkout after `npm ci`). A view that ends
 * in `data-state="error"` or does not settle is reported with the page's message and the script exits 1;
 * the other views are still written.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { seedDemoSection } from '../src/cli/demo-section.js';
import { type StaticServer, startStaticServer } from '../src/cli/static-server.js';
import { viewerPage, writeSite } from '../src/cli/viewer-site.js';
import { DEMO_SEED, startEmulator } from '../src/emulator/index.js';
import { demoViews } from './demo-views.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.DOCDB_CHROMIUM ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 800 };
/** How long one view may take to settle (the emulator answers in milliseconds; a slow machine may not). */
const SETTLE_MS = 60_000;

/** Open one view and shoot it; the page's own words when it does not get to `ready`. */
async function shoot(page: Page, url: string, file: string): Promise<string | undefined> {
  await page.goto(url);
  try {
    await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', {
      state: 'attached',
      timeout: SETTLE_MS,
    });
  } catch {
    return `did not settle within ${SETTLE_MS / 1000} s`;
  }
  if ((await page.getAttribute('body', 'data-state')) === 'error') {
    return `the page shows an error: ${(await page.locator('.error, .problems').allInnerTexts()).join(' / ')}`;
  }
  // A view may draw a little more after it says ready (images, a chart's second read): let the network rest.
  await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
  await page.screenshot({ path: file, fullPage: false });
  return undefined;
}

async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `screenshots need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium, or set DOCDB_CHROMIUM`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      only: { type: 'string' },
      width: { type: 'string' },
      scheme: { type: 'string' },
    },
  });
  const width = Number(values.width ?? VIEWPORT.width);
  if (!Number.isInteger(width) || width < 200 || width > 4000)
    throw new Error(`--width: ${values.width} is not a width in px; allowed 200 to 4000`);
  const scheme = values.scheme ?? 'light';
  if (scheme !== 'light' && scheme !== 'dark') throw new Error(`--scheme: ${scheme}; allowed light or dark`);
  const out = resolve(values.out ?? join(ROOT, 'docs/images'));
  const only = values.only?.split(',').map((s) => s.trim());
  // GitHub's anonymous budget is 60 an hour; the screenshots are not about it.
  const em = await startEmulator({ seed: DEMO_SEED, unauthenticatedRateLimit: 100_000 });
  const siteDir = await mkdtemp(join(tmpdir(), 'docdb-shots-'));
  const page = await viewerPage();
  let browser: Browser | undefined;
  let site: StaticServer | undefined;
  let failed = 0;
  try {
    await seedDemoSection(em.state);
    await writeSite(siteDir, page, { apiUrl: em.url });
    const all = (await demoViews(em)).filter((view) => view.screenshot);
    // Checked before Chromium starts: a typo costs nothing.
    const unknown = (only ?? []).filter((name) => !all.some((shot) => shot.name === name));
    if (unknown.length > 0)
      throw new Error(`--only: unknown ${unknown.join(', ')}; known: ${all.map((s) => s.name).join(', ')}`);
    site = await startStaticServer({ root: siteDir });
    browser = await launch();
    const context = await browser.newContext({ viewport: { ...VIEWPORT, width }, colorScheme: scheme });
    await mkdir(out, { recursive: true });
    for (const shot of all) {
      if (only && !only.includes(shot.name)) continue;
      const file = join(out, `viewer-${shot.name}.png`);
      const problem = await shoot(await context.newPage(), `${site.url}/viewer/?${shot.query}`, file);
      if (problem) failed++;
      console.log(problem ? `✗ ${shot.name}: ${problem} (?${shot.query})` : `✓ ${file}`);
    }
  } finally {
    await browser?.close();
    await site?.close();
    await em.stop();
    await page.dispose();
    await rm(siteDir, { recursive: true, force: true });
  }
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  },
);
