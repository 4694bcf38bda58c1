/**
 * The viewer's search box in Chromium against the emulator (issue 42): the overview searches every type
 * that declares search — the hits ranked as the library ranks them, across namespaces, each with its
 * type, a link to its document, its score, the fields matched and a snippet with the words marked — at a
 * request count asserted; Enter searches, Escape clears, `q` in the URL with back and forward, "More
 * results" with the cursor; a searchable type's table searches the type, a type without search keeps the
 * text filter of the loaded rows; the rate limit weighed before an anonymous search and a stop said.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshRepo, OWNER, TOKEN } from '../remote-api/helpers.js';
import { axeFindings } from './axe.js';
import { type Found, librarySearch, REPOS, searchSection } from './search-fixtures.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();
let repo: string;

beforeAll(() => {
  repo = searchSection(world.em);
});

const BOTH = [{ namespace: 'blog' }, { namespace: 'github' }];
const overview = (extra = '') => `repo=${OWNER}/${repo}${extra}`;
const table = (type: string, extra = '') => `repo=${OWNER}/${repo}&view=table&ns=github&type=${type}${extra}`;
const params = (page: Page) => new URL(page.url()).searchParams;

/** A page whose viewer reads with the token (kept for the tab, as a visitor may ask). */
async function withToken(): Promise<Page> {
  const page = await world.newPage();
  await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
  return page;
}

/** The hits on the page, in order. */
function shownHits(page: Page): Promise<Found[]> {
  return page.$$eval('.search-hit', (items) =>
    items.map((li) => ({
      type: (li as HTMLElement).dataset.type as string,
      id: (li as HTMLElement).dataset.id as string,
      score: Number(/score ([\d.]+)/.exec(li.querySelector('.search-score')?.textContent ?? '')?.[1]),
    })),
  );
}

/** Type words into a box and press Enter; resolves when the view is redrawn. */
async function search(page: Page, label: string, words: string): Promise<void> {
  await page.getByLabel(label).fill(words);
  await page.getByLabel(label).press('Enter');
  await page.waitForURL((u) => u.searchParams.get('q') === words);
  await settled(page);
}

const ids = (hits: readonly Found[]) => hits.map((h) => `${h.type} ${h.id}`);
const scores = (hits: readonly Found[]) => hits.map((h) => Number(h.score.toFixed(2)));

