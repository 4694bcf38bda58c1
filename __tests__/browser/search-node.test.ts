/**
 * `client.declareSearch`, `client.searchDeclaration` and `client.search` of loadDocDbClient in Node against
 * the emulator (issue 42): declared in one commit, searched with a token in a few requests (what the result
 * says it cost is what the transport carried), anonymously on a public repository, and a cold client with
 * no cache pays the same small count; a type without a search index is InvalidConfig naming `type`; a damaged
 * shard is repaired by `client.rebuildSearch`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocDbClient, loadDocDbClient } from '../../src/browser/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { emulator, freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';

const NOTES = [
  { type: 'article', id: 'a1', data: { title: 'Full-text search in git', body: 'An inverted index' } },
  { type: 'article', id: 'a2', data: { title: 'Café culture', body: 'Espresso and croissants' } },
  { type: 'page', id: 'p1', data: { title: 'Help', body: 'How to search the documentation' } },
  { type: 'draft', id: 'd1', data: { title: 'Search draft' } },
];
const FIELDS = ['data.title', 'data.body'];

let em: EmulatorHandle;
beforeAll(async () => {
  em = await emulator();
});
afterAll(async () => {
  await em?.stop();
});

/** A remote client on `repo`, with the token or anonymous. */
const clientOn = (repo: string, token: string | null): Promise<DocDbClient> =>
  loadDocDbClient({ owner: OWNER, repo, apiUrl: em.url, hostCapabilities: { credentials: () => token } });

/** A fresh public repository holding NOTES with a search index on article and page; the writing client. */
async function searchableRepo(): Promise<{ repo: string; writer: DocDbClient }> {
  const repo = freshRepo(em);
  const writer = await clientOn(repo, TOKEN);
  await writer.putMany(NOTES.map((n) => ({ namespace: 'notes', ...n })));
  const declared = await writer.declareSearch([
    { namespace: 'notes', type: 'article', fields: FIELDS },
    { namespace: 'notes', type: 'page', fields: FIELDS },
  ]);
  expect(declared.changed).toBe(true);
  return { repo, writer };
}

describe('client.search on the remote backend', () => {
  it('declares in one commit, shows the declaration, ranks hits with their documents', async () => {
    const { repo, writer } = await searchableRepo();
    expect(await writer.searchDeclaration()).toEqual({
      version: 1,
      search: [
        { namespace: 'notes', type: 'article', fields: FIELDS },
        { namespace: 'notes', type: 'page', fields: FIELDS },
      ],
    });
    const reader = await clientOn(repo, TOKEN);
    const r = await reader.search<{ title: string }>('search', { namespace: 'notes' });
    expect(r.hits.map((h) => `${h.type}/${h.id}`).sort()).toEqual(['article/a1', 'page/p1']);
    expect(r.total).toBe(2);
    expect(r.version).toBe(await writer.head());
    const a1 = r.hits.find((h) => h.id === 'a1')!;
    expect(a1).toMatchObject({ namespace: 'notes', fields: ['data.title'] });
    expect(a1.document.data.title).toBe('Full-text search in git');
    expect(r.hits[0]!.score).toBeGreaterThanOrEqual(r.hits[1]!.score);
    // What the result says it cost is what went over the wire.
    expect(r.requests).toBe(reader.stats().requests);
    writer.close();
    reader.close();
  });

  it('one word, one type, cold: a few requests with a token, and anonymously on a public repository', async () => {
    const { repo, writer } = await searchableRepo();
    writer.close();
    for (const token of [TOKEN, null]) {
      const cold = await clientOn(repo, token);
      const r = await cold.search('espresso', { namespace: 'notes', type: 'article' });
      expect(r.hits.map((h) => h.id)).toEqual(['a2']);
      expect(r.requests).toBe(cold.stats().requests);
      const sent = em.requests.slice(-(r.requests ?? 0)).map((x) => `${x.method} ${x.path}`);
      if (token) {
        // One GraphQL query per round: the tip with the declaration and the manifest, the word's shard, the
        // page's document-table part, the page's documents (the library's budget: search-budget.test.ts).
        console.log(`[browser search] one word, one type, cold: ${sent.length} requests`);
        expect(sent).toEqual(Array(4).fill('POST /graphql'));
      } else {
        // No GraphQL without a token: the ref, then one contents read per file, none read twice — the
        // manifest, the word's shard, the delta of recent writes and the page's document-table part.
        expect(sent.every((x) => x.startsWith('GET '))).toBe(true);
        expect(new Set(sent).size).toBe(sent.length);
        expect(sent.filter((x) => x.includes('/contents/_docdb/search/'))).toHaveLength(4);
        expect(sent.length).toBeLessThanOrEqual(7);
      }
      cold.close();
    }
  });

  it('a type without a search index is InvalidConfig naming type', async () => {
    const { repo, writer } = await searchableRepo();
    writer.close();
    const reader = await clientOn(repo, TOKEN);
    await expect(reader.search('search', { namespace: 'notes', type: 'draft' })).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { field: 'type' },
    });
    reader.close();
  });
});

describe('client.rebuildSearch', () => {
  it('a damaged term shard fails search until the client rebuilds the type in one commit', async () => {
    const { repo, writer } = await searchableRepo();
    const raw = store(em, repo);
    const [shard] = (await raw.list({ prefix: '_docdb/search/notes/article/terms/' })).entries.map((e) => e.key);
    await raw.put(shard!, 'not a shard\n');
    const reader = await clientOn(repo, TOKEN);
    await expect(reader.search('espresso', { namespace: 'notes', type: 'article' })).rejects.toThrow(
      /search shard .*docs\.rebuildSearch/,
    );
    const before = await writer.head();
    const r = await writer.rebuildSearch([{ namespace: 'notes', type: 'article' }]);
    expect(r).toMatchObject({ changed: true, previousVersion: before });
    expect((await reader.search('espresso', { namespace: 'notes', type: 'article' })).hits.map((h) => h.id)).toEqual([
      'a2',
    ]);
    await expect(writer.rebuildSearch([{ namespace: 'notes', type: 'draft' }])).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { field: 'types[0]', namespace: 'notes', type: 'draft' },
    });
    writer.close();
    reader.close();
  });
});

describe('client.search on the memory backend', () => {
  it('declares and searches with no request at all', async () => {
    const client = await loadDocDbClient({ backend: 'memory' });
    await client.putMany(NOTES.map((n) => ({ namespace: 'notes', ...n })));
    await client.declareSearch([{ namespace: 'notes', type: 'article', fields: FIELDS }]);
    const r = await client.search('cafe', { namespace: 'notes' });
    expect(r.hits.map((h) => h.id)).toEqual(['a2']);
    expect(client.stats().requests).toBe(0);
    client.close();
  });
});
