/**
 * `client.search(...)` in real chromium against the emulator on loopback (issue 42): the browser bundle
 * ranks the hits from the section's search index anonymously on a public repository, and the search code
 * is not in the entry — the page downloads its chunk on the first search, once, and never the write kit
 * for it. Scripts counted from the requests the page makes to the local static server.
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { freshRepo, OWNER, store } from '../remote-api/helpers.js';
import { chromiumAndEmulator } from './emulator-page.js';

const world = chromiumAndEmulator();

type Docdb = typeof import('../../src/browser/index.js');

/** A public repository whose section holds three notes with a search index on title and body. */
async function searchableSection(): Promise<string> {
  const repo = freshRepo(world.em);
  const docs = new DocumentStore(store(world.em, repo));
  await docs.putMany([
    { namespace: 'notes', type: 'article', id: 'a1', data: { title: 'Full-text search', body: 'inverted index' } },
    { namespace: 'notes', type: 'article', id: 'a2', data: { title: 'Café culture', body: 'espresso' } },
    { namespace: 'notes', type: 'article', id: 'a3', data: { title: 'Other', body: 'nothing here' } },
  ]);
  await docs.declareSearch([{ namespace: 'notes', type: 'article', fields: ['data.title', 'data.body'] }]);
  return repo;
}

describe('client.search in chromium', () => {
  it('anonymous, from the search index; the search chunk loads on the first search only', async () => {
    const repo = await searchableSection();
    const page = await world.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      const name = basename(new URL(r.url()).pathname);
      if (/^docdb\..*\.js$/.test(name)) scripts.push(name);
    });
    const step = (what: 'get' | 'search') =>
      page.evaluate(
        async ({ what, repo, apiUrl, owner }) => {
          const w = window as unknown as { docdb: Docdb; client?: Awaited<ReturnType<Docdb['loadDocDbClient']>> };
          w.client ??= await w.docdb.loadDocDbClient({ owner, repo, apiUrl });
          if (what === 'get') {
            const got = await w.client.get({ namespace: 'notes', doc_type: 'article', id: 'a1' });
            return { ids: got.document ? [got.document.id] : [], requests: got.requests };
          }
          const r = await w.client.search('CAFE', { namespace: 'notes', type: 'article' });
          return { ids: r.hits.map((h) => h.id), fields: r.hits.map((h) => h.fields), requests: r.requests };
        },
        { what, repo, apiUrl: world.em.url, owner: OWNER },
      );
    expect((await step('get')).ids).toEqual(['a1']);
    // The entry and its static chunks were loaded with the page; a get needs nothing more.
    expect(scripts).toEqual([]);
    const first = await step('search');
    expect(first).toMatchObject({ ids: ['a2'], fields: [['data.title']] });
    expect(first.requests).toBeGreaterThan(0);
    // Anonymous: the ref, the declaration, the manifest, the word's shard, the delta, the table part, the document.
    expect(first.requests).toBeLessThanOrEqual(7);
    expect(scripts.some((s) => s.startsWith('docdb.chunk-search'))).toBe(true);
    expect(scripts.filter((s) => s.startsWith('docdb.chunk-write-kit'))).toEqual([]);
    const loaded = scripts.length;
    expect((await step('search')).ids).toEqual(['a2']);
    expect(scripts).toHaveLength(loaded);
  }, 60_000);
});
