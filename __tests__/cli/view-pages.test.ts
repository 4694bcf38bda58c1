/**
 * The site `docdb view --out` writes works where GitHub Pages puts it — under a sub-path
 * (`https://owner.github.io/repo/`) — in real Chromium: the root page opens the viewer on the named
 * section, every asset is fetched from under the sub-path (nothing from the site's root), and the page
 * reads the API fixed in it (the emulator, holding the demo section), anonymously. A shared link to the root
 * page with its own query opens the viewer on that query, and whatever the link holds, stays on the site.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECTION, seedDemoSection } from '../../src/cli/demo-section.js';
import { type StaticServer, startStaticServer } from '../../src/cli/static-server.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { launchChromium } from '../browser/harness.js';
import { settled } from '../viewer/viewer-page.js';
import { runCli } from './run-cli.js';

const SUB = '/some/sub/path/';
let browser: Browser;
let em: EmulatorHandle;
let dir: string;
let site: StaticServer;
let context: BrowserContext | undefined;

beforeAll(async () => {
  [browser, em, dir] = await Promise.all([
    launchChromium(),
    startEmulator({ seed: DEMO_SEED }),
    mkdtemp(join(tmpdir(), 'docdb-pages-')),
  ]);
  await seedDemoSection(em.state);
  const out = join(dir, ...SUB.split('/').filter(Boolean));
  const r = await runCli(['view', '--out', out, '--api-url', em.url, '--repo', DEMO_SECTION.repo]);
  if (r.code !== 0) throw new Error(`docdb view --out failed: ${r.stderr}`);
  site = await startStaticServer({ root: dir });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await em?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** A page that records every path it asks the site for. */
async function recordingPage(): Promise<{ page: Page; sitePaths: string[] }> {
  context = await browser.newContext();
  const page = await context.newPage();
  const sitePaths: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.origin === new URL(site.url).origin) sitePaths.push(url.pathname);
  });
  return { page, sitePaths };
}

describe('the Pages site under a sub-path, in Chromium', () => {
  it('the root page opens the viewer on the section; every asset comes from under the sub-path', async () => {
    const { page, sitePaths } = await recordingPage();
    await page.goto(`${site.url}${SUB}`);
    await page.waitForURL(/\/viewer\/\?repo=/);
    expect(await settled(page)).toBe('ready');
    const location = new URL(page.url());
    expect([location.pathname, location.search]).toEqual([`${SUB}viewer/`, `?repo=${DEMO_SECTION.repo}`]);
    expect(sitePaths).toEqual(
      expect.arrayContaining([SUB, `${SUB}viewer/`, `${SUB}viewer/viewer.js`, `${SUB}viewer/viewer.css`]),
    );
    expect(sitePaths.filter((p) => !p.startsWith(SUB))).toEqual([]);
    // The page read the section from the API written into it, not from the site.
    const requests = await page.evaluate(
      () => (window as unknown as { docdbViewer: { stats(): { requests: number } } }).docdbViewer.stats().requests,
    );
    expect(requests).toBeGreaterThan(0);
  });

  it('the viewer directory named without its slash still loads (redirected, the query kept)', async () => {
    const { page, sitePaths } = await recordingPage();
    await page.goto(`${site.url}${SUB}viewer?repo=${DEMO_SECTION.repo}&view=table&ns=github&type=repo`);
    expect(await settled(page)).toBe('ready');
    expect(new URL(page.url()).pathname).toBe(`${SUB}viewer/`);
    expect(new URL(page.url()).searchParams.get('type')).toBe('repo');
    expect(sitePaths).toContain(`${SUB}viewer/viewer.js`);
  });

  it('a shared link to the root with its own query opens the viewer on it, byte for byte', async () => {
    const { page } = await recordingPage();
    const query = `?repo=${DEMO_SECTION.repo}&view=table&ns=github&type=repo&where=data.stars%3E%3D10&q=a%2Fb%20c+d`;
    await page.goto(`${site.url}${SUB}${query}#top`);
    await page.waitForURL((u) => u.pathname === `${SUB}viewer/`);
    expect(await settled(page)).toBe('ready');
    const location = new URL(page.url());
    expect([location.search, location.hash]).toEqual([query, '#top']);
  });

  it.each(['?//evil.example/', '?@evil.example', '?repo=o/r#//evil.example', '?%2F%2Fevil.example', '?\\evil.example'])(
    'a link to the root holding %s stays on the site',
    async (tail) => {
      const { page } = await recordingPage();
      const origin = new URL(site.url).origin;
      // The root page reached through `//` too: the path it resolves `viewer/` against starts with two slashes.
      for (const root of [`${SUB}`, `/${SUB}`]) {
        const link = new URL(`${origin}${root}${tail}`).href;
        await page.goto(link);
        await page.waitForURL((u) => u.href !== link); // wherever the root page sends it
        const at = new URL(page.url());
        expect([at.origin, at.pathname], root + tail).toEqual([origin, `${root}viewer/`]);
      }
    },
  );
});
