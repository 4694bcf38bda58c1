/**
 * `client.query(...)` and `client.indexes()` in real chromium against the emulator on loopback (issue 28
 * item 4): the browser bundle answers a query from the section's index — with a token, and anonymously on
 * a public repository, where GitHub allows 60 requests an hour — and reads no document for it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { indexedSectionFiles } from '../document/indexed-section.js';
import { freshRepo, OWNER, store, TOKEN } from '../remote-api/helpers.js';
import { chromiumAndEmulator } from './emulator-page.js';

const world = chromiumAndEmulator();
const newPage = () => world.newPage();

/** A section of 30 repositories with an index on language and stars, as the library writes it. */
async function indexedSection(): Promise<string> {
  const repo = freshRepo(world.em);
  const documents = Array.from({ length: 30 }, (_, i) => ({
    namespace: 'github',
    type: 'repo',
    id: `octo/r${String(i).padStart(2, '0')}`,
    data: { language: i % 3 === 0 ? 'Go' : 'TypeScript', stars: i * 10 },
  }));
  const files = await indexedSectionFiles(documents, [
    { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] },
  ]);
  world.em.state.commitFiles(`${OWNER}/${repo}`, { branch: 'refs/docdb/documents', orphan: true, files });
  return repo;
}

/** The section's blobs: the documents' and the index's (`_docdb/`), to tell apart what the emulator served. */
async function sectionBlobs(repo: string): Promise<{ documents: Set<string>; index: Set<string> }> {
  const { entries } = await store(world.em, repo).list();
  const of = (index: boolean) =>
    new Set(entries.filter((e) => e.key.startsWith('_docdb/') === index).map((e) => e.blobSha));
  const out = { documents: of(false), index: of(true) };
  expect(out.documents.size).toBe(30);
  return out;
}

/** Every blob whose bytes the emulator answered with since request `from` (its log's `blobs`). */
const servedBlobs = (from: number) => world.em.requests.slice(from).flatMap((x) => x.blobs ?? []);

interface QueryOutcome {
  ids: string[];
  stars: unknown[];
  answeredBy: string;
  documents: boolean;
  version: string | null;
  requests: number | undefined;
  declared: unknown;
}

/** In the page: load a remote client (with the token, or anonymous) and query the section. */
function pageQuery(page: Page, args: { repo: string; token: string | null }): Promise<QueryOutcome> {
  return page.evaluate(
    async ({ repo, apiUrl, owner, token }) => {
      const { loadDocDbClient } = (window as unknown as { docdb: typeof import('../../src/browser/index.js') }).docdb;
      const client = await loadDocDbClient({ owner, repo, apiUrl, hostCapabilities: { credentials: () => token } });
      const r = await client.query({
        namespace: 'github',
        type: 'repo',
        where: [
          { field: 'data.language', op: '=', value: 'Go' },
          { field: 'data.stars', op: '>=', value: 100 },
        ],
        orderBy: { field: 'data.stars', direction: 'desc' },
        limit: 3,
        fields: ['data.stars'],
      });
      const declared = (await client.indexes()).indexes;
      client.close();
      return {
        ids: r.rows.map((row) => row.id),
        stars: r.rows.map((row) => row.values['data.stars']),
        answeredBy: r.answeredBy,
        documents: r.documents !== undefined,
        version: r.version,
        requests: r.requests,
        declared,
      };
    },
    { ...args, apiUrl: world.em.url, owner: OWNER },
  );
}

describe('client.query in chromium', () => {
  it('answers from the index with fields alone: no document is read', async () => {
    const repo = await indexedSection();
    const tip = await new DocumentStore(store(world.em, repo)).head();
    const blobs = await sectionBlobs(repo);
    const page = await newPage();
    const from = world.em.requests.length;
    const r = await pageQuery(page, { repo, token: TOKEN });
    expect(r).toMatchObject({
      ids: ['octo/r27', 'octo/r24', 'octo/r21'],
      stars: [270, 240, 210],
      answeredBy: 'index',
      documents: false,
      version: tip,
      declared: [{ namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] }],
    });
    expect(r.requests).toBeGreaterThan(0);
    expect(r.requests).toBeLessThanOrEqual(12);
    // What the emulator served, by blob, whichever route carried it (GraphQL bodies are not in the log):
    // index parts, and not one document.
    const served = servedBlobs(from);
    expect(served.filter((sha) => blobs.documents.has(sha))).toEqual([]);
    expect(served.filter((sha) => blobs.index.has(sha)).length).toBeGreaterThan(0);
  });

  it('anonymous, on a public repository: the same answer without a token', async () => {
    const repo = await indexedSection();
    const blobs = await sectionBlobs(repo);
    const page = await newPage();
    const from = world.em.requests.length;
    const r = await pageQuery(page, { repo, token: null });
    expect(r).toMatchObject({ ids: ['octo/r27', 'octo/r24', 'octo/r21'], answeredBy: 'index' });
    expect(world.em.requests.slice(from).every((x) => !x.authenticated)).toBe(true);
    const served = servedBlobs(from);
    expect(served.filter((sha) => blobs.documents.has(sha))).toEqual([]);
    expect(served.filter((sha) => blobs.index.has(sha)).length).toBeGreaterThan(0);
  });
});