describe('the section’s search box (overview)', () => {
  it('typing words shows the library’s ranked hits across namespaces, marked snippets, at a counted cost', async () => {
    const page = await withToken();
    await world.open(overview(), page);
    expect(await page.locator('.search-scope').innerText()).toContain('blog/post, github/repo');
    // The type without search is not searched; the overview's types table says which have search.
    expect(await page.locator('.search-scope').innerText()).not.toContain('github/issue');
    expect(await page.locator('table.types').innerText()).toMatch(/repo\s+120\s+indexed, search/);

    const before = world.requests(page);
    await search(page, 'Search the section', 'harbor sig');
    const cost = world.requests(page) - before;
    const expected = await librarySearch(world.em, repo, 'harbor sig', BOTH);
    expect(expected.length).toBeGreaterThan(20);
    const hits = await shownHits(page);
    // With a token, a page of 20; both namespaces in one ranked list, scores as the library's.
    expect(ids(hits)).toEqual(ids(expected.slice(0, 20)));
    expect(scores(hits)).toEqual(scores(expected.slice(0, 20)));
    expect(new Set(hits.map((h) => h.type))).toEqual(new Set(['blog/post', 'github/repo']));

    // What the search cost: asserted, and said on the page as the browser counted it. The declaration once,
    // then per namespace its types' manifests, the words' shards, the table parts and the documents, each
    // round one GraphQL batch (the overview's cached listing gave every file's blob SHA).
    expect(cost).toBeLessThanOrEqual(9);
    expect(await page.locator('.search-count').innerText()).toBe(
      `${expected.length} documents match “harbor sig”, the best 20 shown (the search made ${cost} requests).`,
    );

    // Each hit: its type, its id linking to the document, its score, the fields matched and their snippets.
    const first = page.locator('.search-hit').first();
    const href = (await first.locator('a').getAttribute('href')) ?? '';
    expect(Object.fromEntries(new URLSearchParams(href))).toMatchObject({
      view: 'document',
      ns: (expected[0] as Found).type.split('/')[0],
      id: (expected[0] as Found).id,
    });
    expect(new URLSearchParams(href).has('q')).toBe(false);
    expect(await first.locator('.search-fields').innerText()).toMatch(/^Matched in data\./);
    // Marked: "harbor" itself and words that begin with the last word, "sig" (the prefix rule).
    const marks = (await page.locator('.search-hit mark').allInnerTexts()).map((m) => m.toLowerCase());
    expect(marks.length).toBeGreaterThan(20);
    expect(marks.every((m) => m === 'harbor' || m.startsWith('sig'))).toBe(true);
    expect(marks).toContain('signal');
    // The blog's long bodies are cut around the words, not shown whole.
    const snippets = await page.locator('.search-hit[data-type="blog/post"] .search-snippet').allInnerTexts();
    expect(snippets.some((s) => s.includes('…'))).toBe(true);
    expect(snippets.every((s) => s.length < 260)).toBe(true);
    // The box keeps the focus and the words, to refine them.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ov-q');
  });

  it('diacritics fold and a typo of one edit still finds the words', async () => {
    const page = await withToken();
    await world.open(overview('&q=creme%20brulee'), page);
    const expected = await librarySearch(world.em, repo, 'creme brulee', BOTH);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await shownHits(page))).toEqual(ids(expected.slice(0, 20)));
    expect((await page.locator('.search-hit mark').first().innerText()).toLowerCase()).toMatch(/^(crème|brûlée)$/);
    await search(page, 'Search the section', 'lanterm');
    const typo = await librarySearch(world.em, repo, 'lanterm', BOTH);
    expect(typo.length).toBeGreaterThan(0);
    expect(ids(await shownHits(page))).toEqual(ids(typo.slice(0, 20)));
    expect((await page.locator('.search-hit mark').first().innerText()).toLowerCase()).toBe('lantern');
  });

  it('q in the URL: a link opens the results; Escape clears; back and forward restore them', async () => {
    const page = await withToken();
    await world.open(overview('&q=harbor'), page);
    const harbor = ids(await shownHits(page));
    expect(harbor.length).toBeGreaterThan(0);
    expect(await page.getByLabel('Search the section').inputValue()).toBe('harbor');

    await search(page, 'Search the section', 'signal');
    const signal = ids(await shownHits(page));
    expect(signal).not.toEqual(harbor);

    await page.getByLabel('Search the section').press('Escape');
    await page.waitForURL((u) => !u.searchParams.has('q'));
    await settled(page);
    expect(await page.locator('.search-hit').count()).toBe(0);
    expect(await page.getByLabel('Search the section').inputValue()).toBe('');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ov-q');

    await page.goBack();
    await settled(page);
    expect(params(page).get('q')).toBe('signal');
    expect(ids(await shownHits(page))).toEqual(signal);
    await page.goBack();
    await settled(page);
    expect(params(page).get('q')).toBe('harbor');
    expect(ids(await shownHits(page))).toEqual(harbor);
    await page.goForward();
    await settled(page);
    expect(ids(await shownHits(page))).toEqual(signal);
  });

  it('“More results” reads the next page with the cursor, in the same ranked order', async () => {
    const page = await withToken();
    await world.open(overview('&q=engine'), page);
    const expected = await librarySearch(world.em, repo, 'engine', BOTH);
    expect(expected.length).toBeGreaterThan(40);
    expect(ids(await shownHits(page))).toEqual(ids(expected.slice(0, 20)));
    const before = world.requests(page);
    await page.getByRole('button', { name: 'More results' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.search-hit').length === 40);
    expect(ids(await shownHits(page))).toEqual(ids(expected.slice(0, 40)));
    // The next page of each namespace that needs one — its documents (table parts already read are not read
    // again), one GraphQL batch each; not the whole search again. Measured: 1.
    expect(world.requests(page) - before).toBeLessThanOrEqual(2);
    // The focus moves to the first new hit.
    expect(await page.evaluate(() => document.activeElement?.closest('.search-hit')?.getAttribute('data-id'))).toBe(
      (expected[20] as Found).id,
    );
    while (await page.getByRole('button', { name: 'More results' }).count()) {
      const shown = await page.locator('.search-hit').count();
      await page.getByRole('button', { name: 'More results' }).click();
      await page.waitForFunction((n) => document.querySelectorAll('.search-hit').length > n, shown);
    }
    expect(ids(await shownHits(page))).toEqual(ids(expected));
    expect(await page.locator('.search-count').innerText()).toMatch(
      new RegExp(`^${expected.length} documents match “engine”, all ${expected.length} shown`),
    );
  });

  it('words nothing matches, and a query the library refuses, are said in the page', async () => {
    const page = await withToken();
    await world.open(overview('&q=zeppelin'), page);
    expect(await page.locator('.search-count').innerText()).toMatch(/^No document matches “zeppelin”/);
    expect(await page.locator('.search-hit').count()).toBe(0);
    const many = Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ');
    await world.open(overview(`&q=${encodeURIComponent(many)}`), page);
    expect(await page.locator('.search-results .error[role="alert"]').innerText()).toMatch(/\bq\b.*32/);
  });
});

