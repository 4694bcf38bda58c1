/**
 * The section diff in Chromium (issue 29 item 5): added, modified and removed documents between two
 * versions, checked against the library's `changes()` and envelopes; modified documents a page at a time
 * (both versions of a page read in bulk); bad or reversed versions said in a sentence; 375 px wide.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { formatPath } from '../../src/viewer/diff.js';
import { documentChanges } from '../../src/viewer/document/field-diff.js';
import { ANONYMOUS_MODIFIED_PAGE } from '../../src/viewer/views/section-diff.js';
import { OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { fitsWidth, identityOf, type SeedDoc, seeder } from './document-fixtures.js';
import { viewerWorld } from './viewer-page.js';

const world = viewerWorld();
beforeEach(() => {
  world.em.state.anonymousBudget.used = 0;
});

const repoDoc = (i: number, data: unknown): SeedDoc => ({
  namespace: 'github',
  type: 'repo',
  id: `octo/r${String(i).padStart(3, '0')}`,
  data,
});

/**
 * Fields above the ones that change, so that a patch (3 lines of context) does not show a whole document: its field
 * diff is then read (the `from` version, the patch applied to it), the path these tests are about. Documents whose
 * patch shows them whole cost no read: section-diff-anonymous.test.ts.
 */
const about = { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 };

/** 20 documents, then one commit: 12 modified, 3 added, 2 removed, 3 untouched. */
function twoVersions() {
  const s = seeder(world.em);
  const base = Array.from({ length: 20 }, (_, i) =>
    repoDoc(i, { about, stars: i, owner: { login: 'ann' }, tags: ['x'] }),
  );
  const from = s.commit(base);
  const modified = base
    .slice(0, 12)
    .map((_d, i) => repoDoc(i, { about, stars: i + 1, owner: { login: i % 2 ? 'bob' : 'ann' }, tags: ['x', 'y'] }));
  const added = [20, 21, 22].map((i) => repoDoc(i, { stars: 0 }));
  const to = s.commit([...modified, ...added], base.slice(12, 14));
  return { repo: s.repo, from, to };
}

/** The blob SHAs of every document of the section at `versions`. */
async function documentBlobs(repo: string, versions: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const version of versions) {
    for (const e of (await store(world.em, repo).list({ version })).entries) out.add(e.blobSha);
  }
  return out;
}

const keysIn = (page: import('playwright-core').Page, sel: string) =>
  page.locator(sel).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key));

