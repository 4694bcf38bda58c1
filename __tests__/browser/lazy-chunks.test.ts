/**
 * The `docdb/browser` bundle's lazy chunks in real chromium (issue 40 "Budgets"): a page that only gets and
 * puts downloads the entry and the chunks it imports statically, none of the lazy ones; a query fetches the
 * query chunk once; a put loads the declarations work only when the section declares something about its
 * type. Counted from the script requests the page makes to the local static server.
 */
import { basename } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedSectionFiles } from '../document/indexed-section.js';
import { launchChromium, openTestPage, type Site, startSite } from './harness.js';

let browser: Browser;
let site: Site;
beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), startSite()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

type Docdb = typeof import('../../src/browser/index.js');

/** A fresh page on the test page, with every bundle file it requests listed (in order, repeats kept). */
async function pageCountingScripts(): Promise<{ page: Page; scripts: string[]; close(): Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (r) => {
    const name = basename(new URL(r.url()).pathname);
    if (/^docdb\..*\.js$/.test(name)) scripts.push(name);
  });
  await openTestPage(page, site);
  return { page, scripts, close: () => context.close() };
}

const initial = () => ['docdb.bundle.js', ...site.bundle.chunks.filter((c) => c.initial).map((c) => basename(c.file))];
const lazyChunk = (name: string) => {
  const found = site.bundle.chunks.filter((c) => basename(c.file).startsWith(`docdb.chunk-${name}-`));
  expect(found).toHaveLength(1);
  return basename(found[0]!.file);
};
const count = (scripts: string[], name: string) => scripts.filter((s) => s === name).length;

describe('docdb/browser lazy chunks in chromium', () => {
  it('get/put/list/delete load only the entry; a query loads the query chunk once; declaring loads the write kit', async () => {
    const { page, scripts, close } = await pageCountingScripts();
    try {
      const got = await page.evaluate(async () => {
        const { loadDocDbClient } = (window as unknown as { docdb: Docdb }).docdb;
        const client = await loadDocDbClient({ backend: 'memory' });
        await client.put({ namespace: 'github', type: 'repo', id: 'o/a', data: { stars: 1 } });
        await client.put({ namespace: 'github', type: 'repo', id: 'o/b', data: { stars: 2 } });
        await client.delete({ namespace: 'github', doc_type: 'repo', id: 'o/b' });
        const listed = await client.list({ namespace: 'github' });
        const read = await client.get({ namespace: 'github', doc_type: 'repo', id: 'o/a' });
        (window as unknown as { client: unknown }).client = client;
        return { ids: listed.documents.map((e) => e.id), data: read.document?.data };
      });
      expect(got).toEqual({ ids: ['o/a'], data: { stars: 1 } });
      expect(new Set(scripts)).toEqual(new Set(initial()));
      expect(scripts).toHaveLength(initial().length);

      const answers = await page.evaluate(async () => {
        const client = (window as unknown as { client: Awaited<ReturnType<Docdb['loadDocDbClient']>> }).client;
        const q = { namespace: 'github', type: 'repo', where: [{ field: 'data.stars', op: '>=' as const, value: 1 }] };
        const first = await client.query(q);
        const second = await client.query(q);
        return [first, second].map((r) => ({ by: r.answeredBy, ids: (r.documents ?? []).map((d) => d.id) }));
      });
      expect(answers).toEqual([
        { by: 'documents', ids: ['o/a'] },
        { by: 'documents', ids: ['o/a'] },
      ]);
      expect(count(scripts, lazyChunk('query'))).toBe(1);
      expect(count(scripts, lazyChunk('write-kit'))).toBe(0);

      await page.evaluate(async () => {
        const client = (window as unknown as { client: Awaited<ReturnType<Docdb['loadDocDbClient']>> }).client;
        await client.documents.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['data.stars'] }]);
        await client.put({ namespace: 'github', type: 'repo', id: 'o/c', data: { stars: 3 } });
      });
      expect(count(scripts, lazyChunk('write-kit'))).toBe(1);
      expect(count(scripts, lazyChunk('migrate'))).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);

  it('a put loads the write kit only for a type the section indexes, and keeps that index exact', async () => {
    const files = await indexedSectionFiles(
      [{ namespace: 'github', type: 'repo', id: 'o/a', data: { stars: 1 } }],
      [{ namespace: 'github', type: 'repo', fields: ['data.stars'] }],
    );
    const { page, scripts, close } = await pageCountingScripts();
    try {
      const section = Object.entries(files).map(([key, value]) => [key, [...value]] as const);
      const step = (kind: 'seed' | 'issue' | 'repo') =>
        page.evaluate(
          async ({ kind, section }) => {
            const w = window as unknown as { docdb: Docdb; docs: InstanceType<Docdb['DocumentStore']> };
            if (kind === 'seed') {
              // The library's own files, committed raw: no DocumentStore write, nothing lazy loaded.
              const store = new w.docdb.MemoryRefStore();
              const changes = section.map(([key, v]) => ({ op: 'put' as const, key, value: new Uint8Array(v) }));
              await store.commit(changes);
              w.docs = new w.docdb.DocumentStore(store);
              return null;
            }
            if (kind === 'issue') {
              await w.docs.put({ namespace: 'github', type: 'issue', id: 'o/a#1', data: { stars: 9 } });
              return null;
            }
            await w.docs.put({ namespace: 'github', type: 'repo', id: 'o/b', data: { stars: 2 } });
            const q = await w.docs.query({
              namespace: 'github',
              type: 'repo',
              where: [{ field: 'data.stars', op: '=', value: 2 }],
            });
            return { by: q.answeredBy, ids: q.rows.map((r) => r.id) };
          },
          { kind, section },
        );
      await step('seed');
      await step('issue');
      expect(new Set(scripts)).toEqual(new Set(initial()));
      expect(await step('repo')).toEqual({ by: 'index', ids: ['o/b'] });
      expect(count(scripts, lazyChunk('write-kit'))).toBe(1);
    } finally {
      await close();
    }
  }, 60_000);
});
