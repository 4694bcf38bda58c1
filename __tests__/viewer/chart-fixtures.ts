/**
 * Shared by the chart tests in Chromium: opening a chart with or without a token (the token kept for the
 * tab, as the visitor's "keep for this tab" does), waiting for it, and reading back what the page shows.
 */
import type { Page } from 'playwright-core';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { TOKEN } from '../remote-api/helpers.js';
import type { ViewerWorld } from './viewer-page.js';

/** Open `query` in a fresh page; with `token`, the page starts with it in this tab's sessionStorage. */
export async function openChart(
  world: ViewerWorld,
  query: string,
  opts: { token?: boolean; width?: number } = {},
): Promise<Page> {
  const page = await world.newPage();
  if (opts.width) await page.setViewportSize({ width: opts.width, height: 800 });
  if (opts.token) {
    await page.addInitScript((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
  }
  return world.open(query, page);
}

/** A fresh anonymous hour: the emulator's shared anonymous budget starts again at 60 (as after GitHub's reset). */
export function freshAnonymousHour(em: EmulatorHandle): void {
  em.state.anonymousBudget.used = 0;
}

/** The values table: each row's full version and its value (null for a gap). */
export async function tableValues(page: Page): Promise<{ version: string; value: number | null; note: string }[]> {
  await page.waitForSelector('[data-chart="ready"]');
  return page.$$eval('.chart-values tbody tr', (rows) =>
    rows.map((r) => {
      const cell = r.querySelector('td.num') as HTMLElement;
      return {
        version: (r as HTMLElement).dataset.version as string,
        value: cell.dataset.value === undefined ? null : Number(cell.dataset.value),
        note: (r.lastElementChild as HTMLElement).textContent ?? '',
      };
    }),
  );
}
