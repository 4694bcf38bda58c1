/**
 * loadDocDbClient in real chromium against the emulator on loopback (page and API on different
 * origins): the IndexedDB cache makes a warm get after a reload cost one request; ref reads revalidate
 * despite `Cache-Control: max-age=60`; the IndexedDB host store round-trips across reloads and two tabs
 * writing at once lose nothing; it runs in a module Worker; the token never lands in IndexedDB,
 * localStorage or a request to another origin.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { chromiumAndEmulator } from './emulator-page.js';
import { dumpPageStorage, reloadTestPage } from './harness.js';

const world = chromiumAndEmulator();
const newPage = () => world.newPage();

const ID = { namespace: 'notes', doc_type: 'note', id: 'hello' };

interface GetOutcome {
  data: unknown;
  version: string | null;
  requests?: number;
  remaining?: number;
}

/** In the page: load a remote client (IndexedDB cache when `db` is given) and get ID. */
function remoteGet(
  page: Page,
  args: { repo: string; db?: string; cacheMode?: RequestCache; id?: typeof ID },
): Promise<GetOutcome> {
  return page.evaluate(
    async ({ repo, db, cacheMode, apiUrl, owner, token, id }) => {
      const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
      const client = await loadDocDbClient({
        owner,
        repo,
        apiUrl,
        hostCapabilities: {
          // The page keeps the token (as an app or extension would); docdb asks for it per operation.
          credentials: async () => token,
          ...(db ? { store: { name: db } } : {}),
          // cacheMode only to show what a non-revalidating host fetch would do.
          ...(cacheMode ? { transport: { fetch: (u, init) => fetch(u, { ...init, cache: cacheMode }) } } : {}),
        },
      });
      const r = await client.get(id);
      client.close();
      return { data: r.document?.data, version: r.version, requests: r.requests, remaining: r.rateLimit?.remaining };
    },
    { id: ID, ...args, apiUrl: world.em.url, owner: OWNER, token: TOKEN },
  );
}

async function writeNode(repo: string, data: unknown): Promise<string> {
  const w = await new DocumentStore(store(world.em, repo)).put({ namespace: 'notes', type: 'note', id: 'hello', data });
  return w.version as string;
}

describe('loadDocDbClient in chromium: remote backend with the IndexedDB cache', () => {
  it('after a reload, a warm get of an unchanged section costs one request (a 304)', async () => {
    const repo = freshRepo(world.em);
    const version = await writeNode(repo, { text: 'hi' });
    const page = await newPage();
    const cold = await remoteGet(page, { repo, db: 'cache-test' });
    expect(cold).toMatchObject({ data: { text: 'hi' }, version, requests: 2 }); // ref + one contents read
    await reloadTestPage(page);
    const from = world.em.requests.length;
    const warm = await remoteGet(page, { repo, db: 'cache-test' });
    expect(warm).toMatchObject({ data: { text: 'hi' }, version, requests: 1 });
    expect(warm.remaining).toBeGreaterThan(0);
    // The 304 costs no rate-limit budget (an authorized conditional request).
    // Chromium may add a CORS preflight (OPTIONS) of its own: not an API request, no rate-limit cost.
    const api = world.em.requests.slice(from).filter((r) => r.method !== 'OPTIONS');
    expect(api.map((r) => `${r.method} ${r.operation} ${r.status}`)).toEqual(['GET git/get-ref 304']);
    expect(world.em.requests.slice(from).every((r) => !r.costsBudget)).toBe(true);
  });

  it('ref reads revalidate: a write within max-age=60 is seen at once (a plain cached fetch would not)', async () => {
    const repo = freshRepo(world.em);
    await writeNode(repo, { n: 1 });
    const page = await newPage();
    // Memory cache only: every get starts with an unconditional ref read the browser could cache.
    expect((await remoteGet(page, { repo })).data).toEqual({ n: 1 });
    const v2 = await writeNode(repo, { n: 2 });
    const fresh = await remoteGet(page, { repo });
    expect(fresh).toMatchObject({ data: { n: 2 }, version: v2 });
    // What the default `cache: 'no-store'` prevents: a host fetch using the HTTP cache serves the stale
    // tip (the ref answer says max-age=60), so the same write goes unseen.
    expect((await remoteGet(page, { repo, cacheMode: 'default' })).data).toEqual({ n: 2 }); // fills the HTTP cache
    await writeNode(repo, { n: 3 });
    expect((await remoteGet(page, { repo, cacheMode: 'default' })).data).toEqual({ n: 2 });
    expect((await remoteGet(page, { repo })).data).toEqual({ n: 3 });
  });

  it('never puts the token in IndexedDB, localStorage or a request to another origin', async () => {
    const repo = freshRepo(world.em);
    const page = await newPage();
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    // Writes too: ref tips of our own writes, trees and commits all go through the IndexedDB cache.
    await page.evaluate(
      async ({ repo, apiUrl, owner, token }) => {
        const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
        const client = await loadDocDbClient({
          owner,
          repo,
          apiUrl,
          hostCapabilities: { credentials: () => token, store: { name: 'hygiene' } },
        });
        await client.putMany([
          { namespace: 'notes', type: 'note', id: 'a', data: { a: 1 } },
          { namespace: 'notes', type: 'note', id: 'b', data: new Array(50).fill('x') },
        ]);
        await client.get({ namespace: 'notes', doc_type: 'note', id: 'a' });
        await client.history({ namespace: 'notes', doc_type: 'note', id: 'a' });
        await client.list();
        client.close();
      },
      { repo, apiUrl: world.em.url, owner: OWNER, token: TOKEN },
    );
    await reloadTestPage(page);
    const again = await remoteGet(page, { repo, db: 'hygiene', id: { ...ID, id: 'a' } });
    expect(again).toMatchObject({ data: { a: 1 }, requests: 1 });

    const leaks = (entries: [string, string][]) =>
      entries.filter(([, text]) => text.includes(TOKEN) || text.includes(TOKEN.slice(4, 24))).map(([where]) => where);
    // The scan itself finds a planted token (canary), then everything docdb stored is clean.
    await page.evaluate((token) => localStorage.setItem('canary', token), TOKEN);
    expect(leaks(await dumpPageStorage(page))).toEqual(['localStorage']);
    await page.evaluate(() => localStorage.removeItem('canary'));
    const stored = await dumpPageStorage(page);
    expect(stored.filter(([where]) => where.includes('hygiene/cache')).length).toBeGreaterThan(5);
    expect(leaks(stored)).toEqual([]);

    const apiOrigin = new URL(world.em.url).origin;
    let toApi = 0;
    for (const r of requests) {
      const headers = await r.allHeaders();
      const seen = `${r.url()}\n${JSON.stringify(headers)}\n${r.postData() ?? ''}`;
      if (new URL(r.url()).origin === apiOrigin) {
        toApi++;
        // To the API only in the Authorization header (preflights carry none).
        expect(r.url()).not.toContain(TOKEN);
        expect(r.postData() ?? '').not.toContain(TOKEN);
        if (r.method() !== 'OPTIONS') expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
      } else {
        expect(seen).not.toContain(TOKEN);
      }
    }
    expect(toApi).toBeGreaterThan(5);
    expect(requests.some((r) => new URL(r.url()).origin !== apiOrigin)).toBe(true); // the page's own files
  });
});