describe('a type’s table', () => {
  it('a type that declares search: the box searches the type, hits instead of the grid, Escape back', async () => {
    const page = await withToken();
    await world.open(table('repo'), page);
    await page.waitForSelector('.vt-body .vt-row');
    // A cold table has not read the search declaration: its box asks on first use, then becomes the search box.
    const opened = world.requests(page);
    await page.getByLabel('Text filter (rows loaded)').focus();
    await page.getByLabel('Search github/repo').waitFor();
    expect(world.requests(page) - opened).toBe(1);
    expect(await page.getByLabel('Text filter (rows loaded)').count()).toBe(0);
    expect(await page.getByLabel('Search github/repo').getAttribute('placeholder')).toBe(
      'Words in data.name, data.description',
    );
    const before = world.requests(page);
    await search(page, 'Search github/repo', 'meadow river');
    const expected = await librarySearch(world.em, repo, 'meadow river', [{ namespace: 'github', type: 'repo' }]);
    expect(expected.length).toBeGreaterThan(0);
    const hits = await shownHits(page);
    expect(ids(hits)).toEqual(ids(expected.slice(0, 20)));
    expect(hits.every((h) => h.type === 'github/repo')).toBe(true);
    // One type: its manifest, shards, table parts and documents; the declaration was read with the table.
    expect(world.requests(page) - before).toBeLessThanOrEqual(4);
    expect(await page.locator('.vt-body').count()).toBe(0);
    await page.getByLabel('Search github/repo').press('Escape');
    await page.waitForURL((u) => !u.searchParams.has('q'));
    await settled(page);
    await page.waitForSelector('.vt-body .vt-row');
    expect(params(page).get('view')).toBe('table');
    await page.goBack();
    await settled(page);
    expect(ids(await shownHits(page))).toEqual(ids(expected.slice(0, 20)));
    await page.getByRole('link', { name: 'Back to the table' }).click();
    await page.waitForURL((u) => !u.searchParams.has('q'));
    await settled(page);
    expect(await page.locator('.vt-body .vt-row').count()).toBeGreaterThan(0);
  });

  it('a type without search keeps the text filter of the loaded rows, and says so', async () => {
    const page = await withToken();
    await world.open(table('issue'), page);
    await page.waitForSelector('.vt-body .vt-row');
    const filter = page.getByLabel('Text filter (rows loaded)');
    // Cold, the box does not know yet; its first use asks (the search declaration) and then says so.
    expect(await filter.getAttribute('placeholder')).toBe(
      'Filters the rows loaded, or searches the type where it has a search index',
    );
    await filter.focus();
    await page.waitForFunction(() =>
      (document.getElementById('vt-q') as HTMLInputElement | null)?.placeholder.startsWith('No search index'),
    );
    expect(await filter.getAttribute('placeholder')).toBe('No search index here: filters the rows loaded');
    expect(await page.locator('.search-box').count()).toBe(0);
    const before = world.requests(page);
    await filter.pressSequentially('issue 1');
    // Filtered in place, no request: issue 1 and issue 10–19.
    await page.waitForFunction(() => document.querySelectorAll('.vt-body .vt-row').length === 11);
    expect(world.requests(page)).toBe(before);
    // `q` on a type without search is the text filter, as before.
    await world.open(table('issue', '&q=issue%202'), page);
    expect(await page.locator('.vt-body .vt-row').count()).toBe(11);
    expect(await page.locator('.search-hit').count()).toBe(0);
  });
});

