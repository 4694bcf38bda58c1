/**
 * Issue 29's budget table: the viewer in real Chromium against the emulator with 20 ms added latency per
 * request, cold cache, counting every request the page sends to the API (and its status).
 *   1. open the overview, then the table of a 10,000-document type with 3 indexed fields (anonymous);
 *   2. open one document, pick an older version, show the diff (anonymous);
 *   3. chart one field of one document over its last 100 versions, with a token;
 *   4. the same chart without a token (sampled);
 *   5. reload the table, section unchanged (the IndexedDB cache);
 *   6. page weight: index.html + viewer.js + viewer.css, min+gzip.
 * Views are reached by URL (pushState + popstate: the same render path as the page's own links), so the
 * figures do not depend on where a button sits.
 * Run: npx tsx bench/viewer.ts   → bench/results/viewer.{json,md}
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../__tests__/browser/harness.js';
import { countRequests } from '../__tests__/browser/page-requests.js';
import { indexedSectionFiles } from '../__tests__/document/indexed-section.js';
import { buildViewer, VIEWER_GZIP_BUDGET } from '../scripts/build-browser.mjs';
import { startStaticServer } from '../scripts/static-server.js';
import { DocumentStore } from '../src/document/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { MemoryRefStore } from '../src/stores/memory/memory-refstore.js';
import { viewerTable } from './viewer-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const OWNER = 'octo';
const REPO = 'viewer-bench';
const TOKEN = 'ghp_ViewerBenchToken0123456789abcdefABCD';
const REF = 'refs/docdb/documents';
const METRIC = { namespace: 'bench', type: 'metric', id: 'octo/m' };

export interface ViewerRow {
  action: string;
  goal: string;
  /** The goal as numbers: at most `max` requests (and, when set, every one a 304). */
  max: number;
  all304?: boolean;
  requests: number;
  notModified: number;
  ms: number;
}

export interface ViewerMeasurement {
  rows: ViewerRow[];
  pageWeight: { gzipBytes: number; jsGzipBytes: number; budget: number };
}

/** 10,000 repositories with 3 indexed fields, then 100 versions of one metric document on top. */
async function seed(em: Awaited<ReturnType<typeof startEmulator>>): Promise<void> {
  em.state.createRepo(`${OWNER}/${REPO}`, {});
  em.state.addToken(TOKEN, { login: OWNER, repos: '*', rateLimit: 1_000_000 });
  const repos = Array.from({ length: 10_000 }, (_, i) => ({
    namespace: 'github',
    type: 'repo',
    id: `octo/r${String(i).padStart(5, '0')}`,
    data: { language: ['Go', 'TypeScript', 'Rust', 'Python'][i % 4], stars: (i * 37) % 5000, archived: i % 9 === 0 },
  }));
  const files = await indexedSectionFiles(repos, [
    { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars', 'data.archived'] },
  ]);
  em.state.commitFiles(`${OWNER}/${REPO}`, { branch: REF, orphan: true, files, message: 'seed 10,000 repositories' });
  const memory = new DocumentStore(new MemoryRefStore());
  for (let v = 0; v < 100; v++) {
    await memory.put({ ...METRIC, data: { value: Math.round(50 + 40 * Math.sin(v / 7)), step: v } });
    const got = await memory.store.get('bench/metric/octo/m.json');
    em.state.commitFiles(`${OWNER}/${REPO}`, {
      branch: REF,
      files: { 'bench/metric/octo/m.json': got?.value ?? null },
      message: `metric step ${v}`,
    });
  }
}

/** Count the API requests (and 304s) the page sends while `action` runs, at the browser. */
async function measure(page: Page, apiUrl: string, action: () => Promise<void>) {
  const counter = countRequests(page, apiUrl);
  const started = performance.now();
  await action();
  const ms = performance.now() - started;
  counter.stop();
  return { requests: counter.requests, notModified: counter.notModified, ms: Math.round(ms) };
}

async function settled(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="ready"], body[data-state="error"]', { state: 'attached' });
  const state = await page.getAttribute('body', 'data-state');
  if (state !== 'ready') throw new Error(`the viewer ended in "${state}": ${await page.locator('main').innerText()}`);
}

