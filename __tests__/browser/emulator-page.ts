/**
 * One Chromium, one static site and one emulator for a test file, with a fresh page per call in one browser
 * context that is closed after each test (what the client and query tests share).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { emulator } from '../remote-api/helpers.js';
import { launchChromium, openTestPage, type Site, startSite } from './harness.js';

/**
 * Register the file's hooks; `em` is valid inside tests, `newPage()` opens the test page.
 *
 * @example
 * const world = chromiumAndEmulator();
 * it('…', async () => { const page = await world.newPage(); … world.em.url … });
 */
export function chromiumAndEmulator(): { readonly em: EmulatorHandle; newPage(): Promise<Page> } {
  let browser: Browser;
  let site: Site;
  let em: EmulatorHandle;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    [browser, site, em] = await Promise.all([launchChromium(), startSite(), emulator()]);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await em?.stop();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  return {
    get em() {
      return em;
    },
    async newPage() {
      context ??= await browser.newContext();
      const page = await context.newPage();
      await openTestPage(page, site);
      return page;
    },
  };
}