describe('a damaged search declaration', () => {
  it('is named in the table, which keeps its text filter; the section’s search says it', async () => {
    const damaged = freshRepo(world.em);
    const doc = (id: string) => JSON.stringify({ namespace: 'a', type: 'b', id, data: { t: `word ${id}` } });
    world.em.state.commitFiles(`${OWNER}/${damaged}`, {
      branch: 'refs/docdb/documents',
      orphan: true,
      files: { 'a/b/1.json': doc('1'), 'a/b/2.json': doc('2'), '_docdb/search.json': '{"version":1,"search":"no"}' },
    });
    const page = await withToken();
    await world.open(`repo=${OWNER}/${damaged}&view=table&ns=a&type=b&q=word`, page);
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    expect(await page.locator('.error[role="alert"]').first().innerText()).toMatch(
      /^The section's search declaration could not be read \(.*_docdb\/search\.json.*\): the box filters the rows loaded\.$/,
    );
    expect(await page.getByLabel('Text filter (rows loaded)').inputValue()).toBe('word');
    expect(await page.locator('.vt-body .vt-row').count()).toBe(2);
  });
});

describe('the rate limit', () => {
  it('an anonymous search that would spend more than is left asks first; a stopped search says which limit', async () => {
    const budget = world.em.state.refreshBudget(world.em.state.anonymousBudget);
    try {
      // 5 left once the overview is read (3 requests): a page of 10 hits read one by one would not fit.
      budget.used = budget.limit - 8;
      const page = await world.open(overview());
      await search(page, 'Search the section', 'quantum');
      const warning = page.locator('.search-results .budget-warning');
      expect(await warning.locator('p').innerText()).toMatch(
        /^This search needs about 28 requests and 5 are left in this hour/,
      );
      expect(await warning.getByRole('button', { name: 'Add a token' }).count()).toBe(1);
      expect(await page.locator('.search-hit').count()).toBe(0);
      // Asked anyway, the hour runs out in the middle: the hourly limit is named, with its reset.
      await warning.getByRole('button', { name: 'Search anyway' }).click();
      const stop = page.locator('.search-results .limit-stop');
      await stop.waitFor();
      expect(await stop.getAttribute('data-limit')).toBe('primary');
      expect(await stop.locator('p').innerText()).toContain('hourly rate limit is used up');
    } finally {
      budget.used = 0;
    }
  });

  it('with a token, the anonymous page size does not apply: 20 hits at once', async () => {
    const page = await withToken();
    await world.open(overview('&q=repo'), page);
    expect(await page.locator('.search-hit').count()).toBe(20);
    expect(REPOS).toBeGreaterThan(20);
  });
});

describe('what a link to a search costs, cold', () => {
  // Measured on the emulator: with a token the ref, the declaration (the table's), then one GraphQL batch per
  // round of the search; without one a request per file and per hit's document.
  it('a type’s search with a token: the ref, the declaration and 4 rounds', async () => {
    const page = await withToken();
    await world.open(table('repo', '&q=meadow%20river'), page);
    expect(world.requests(page)).toBeLessThanOrEqual(6);
    expect(await page.locator('.search-count').innerText()).toMatch(/\(the search made [1-4] requests?\)\.$/);
  });

  it('the section’s search with a token: the overview’s 3, then the declaration and 4 rounds per namespace', async () => {
    const page = await withToken();
    await world.open(overview('&q=harbor%20sig'), page);
    expect(world.requests(page)).toBeLessThanOrEqual(12);
  });

  it('a type’s search without a token: a page of 10, each document read on its own', async () => {
    world.em.state.anonymousBudget.used = 0;
    const page = await world.open(table('repo', '&q=meadow%20river'));
    expect(await page.locator('.search-hit').count()).toBe(10);
    // The table's first screen, then the manifest, the shards, the delta of recent writes, the table part and
    // the 10 documents one by one.
    expect(world.requests(page)).toBeLessThanOrEqual(16);
    world.em.state.anonymousBudget.used = 0;
  });
});

describe('accessible, light and dark, and fits a phone', () => {
  const pages = () => [overview('&q=harbor%20sig'), table('repo', '&q=meadow%20river'), table('repo')];

  it('at 375 px: no sideways scroll and no serious or critical axe violation (light)', async () => {
    const problems: string[] = [];
    for (const query of pages()) {
      const page = await withToken();
      await page.setViewportSize({ width: 375, height: 800 });
      await world.open(query, page);
      for (const f of await axeFindings(page)) problems.push(`${query}: ${f}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 375) problems.push(`${query}: ${width} px wide`);
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  it('at 1280 px in dark: no serious or critical axe violation (contrast of marked words included)', async () => {
    const problems: string[] = [];
    for (const query of pages()) {
      const page = await withToken();
      await page.emulateMedia({ colorScheme: 'dark' });
      await world.open(query, page);
      for (const f of await axeFindings(page)) problems.push(`${query}: ${f}`);
      await page.close();
    }
    expect(problems).toEqual([]);
  });
});
