/**
 * The viewer in real Chromium against the emulator on loopback: one browser, one emulator and one built
 * viewer (its API URL pointed at the emulator) per test file; a fresh browser context per test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { buildViewer } from '../../scripts/build-browser.mjs';
import { type StaticServer, startStaticServer } from '../../scripts/static-server.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { launchChromium } from '../browser/harness.js';
import { countRequests, type RequestCounter } from '../browser/page-requests.js';
import { emulator } from '../remote-api/helpers.js';

/**
 * Every viewer test's browser clock: Paris in an en-GB browser, so the page's local dates (src/viewer/dates.ts)
 * are exact in asserts whatever the host's zone — `2026-11-28 02:07 CET` for 01:07 UTC.
 */
export const VIEWER_ZONE = { timeZone: 'Europe/Paris', locale: 'en-GB' } as const;

export interface ViewerWorld {
  readonly em: EmulatorHandle;
  /** The site's origin (the viewer is at `${url}/viewer/`). */
  readonly url: string;
  /** Open the viewer with a query string (`repo=octo/x&view=table…`) in a fresh page and wait until it settles. */
  open(query: string, page?: Page): Promise<Page>;
  /** A new page in the test's browser context (same sessionStorage rules as a new tab). */
  newPage(): Promise<Page>;
  /**
   * Requests a page of `newPage`/`open` has sent to the emulator, counted by the browser from the page's
   * creation on (not by the viewer's own meter, which a request could bypass).
   */
  requests(page: Page): number;
}

/** Wait until the viewer has drawn its view (`body[data-state]` is `ready` or `error`). */
export async function settled(page: Page): Promise<string> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { state: 'attached' });
  return (await page.getAttribute('body', 'data-state')) as string;
}

/**
 * Register the file's hooks; `emulatorOptions` start the file's emulator (a seed, a looser anonymous limit, a
 * lower `treeTruncateLimit`).
 *
 * @example
 * const world = viewerWorld();
 * it('…', async () => { const page = await world.open(`repo=${OWNER}/${repo}&view=table&ns=github&type=repo`); });
 */
export function viewerWorld(emulatorOptions: Parameters<typeof emulator>[0] = {}): ViewerWorld {
  let browser: Browser;
  let site: StaticServer;
  let dir: string;
  let em: EmulatorHandle;
  let context: BrowserContext | undefined;
  const counters = new WeakMap<Page, RequestCounter>();
  beforeAll(async () => {
    [browser, em, dir] = await Promise.all([
      launchChromium(),
      emulator(emulatorOptions),
      mkdtemp(join(tmpdir(), 'docdb-viewer-')),
    ]);
    await buildViewer(dir, { apiUrl: em.url });
    site = await startStaticServer({ root: dir });
  });
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
  const newPage = async () => {
    context ??= await browser.newContext({ timezoneId: VIEWER_ZONE.timeZone, locale: VIEWER_ZONE.locale });
    const page = await context.newPage();
    counters.set(page, countRequests(page, em.url));
    return page;
  };
  return {
    get em() {
      return em;
    },
    get url() {
      return site.url;
    },
    newPage,
    requests(page) {
      const counter = counters.get(page);
      if (!counter) throw new Error('requests(page): the page was not opened by this world (newPage or open)');
      return counter.requests;
    },
    async open(query, page) {
      const p = page ?? (await newPage());
      await p.goto(`${site.url}/viewer/?${query}`);
      await settled(p);
      return p;
    },
  };
}