/** Go to `?query` the way the page's own links do (pushState + popstate), and wait until it is drawn. */
async function go(page: Page, query: string): Promise<void> {
  await page.evaluate((q) => {
    document.body.dataset.state = 'loading';
    history.pushState(null, '', `?${q}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, query);
  await settled(page);
}

/**
 * Run every row in a fresh emulator (with `latencyMs` added per request) and a fresh Chromium.
 * `__tests__/viewer/budgets.test.ts` runs this same function and asserts each row's goal.
 *
 * @example
 * const { rows } = await measureViewer({ latencyMs: 0 });
 */
export async function measureViewer(options: { latencyMs: number }): Promise<ViewerMeasurement> {
  const em = await startEmulator({ latencyMs: options.latencyMs });
  await seed(em);
  const dir = await mkdtemp(join(tmpdir(), 'docdb-viewer-bench-'));
  const built = await buildViewer(dir, { apiUrl: em.url });
  const site = await startStaticServer({ root: dir });
  const browser = await launchChromium();
  const base = `${site.url}/viewer/?repo=${OWNER}/${REPO}`;
  const table = `repo=${OWNER}/${REPO}&view=table&ns=github&type=repo`;
  const rows: ViewerRow[] = [];
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cold = await measure(page, em.url, async () => {
      await page.goto(base);
      await settled(page);
      await go(page, table);
    });
    rows.push({
      action: 'open the overview and the table of a 10,000-document type with 3 indexed fields, cold, no token',
      goal: '≤ 6',
      max: 6,
      ...cold,
    });
    const versions = (await (
      await fetch(`${em.url}/repos/${OWNER}/${REPO}/commits?sha=${REF}&path=bench/metric/octo/m.json&per_page=5`)
    ).json()) as { sha: string }[];
    const [newest, older] = [versions[0]?.sha, versions[3]?.sha];
    const doc = `repo=${OWNER}/${REPO}&view=document&ns=bench&type=metric&id=octo/m`;
    const diff = await measure(page, em.url, async () => {
      await go(page, doc);
      await go(page, `${doc}&at=${older}`);
      // The page's Compare form pins the later version (`at` = `to`), so the tip is not read again.
      await go(page, `${doc}&at=${newest}&from=${older}&to=${newest}`);
    });
    rows.push({ action: 'open one document, pick an older version, show the diff', goal: '≤ 4 more', max: 4, ...diff });
    await go(page, table);
    const reload = await measure(page, em.url, async () => {
      await page.reload();
      await settled(page);
    });
    rows.push({
      action: 'reload the table, section unchanged (IndexedDB cache)',
      goal: '≤ 2, all 304',
      max: 2,
      all304: true,
      ...reload,
    });
    await context.close();
    const chart = `repo=${OWNER}/${REPO}&view=chart&ns=bench&type=metric&id=octo/m&field=data.value`;
    const withToken = await browser.newContext();
    const tokenPage = await withToken.newPage();
    await tokenPage.goto(`${site.url}/viewer/`);
    await tokenPage.evaluate((t) => sessionStorage.setItem('docdb-viewer-token', t), TOKEN);
    const charted = await measure(tokenPage, em.url, async () => {
      await tokenPage.goto(`${site.url}/viewer/?${chart}`);
      await settled(tokenPage);
    });
    rows.push({
      action: 'chart one field of one document over its last 100 versions, with a token',
      goal: '≤ 3 (GraphQL batches)',
      max: 3,
      ...charted,
    });
    await withToken.close();
    const anonymous = await browser.newContext();
    const anonPage = await anonymous.newPage();
    const sampled = await measure(anonPage, em.url, async () => {
      await anonPage.goto(`${site.url}/viewer/?${chart}`);
      await settled(anonPage);
      // The page says what every version would cost and draws a sample within 20 requests at once.
      await anonPage.waitForSelector('.chart-summary[data-sampled="true"]');
    });
    rows.push({ action: 'the same chart without a token (explained, sampled)', goal: '≤ 20', max: 20, ...sampled });
    await anonymous.close();
  } finally {
    await browser.close();
    await site.close();
    await em.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    rows,
    pageWeight: { gzipBytes: built.gzipBytes, jsGzipBytes: built.jsGzipBytes, budget: VIEWER_GZIP_BUDGET },
  };
}

async function main() {
  const { rows, pageWeight } = await measureViewer({ latencyMs: 20 });
  const result = { date: new Date().toISOString(), latencyMs: 20, rows, pageWeight };
  const md = viewerTable(result);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'viewer.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(here, 'results', 'viewer.md'), `${md}\n`);
  console.log(md);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
