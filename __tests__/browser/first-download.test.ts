/**
 * What a get/put page downloads of `docdb/browser` (issue 40 "Budgets": ≤ 60 KB min+gzip before the first get,
 * "a page that only gets and puts pays for neither" the index, query and history readers), measured in real
 * chromium against the emulator: every bundle file the page fetched for a remote client's get and puts, each
 * body gzipped here (level 9, as the build measures) and summed. The history readers load on the first
 * history call, once.
 */
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_GZIP_BUDGET } from '../../scripts/build-browser.mjs';
import * as nodeDocdb from '../../src/browser/index.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { emulator, freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { launchChromium, openTestPage, type Site, startSite } from './harness.js';

let browser: Browser;
let site: Site;
let em: EmulatorHandle;
beforeAll(async () => {
  [browser, site, em] = await Promise.all([launchChromium(), startSite(), emulator()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await em?.stop();
});

type Docdb = typeof import('../../src/browser/index.js');

/** A bundle file the page fetched: its name and its body's size min+gzip. */
interface Fetched {
  name: string;
  gzipBytes: number;
}

/** A fresh page on the test page, with every bundle file it fetches from the first byte on (in order). */
async function pageFetchingBundle(): Promise<{ page: Page; fetched: Fetched[]; settled(): Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const fetched: Fetched[] = [];
  const bodies: Promise<void>[] = [];
  page.on('response', (r) => {
    const name = basename(new URL(r.url()).pathname);
    if (!/^docdb\..*\.js$/.test(name)) return;
    bodies.push(r.body().then((body) => void fetched.push({ name, gzipBytes: gzipSync(body, { level: 9 }).length })));
  });
  await openTestPage(page, site);
  return { page, fetched, settled: async () => void (await Promise.all(bodies)) };
}

/** What the get/put scenario saw: the document before and after, and each call's requests. */
interface GetPutOutcome {
  got: unknown;
  again: unknown;
  requests: (number | undefined)[];
}

/**
 * A remote client with a token gets ID (cold), puts a new document, updates ID and gets it again. Run as it
 * is in the page (the bundle) and in Node (the eager modules): the same code either way.
 */
async function getThenPut(docdb: Docdb, o: { repo: string; apiUrl: string; owner: string; token: string }) {
  const client = await docdb.loadDocDbClient({
    owner: o.owner,
    repo: o.repo,
    apiUrl: o.apiUrl,
    hostCapabilities: { credentials: async () => o.token },
  });
  const id = { namespace: 'notes', doc_type: 'note', id: 'hello' };
  const got = await client.get(id);
  const added = await client.put({ namespace: 'notes', type: 'note', id: 'second', data: { n: 2 } });
  const updated = await client.put({ namespace: 'notes', type: 'note', id: 'hello', data: { text: 'bye' } });
  const again = await client.get(id);
  return {
    client,
    outcome: {
      got: got.document?.data,
      again: again.document?.data,
      requests: [got.requests, added.requests, updated.requests, again.requests],
    } satisfies GetPutOutcome,
  };
}

/** The scenario in the page, its client kept as `window.client`. */
function getThenPutInPage(page: Page, repo: string): Promise<GetPutOutcome> {
  return page.evaluate(
    async ({ source, args }) => {
      const w = window as unknown as { docdb: Docdb; client: unknown };
      // The scenario's source, evaluated in the page (a function cannot cross into it otherwise).
      const run = new Function(`return (${source})`)() as typeof getThenPut;
      const { client, outcome } = await run(w.docdb, args);
      w.client = client;
      return outcome;
    },
    { source: getThenPut.toString(), args: { repo, apiUrl: em.url, owner: OWNER, token: TOKEN } },
  );
}

/** A fresh repository holding ID ({ text: 'hi' }), written from Node. */
async function seeded(): Promise<string> {
  const repo = freshRepo(em);
  await new DocumentStore(store(em, repo)).put({ namespace: 'notes', type: 'note', id: 'hello', data: { text: 'hi' } });
  return repo;
}

const initialFiles = () => [
  'docdb.bundle.js',
  ...site.bundle.chunks.filter((c) => c.initial).map((c) => basename(c.file)),
];
const sum = (list: Fetched[]) => list.reduce((n, f) => n + f.gzipBytes, 0);

describe('what a get/put page downloads of docdb/browser, in chromium', () => {
  it(`a remote get and two puts fetch only the entry and its static chunks: at most ${INITIAL_GZIP_BUDGET} bytes min+gzip`, async () => {
    const repo = await seeded();
    const { page, fetched, settled } = await pageFetchingBundle();
    try {
      const outcome = await getThenPutInPage(page, repo);
      await settled();
      expect(outcome).toMatchObject({ got: { text: 'hi' }, again: { text: 'bye' } });
      // The same calls cost the same requests as in Node, where nothing loads lazily.
      const inNode = (await getThenPut(nodeDocdb, { repo: await seeded(), apiUrl: em.url, owner: OWNER, token: TOKEN }))
        .outcome;
      expect(inNode).toEqual(outcome);
      expect(outcome.requests[0]).toBe(2); // a cold get: the ref and one contents read

      const names = fetched.map((f) => f.name);
      expect(new Set(names)).toEqual(new Set(initialFiles()));
      expect(names).toHaveLength(initialFiles().length); // each once
      const bytes = sum(fetched);
      console.log(`a get/put page fetched ${names.length} files, ${bytes} bytes min+gzip: ${names.join(', ')}`);
      expect(bytes).toBe(site.bundle.initialGzipBytes); // what the build reports is what the page paid
      expect(bytes).toBeLessThanOrEqual(INITIAL_GZIP_BUDGET);
    } finally {
      await page.context().close();
    }
  }, 60_000);

  it('a history call fetches the history readers once; changes after it fetch nothing more', async () => {
    const repo = freshRepo(em);
    const docs = new DocumentStore(store(em, repo));
    const first = await docs.put({ namespace: 'notes', type: 'note', id: 'hello', data: { text: 'hi' } });
    await docs.put({ namespace: 'notes', type: 'note', id: 'hello', data: { text: 'hello' } });
    const { page, fetched, settled } = await pageFetchingBundle();
    try {
      await getThenPutInPage(page, repo);
      await settled();
      const before = fetched.length;
      const inPage = (step: 'history' | 'changes') =>
        page.evaluate(
          async ({ step, from }) => {
            const client = (window as unknown as { client: Awaited<ReturnType<Docdb['loadDocDbClient']>> }).client;
            const id = { namespace: 'notes', doc_type: 'note', id: 'hello' };
            if (step === 'changes') return (await client.changes({ from })).modified.map((m) => m.id);
            const all = await client.history(id);
            const latest = await client.history(id, { limit: 1 });
            return [all.entries.length, latest.entries.length];
          },
          { step, from: first.version as string },
        );
      expect(await inPage('history')).toEqual([3, 1]);
      await settled();
      const loaded = fetched.slice(before).map((f) => f.name);
      const history = site.bundle.chunks.filter((c) => basename(c.file).startsWith('docdb.chunk-remote-api-history-'));
      expect(history).toHaveLength(1);
      expect(loaded).toContain(basename(history[0]!.file));
      expect(new Set(loaded).size).toBe(loaded.length); // none twice
      expect(loaded.every((n) => !initialFiles().includes(n))).toBe(true);

      expect(await inPage('changes')).toEqual(['hello']); // the versions reader came with the history chunk
      await settled();
      expect(fetched.slice(before).map((f) => f.name)).toEqual(loaded);
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