describe('section diff', () => {
  it('lists what changes() reports, each modified document with the field diff of its two envelopes', async () => {
    const { repo, from, to } = twoVersions();
    const page = await world.open(`repo=${OWNER}/${repo}&view=diff&from=${from}&to=${to}`);
    const docs = new DocumentStore(store(world.em, repo));
    const changes = await docs.changes({ from, to });
    expect(await page.locator('.diff-summary').innerText()).toBe(
      `3 added, 12 modified, 2 removed between ${from.slice(0, 7)} and ${to.slice(0, 7)}.`,
    );
    expect(await keysIn(page, '.diff-added li')).toEqual(changes.added.map((d) => d.key));
    expect(await keysIn(page, '.diff-removed li')).toEqual(changes.removed.map((d) => d.key));
    const modified = changes.modified.map((d) => d.key);
    expect(await keysIn(page, '.modified-doc')).toEqual(modified.slice(0, ANONYMOUS_MODIFIED_PAGE));
    const more = page.locator('.diff-modified button.show-more');
    expect(await more.innerText()).toBe('Show the next 2 of 2 more modified documents');
    const before = world.requests(page);
    await more.click();
    await page.waitForFunction((n) => document.querySelectorAll('.modified-doc').length === n, modified.length);
    const pageCost = world.requests(page) - before;
    // Anonymous in a browser: one blob read per document, at `from`; its patch gives `to` (with a token: GraphQL).
    expect(pageCost, 'the next page: its 2 documents read at from, the patch applied').toBeLessThanOrEqual(2);
    expect(await keysIn(page, '.modified-doc')).toEqual(modified);
    expect(await more.isHidden()).toBe(true);
    // Each document's lines are the diff of the envelopes the library reads at the two versions.
    for (const d of changes.modified.slice(0, 3).concat(changes.modified.slice(-2))) {
      const [a, b] = await Promise.all([
        docs.get(identityOf({ ...d, type: d.doc_type }), { version: from }),
        docs.get(identityOf({ ...d, type: d.doc_type }), { version: to }),
      ]);
      const expected = documentChanges(a, b).map((c) => `${c.kind} ${formatPath(c.path)}`);
      const shown = await page
        .locator(`.modified-doc[data-key="${d.key}"] .change`)
        .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.kind} ${(e as HTMLElement).dataset.path}`));
      expect(shown, d.key).toEqual(expected);
    }
  });

  it('says what is wrong with from/to: missing, not a version of the section, given the wrong way round', async () => {
    const { repo, from, to } = twoVersions();
    const foreign = seeder(world.em).commit([repoDoc(1, {})]);
    let page = await world.open(`repo=${OWNER}/${repo}&view=diff`);
    expect(await page.locator('#view').innerText()).toContain('Give "from", the older version to compare');
    page = await world.open(`repo=${OWNER}/${repo}&view=diff&from=${foreign}&to=${to}`);
    expect(await page.locator('[data-param="from"]').innerText()).toMatch(
      /"from" is not a version of this section: .*not a commit of the section/,
    );
    page = await world.open(`repo=${OWNER}/${repo}&view=diff&from=${to}&to=${from}`);
    const reversed = page.locator('.error');
    expect(await reversed.getAttribute('data-param')).toBe('from');
    await reversed.locator('a', { hasText: 'compare the other way round' }).click();
    await page.waitForSelector('.diff-summary');
    expect(await page.locator('.diff-summary').innerText()).toContain('3 added, 12 modified, 2 removed');
    expect(new URL(page.url()).searchParams.get('from')).toBe(from);
  });

  it('says so before field diffs would exceed what is left of the anonymous hour, and reads none of them', async () => {
    const { repo, from, to } = twoVersions();
    const documents = await documentBlobs(repo, [from, to]);
    // 10 left when the page opens: the open takes a few, a page of 10 diffs would need 10.
    world.em.state.anonymousBudget.used = 50;
    const since = world.em.requests.length;
    const page = await world.open(`repo=${OWNER}/${repo}&view=diff&from=${from}&to=${to}`);
    expect(await page.locator('.budget-note').innerText()).toMatch(
      /The field diffs of 10 modified documents needs about 10 requests and \d+ are left in this hour .*listed without field diffs/,
    );
    expect(await page.locator('.modified-doc .diff-skipped').count()).toBe(10);
    // The way out (issue 40 item 2): a token, in the page's budget warning.
    expect(
      await page.locator('.budget-note .budget-warning').getByRole('button', { name: 'Add a token' }).count(),
    ).toBe(1);
    expect(await page.locator('.modified-doc .change').count()).toBe(0);
    // None of them read: the emulator served no document's bytes at either version to draw this view
    // (its own record, whichever route a read would take).
    const served = world.em.requests.slice(since).flatMap((r) => r.blobs ?? []);
    expect(served.filter((sha) => documents.has(sha))).toEqual([]);
  });

  it('the filter by key redraws from the envelopes already read: no budget warning, no request', async () => {
    const { repo, from, to } = twoVersions();
    // 20 left when the page opens: its first page of 10 diffs takes about 13, leaving fewer than another page costs.
    world.em.state.anonymousBudget.used = 40;
    const page = await world.open(`repo=${OWNER}/${repo}&view=diff&from=${from}&to=${to}`);
    expect(await page.locator('.modified-doc .field-diff').count()).toBe(10);
    const before = world.requests(page);
    await page.fill('#diff-filter', 'octo/r00');
    await page.locator('#diff-filter').press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.modified-doc').length === 10);
    expect(await page.locator('.modified-doc .field-diff').count()).toBe(10);
    expect(await page.locator('.budget-note').innerText()).toBe('');
    expect(world.requests(page) - before).toBe(0);
  });

  it('with a token, every modified document of a page is read in bulk: a few requests, not two each', async () => {
    const { repo, from, to } = twoVersions();
    const page = await world.newPage();
    // The visitor kept a token for this tab (src/viewer/token.ts): the page reads with it.
    await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
    await world.open(`repo=${OWNER}/${repo}&view=diff&from=${from}&to=${to}`, page);
    expect(await page.locator('.modified-doc .field-diff').count()).toBe(12);
    expect(await page.locator('.diff-modified button.show-more').isHidden()).toBe(true);
    // The tip, changes() (a compare and its old blob SHAs) and the two getMany: 6 when measured.
    expect(world.requests(page)).toBeLessThanOrEqual(8);
  });

  it('fits 375 px and compares from the form', async () => {
    const { repo, from, to } = twoVersions();
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 700 });
    await world.open(`repo=${OWNER}/${repo}&view=diff`, page);
    await page.fill('#diff-from', from);
    await page.fill('#diff-to', to);
    await page.locator('#diff-to').press('Enter');
    await page.waitForSelector('.modified-doc');
    expect(await fitsWidth(page)).toBe(true);
    const box = (await page.locator('form.compare button').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  });
});
