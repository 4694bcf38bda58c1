/**
 * The `docdb/git-http` browser build in real Chromium against git's own `git http-backend` (the test
 * server adds CORS headers, as Gitea can be configured to; the page is on another origin): the ONE
 * RefStore contract suite, run through a proxy into the page; and an IndexedDB object cache that makes
 * a read after a reload download no pack.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser/harness.js';
import { describeRefStoreContract } from '../contract/refstore-contract.js';
import { browserStore, type GitHttpSite, startGitHttpSite } from './browser-proxy.js';
import { gitHttpFixture, requestsSince, TOKEN } from './helpers.js';

let browser: Browser;
let site: GitHttpSite;
let page: Page;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), startGitHttpSite()]);
  page = await (await browser.newContext()).newPage();
  await page.goto(`${site.url}/git-http.html`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describeRefStoreContract(
  'GitHttpRefStore in Chromium (git http-backend with CORS)',
  async () => {
    const fx = await gitHttpFixture({ cors: true });
    const options = { remote: fx.remote, token: TOKEN, retryConcurrentWrites: 50 };
    return {
      store: await browserStore(page, options),
      ...(await peers(options)),
      requestCount: () => fx.server.requests.length,
      cleanup: () => fx.cleanup(),
    };
  },
  {
    manyKeys: 1_000,
    largeValueBytes: 1024 * 1024,
    propertyRuns: 3,
    serializedCalls:
      'the page proxy passes arguments as JSON, a derive hook cannot cross; GitHttpRefStore runs them in Node (__tests__/git-http/contract.test.ts)',
  },
);

/**
 * `peer()` and `otherSection()` must be synchronous: the page stores are made ahead (8 peers: the
 * concurrency tests' writers), each with its own cache, as 8 tabs would be.
 */
async function peers(options: Record<string, unknown>) {
  const ready = await Promise.all(Array.from({ length: 10 }, () => browserStore(page, options)));
  const other = await browserStore(page, { ...options, ref: 'refs/docdb/other' });
  let next = 0;
  return {
    peer: () => {
      const s = ready[next++ % ready.length];
      if (!s) throw new Error('no peer');
      return s;
    },
    otherSection: () => other,
  };
}

describe('GitHttpRefStore in Chromium with an IndexedDB object cache', () => {
  it('a read after a reload finds its objects in IndexedDB: ls-refs only, no pack', async () => {
    const fx = await gitHttpFixture({ cors: true });
    try {
      const options = { remote: fx.remote, token: TOKEN, indexedDbCache: 'git-http-cache-test' };
      const writer = await browserStore(page, options);
      const w = (await writer.put('notes/a.json', '{"a":1}')) as { version: string };
      await page.reload();
      await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
      const reader = await browserStore(page, options);
      const from = fx.server.requests.length;
      const got = await reader.get('notes/a.json');
      expect(got?.version).toBe(w.version);
      expect(new TextDecoder().decode(got?.value)).toBe('{"a":1}');
      expect(requestsSince(fx.server, from)).toEqual([
        'GET /info/refs?service=git-upload-pack',
        'POST /git-upload-pack ls-refs',
      ]);
    } finally {
      await fx.cleanup();
    }
  });
});
