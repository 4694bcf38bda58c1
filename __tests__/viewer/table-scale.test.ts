/**
 * Issue 29 item 3 at scale: a 100,000-document indexed type scrolls to its last row with at most a few
 * hundred rows in the DOM, reading through GraphQL (a token), a page of rows at a time as the view nears
 * the end of what is loaded. The last row is the one the library's order puts last.
 */
import { describe, expect, it } from 'vitest';
import { freshRepo, OWNER, TOKEN } from '../remote-api/helpers.js';
import { seedType } from './table-seed.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
const N = 100_000;
const id = (i: number) => `g${i % 50}/item-${i}`;

describe('table per type at 100,000 rows', () => {
  it('scrolls to the end with a bounded DOM; the last row is the last in order', async () => {
    const repo = freshRepo(world.em);
    seedType(world.em, repo, {
      n: N,
      namespace: 'bench',
      type: 'item',
      id,
      data: (i) => ({ stars: i % 1000, language: ['Go', 'Rust'][i % 2] }),
      fields: ['data.stars', 'data.language'],
    });
    const since = world.em.requests.length;
    const page = await world.newPage();
    await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
    await world.open(`repo=${OWNER}/${repo}&view=table&ns=bench&type=item`, page);
    // Issue 40 item 7 at 100,000: the facets of both fields, over the whole type, read with the table's
    // first screen (ref, declaration, manifest, first part: 4) — their counts in one GraphQL request more.
    await page.waitForSelector('.vt-facet');
    const opened = world.em.requests.slice(since).filter((r) => r.method !== 'OPTIONS');
    expect(opened.length - 4, opened.map((r) => `${r.method} ${r.path}`).join('\n')).toBeLessThanOrEqual(1);
    expect(await page.getByRole('list', { name: 'Counts of data.language' }).innerText()).toMatch(
      /^Go\s*50,000\s*Rust\s*50,000$/,
    );
    const grid = page.locator('.vt-scroll');
    let most = 0;
    for (let round = 0; round < 200; round++) {
      const state = await grid.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
        return { done: (el as HTMLElement).dataset.done, loaded: Number((el as HTMLElement).dataset.loaded) };
      });
      most = Math.max(most, await page.locator('.vt-body .vt-row').count());
      if (state.done === 'true') break;
      await page.waitForFunction(
        (n) => Number((document.querySelector('.vt-scroll') as HTMLElement).dataset.loaded) > n,
        state.loaded,
      );
    }
    expect(await grid.getAttribute('data-loaded')).toBe(String(N));
    await grid.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForFunction((n) => !!document.querySelector(`.vt-row[data-index="${n - 1}"]`), N);
    most = Math.max(most, await page.locator('.vt-body .vt-row').count());
    expect(most).toBeLessThanOrEqual(300);
    // Order: data.stars ascending, then id. The largest stars value is 999 (i ≡ 999 mod 1000); the last
    // of those by id is the greatest id string among them.
    const lastIds = Array.from({ length: N / 1000 }, (_, k) => id(k * 1000 + 999)).sort();
    expect(await page.locator(`.vt-row[data-index="${N - 1}"]`).getAttribute('data-id')).toBe(lastIds.at(-1));
    // Read through GraphQL with the token, never anonymously: every request the page sent carried the
    // token (CORS preflights carry no credentials, by the browser's rules).
    const api = world.em.requests.slice(since).filter((r) => r.method !== 'OPTIONS');
    expect(api.some((r) => r.path === '/graphql')).toBe(true);
    expect(api.filter((r) => !r.authenticated).map((r) => `${r.method} ${r.path}`)).toEqual([]);

    // Anonymous at 100,000 (issue 40 item 7): the facets cost one request per field — each field's counts
    // file — where reading a run would cost ~95 (one request per part without GraphQL).
    // A cold cache, as a first visit has: the token page's IndexedDB cache (shared by the context) goes.
    await page.close();
    const anonymous = await world.newPage();
    await anonymous.goto(`${world.url}/`);
    await anonymous.evaluate(async () => {
      for (const db of await indexedDB.databases()) {
        await new Promise((done) => {
          const req = indexedDB.deleteDatabase(db.name as string);
          req.onsuccess = req.onerror = req.onblocked = done;
        });
      }
    });
    await world.open(`repo=${OWNER}/${repo}&view=table&ns=bench&type=item`, anonymous);
    await anonymous.waitForSelector('.vt-body .vt-row');
    const before = world.em.requests.length;
    await anonymous.getByRole('button', { name: 'Count values (about 2 requests)' }).click();
    await anonymous.waitForSelector('.vt-facet');
    const facetReads = world.em.requests.slice(before).filter((r) => r.method !== 'OPTIONS');
    expect(facetReads.every((r) => !r.authenticated)).toBe(true);
    expect(facetReads.map((r) => decodeURIComponent(r.path).replace(/^.*\/contents\//, '')).sort()).toEqual([
      '_docdb/index/bench/item/data.language/counts.json',
      '_docdb/index/bench/item/data.stars/counts.json',
    ]);
    expect(await anonymous.getByRole('list', { name: 'Counts of data.language' }).innerText()).toMatch(
      /^Go\s*50,000\s*Rust\s*50,000$/,
    );
  }, 120_000);
});