describe('loadDocDbClient in chromium: the IndexedDB host store', () => {
  it('round-trips documents across a reload', async () => {
    const page = await newPage();
    const written = await page.evaluate(async () => {
      const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
      const client = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { name: 'local' } } });
      const w = await client.putMany(
        ['a', 'b', 'c'].map((id) => ({ namespace: 'notes', type: 'note', id, data: { id, bytes: 'é✓' } })),
      );
      client.close();
      return w.version;
    });
    await reloadTestPage(page);
    const read = await page.evaluate(async () => {
      const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
      const client = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { name: 'local' } } });
      const got = await client.get({ namespace: 'notes', doc_type: 'note', id: 'b' });
      const list = await client.list({ namespace: 'notes' });
      client.close();
      return { data: got.document?.data, version: got.version, ids: list.documents.map((d) => d.id) };
    });
    expect(read).toEqual({ data: { id: 'b', bytes: 'é✓' }, version: written, ids: ['a', 'b', 'c'] });
  });

  it('two tabs writing at once lose nothing', async () => {
    const [tabA, tabB] = [await newPage(), await newPage()];
    const burst = (page: Page, tab: string) =>
      page.evaluate(async (tab) => {
        const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
        const client = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { name: 'tabs' } } });
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            client.put({ namespace: 'notes', type: 'note', id: `${tab}-${i}`, data: { tab, i } }),
          ),
        );
        client.close();
        return results.filter((r) => r.changed).length;
      }, tab);
    expect(await Promise.all([burst(tabA, 'a'), burst(tabB, 'b')])).toEqual([10, 10]);
    const after = await tabA.evaluate(async () => {
      const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
      const client = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { name: 'tabs' } } });
      const list = await client.list();
      // Each key was written by exactly one commit; together they form one linear chain of 20.
      const commits = await Promise.all(
        list.documents.map(async (d) => (await client.refStore.history(d.key)).entries),
      );
      client.close();
      const versions = new Set(commits.map((c) => c[0]?.version));
      const parents = commits.map((c) => c[0]?.parents[0] ?? null);
      const chain = {
        perKey: commits.map((c) => c.length),
        distinct: versions.size,
        roots: parents.filter((p) => p === null).length,
        parentsDistinct: new Set(parents).size,
        parentsInside: parents.filter((p) => p !== null && versions.has(p)).length,
      };
      return { ids: list.documents.map((d) => d.id).sort(), chain };
    });
    const expected = ['a', 'b'].flatMap((t) => Array.from({ length: 10 }, (_, i) => `${t}-${i}`)).sort();
    expect(after.ids).toEqual(expected);
    expect(after.chain).toEqual({
      perKey: new Array(20).fill(1),
      distinct: 20,
      roots: 1,
      parentsDistinct: 20,
      parentsInside: 19,
    });
  });

  it('runs in a module Web Worker', async () => {
    const page = await newPage();
    const result = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const worker = new Worker('./test-worker.js', { type: 'module' });
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => resolve({ ok: false, error: e.message });
          worker.postMessage({ db: 'worker-db' });
        }),
    );
    expect(result).toMatchObject({ ok: true, data: { from: 'worker' } });
    const r = result as { version: string; readVersion: string };
    expect(r.readVersion).toBe(r.version);
  });
});
