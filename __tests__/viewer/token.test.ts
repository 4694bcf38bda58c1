/**
 * Tokens in the viewer (issue 29 item 8), in Chromium: a private repository opens with a token typed into
 * the panel, and the token is then nowhere but the page's memory — not in localStorage, IndexedDB, the
 * URL, the history or the console — and in sessionStorage only when "keep for this tab" was ticked.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dumpPageStorage } from '../browser/harness.js';
import { freshRepo, OWNER, TOKEN } from '../remote-api/helpers.js';
import { settled, viewerWorld } from './viewer-page.js';

const world = viewerWorld();

function privateSection(): string {
  const repo = freshRepo(world.em, { private: true });
  const doc = JSON.stringify({ namespace: 'a', doc_type: 'secret', id: 'x', data: { n: 1 } });
  world.em.state.commitFiles(`${OWNER}/${repo}`, {
    branch: 'refs/docdb/documents',
    orphan: true,
    files: { 'a/secret/x.json': doc },
  });
  return repo;
}

async function useToken(page: Page, keep: boolean): Promise<void> {
  await page.locator('details.token-panel summary').click();
  await page.getByLabel('GitHub token').fill(TOKEN);
  if (keep) await page.getByLabel(/Keep for this tab/).check();
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.waitForSelector('table.types');
  await settled(page);
}

/** Everywhere a page could have kept the token, as text. */
async function traces(
  page: Page,
): Promise<{ stored: [string, string][]; session: string[]; url: string; history: number }> {
  const stored = await dumpPageStorage(page);
  const rest = await page.evaluate(() => ({
    session: Object.keys(sessionStorage).map((k) => `${k}=${sessionStorage.getItem(k)}`),
    url: location.href,
    history: history.length,
  }));
  return { stored, ...rest };
}

const NEEDS_TOKEN = /was not found — or it is private and needs a token/;

describe('viewer tokens', () => {
  it('opens a private repository with a token kept in memory only, and leaves no trace of it', async () => {
    const repo = privateSection();
    const page = await world.newPage();
    const consoleText: string[] = [];
    page.on('console', (m) => consoleText.push(m.text()));
    await world.open(`repo=${OWNER}/${repo}`, page);
    expect(await page.locator('main .error').innerText()).toMatch(NEEDS_TOKEN);
    const urlBefore = page.url();
    const from = world.em.requests.length;
    await useToken(page, false);
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
    expect(world.em.requests.slice(from).some((r) => r.authenticated)).toBe(true);
    expect(await page.locator('footer .meter').innerText()).toContain('with your token');
    expect(await page.getByLabel('GitHub token').inputValue()).toBe('');

    const t = await traces(page);
    // The scan is real: the client's IndexedDB cache holds what it read with the token.
    expect(t.stored.some(([where]) => where.startsWith('indexedDB docdb-viewer'))).toBe(true);
    expect(t.stored.filter(([, text]) => text.includes(TOKEN))).toEqual([]);
    expect(t.session.filter((s) => s.includes(TOKEN))).toEqual([]);
    expect(t.url).toBe(urlBefore);
    expect(decodeURIComponent(t.url)).not.toContain(TOKEN);
    expect(consoleText.filter((m) => m.includes(TOKEN))).toEqual([]);

    // A new tab of the same browser does not see a token that was not kept.
    const other = await world.open(`repo=${OWNER}/${repo}`, await world.newPage());
    expect(await other.locator('main .error').innerText()).toMatch(NEEDS_TOKEN);
  });

  it('keeps the token in sessionStorage only when asked, across a reload; "Forget" removes it', async () => {
    const repo = privateSection();
    const page = await world.open(`repo=${OWNER}/${repo}`);
    await useToken(page, true);
    expect((await traces(page)).session).toEqual([`docdb-viewer-token=${TOKEN}`]);
    await page.reload();
    await settled(page);
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
    const t = await traces(page);
    expect(t.stored.filter(([, text]) => text.includes(TOKEN))).toEqual([]);
    await page.locator('details.token-panel summary').click();
    await page.getByRole('button', { name: 'Forget token' }).click();
    await page.waitForSelector('main .error');
    expect(await page.locator('main .error').innerText()).toMatch(NEEDS_TOKEN);
    expect((await traces(page)).session).toEqual([]);
  });

  it('works from the keyboard at 375 px: labelled controls in tab order, nothing wider than the screen', async () => {
    const repo = privateSection();
    const page = await world.newPage();
    await page.setViewportSize({ width: 375, height: 700 });
    await world.open(`repo=${OWNER}/${repo}`, page);
    await page.locator('details.token-panel summary').focus();
    await page.keyboard.press('Enter');
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || '');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('token-input');
    await page.keyboard.type(TOKEN);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('token-keep');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Use token');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.types');
    expect(await page.locator('table.types td.num').innerText()).toBe('1');
    // The panel closes once the token is in use; the focus is back on its summary (issue 40 item 13).
    expect(await page.locator('details.token-panel').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await focused()).toBe('Token: in use');
  });
});
