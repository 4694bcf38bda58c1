/**
 * The playground in real chromium against the emulator on loopback (CORS: page and API on different
 * origins): it renders the projection of a seeded repository, shows requests used and the rate limit
 * left, turns 404 / rate-limit exhaustion / network failure into sentences, and runs fully offline
 * with the emulator inside the page.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, startEmulator } from '../../src/emulator/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { launchChromium, type Site, startSite } from './harness.js';

let browser: Browser;
let site: Site;
let em: EmulatorHandle;
let page: Page;

beforeAll(async () => {
  [browser, site, em] = await Promise.all([launchChromium(), startSite(), startEmulator({ seed: DEMO_SEED })]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await em?.stop();
});
afterEach(async () => {
  await page?.context().close();
});

async function open(query: Record<string, string>): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 960, height: 720 } });
  page = await context.newPage();
  await page.goto(`${site.url}/playground/index.html?${new URLSearchParams({ ...query, go: '1' })}`);
  await page.waitForSelector('#panel[data-state="ok"], #panel[data-state="error"]');
  return page;
}

describe('playground (chromium)', () => {
  it('renders the projection of a seeded repository, with requests used and rate limit left', async () => {
    const p = await open({ api: em.url, repo: 'octo-org/widgets' });
    expect(await p.textContent('#full-name')).toBe('octo-org/widgets');
    expect(await p.textContent('#default-branch')).toBe('main');
    const rows = await p.$$eval('#branches tbody tr', (trs) =>
      trs.map((tr) => [tr.children[0]?.textContent, (tr.children[1] as HTMLElement).title]),
    );
    const db = em.state.repo('octo-org/widgets').db;
    expect(rows).toEqual(['develop', 'feature/login', 'main'].map((b) => [b, db.readRef(`refs/heads/${b}`)]));
    const envelope = JSON.parse((await p.textContent('#envelope')) as string);
    expect(envelope).toMatchObject({
      namespace: 'github',
      type: 'repo',
      id: 'octo-org/widgets',
      data: { fullName: 'octo-org/widgets', defaultBranch: 'main', description: 'Widgets for every occasion' },
    });
    expect(envelope.version).toMatch(/^[0-9a-f]{40}$/);
    // Two unauthenticated requests, both logged by the emulator; 60 − 2 left.
    expect(await p.textContent('#requests')).toBe('Requests: 2 for this projection, 2 in total');
    expect(await p.textContent('#ratelimit')).toMatch(/^Rate limit left: 58 of 60 \(resets /);
    expect(em.requests.filter((r) => r.method === 'GET').map((r) => r.operation)).toEqual([
      'repos/get',
      'git/list-matching-refs',
    ]);
    expect(em.requests.every((r) => !r.authenticated)).toBe(true);
    const shot = await p.screenshot({ fullPage: true });
    await mkdir(join(process.cwd(), '.tmp'), { recursive: true });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(process.cwd(), '.tmp', 'playground.png'), shot);
    // DOCDB_UPDATE_SCREENSHOTS=1 refreshes the README's picture.
    if (process.env.DOCDB_UPDATE_SCREENSHOTS === '1')
      await writeFile(join(process.cwd(), 'docs', 'playground.png'), shot);
    expect(shot.length).toBeGreaterThan(10_000);
  });

  it('explains a missing repository', async () => {
    const p = await open({ api: em.url, repo: 'octo-org/no-such-repo' });
    expect(await p.getAttribute('#panel', 'data-state')).toBe('error');
    expect(await p.textContent('#error-message')).toBe(
      'Repository “octo-org/no-such-repo” was not found. Check the spelling; a private repository needs a token that can see it.',
    );
    expect(await p.textContent('#requests')).toBe('Requests: 1 for this projection, 1 in total');
  });

  it('explains an exhausted rate limit', async () => {
    const tight = await startEmulator({ seed: DEMO_SEED, unauthenticatedRateLimit: 3 });
    try {
      const p = await open({ api: tight.url, repo: 'octo-org/widgets' });
      expect(await p.getAttribute('#panel', 'data-state')).toBe('ok');
      await p.click('#go');
      await p.waitForSelector('#panel[data-state="error"]');
      expect(await p.textContent('#error-message')).toMatch(
        /^The API rate limit is used up \(unauthenticated clients get 60 requests per hour\)\. It resets at .+\. Add a token for 5,000 per hour\.$/,
      );
      expect(await p.textContent('#ratelimit')).toMatch(/^Rate limit left: 0 of 3/);
      // Per projection and in total (issue 22): the second projection's requests, after the first's 2.
      const [, last, total] = /^Requests: (\d+) for this projection, (\d+) in total$/.exec(
        (await p.textContent('#requests')) ?? '',
      )!;
      expect(Number(total)).toBe(2 + Number(last));
      expect(Number(last)).toBeGreaterThan(0);
      expect(tight.requests.at(-1)).toMatchObject({ status: 403, costsBudget: false });
    } finally {
      await tight.stop();
    }
  });

  it('explains a network failure (nothing listening at the API URL)', async () => {
    const gone = await startEmulator();
    const url = gone.url;
    await gone.stop();
    const p = await open({ api: url, repo: 'octo-org/widgets' });
    expect(await p.textContent('#error-message')).toBe(
      `Could not reach ${url}. Check your network connection and the API URL.`,
    );
  });

  it('runs fully offline with the emulator inside the page (no request leaves the page)', async () => {
    const context = await browser.newContext();
    page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(site.url)) outside.push(r.url());
    });
    await page.goto(`${site.url}/playground/index.html?offline&repo=octo-org/widgets&go`);
    await page.waitForSelector('#panel[data-state="ok"]');
    expect(await page.textContent('#full-name')).toBe('octo-org/widgets');
    const branches = await page.$$eval('#branches tbody td:first-child', (tds) => tds.map((t) => t.textContent));
    expect(branches).toEqual(['develop', 'feature/login', 'main']);
    expect(await page.textContent('#meta')).toContain('Source: emulator in this page');
    expect(outside).toEqual([]);
  });
});
