/**
 * Issue 38's request budget for schemas on the GitHub API store, counted in the emulator's log: a put to a
 * type with a schema costs the same requests as a put without one when the declarations are cached for the
 * tip (the type's declaration file is read in the hook's ONE first round, with the index declaration, and
 * its tree levels stay cached while unchanged), at most +1 when another writer moved the tip; the first
 * (cold) put costs the same too. Declaring a schema over documents already in the section reads them the
 * way bulk reads do: one listing of the type, then the bulk read.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { emulatorPerFile, freshRepo, ops, store } from './helpers.js';

const fx = emulatorPerFile();
const T = { namespace: 'github', type: 'repo' };
const SCHEMA = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer' } } };
const repo = (id: string, stars: number) => ({ namespace: 'github', type: 'repo', id, data: { stars } });

/** Requests of `write` on a store, as `METHOD operation status` lines. */
async function cost(write: () => Promise<unknown>): Promise<string[]> {
  const from = fx.em.requests.length;
  await write();
  return ops(fx.em, from);
}

/** A section with 3 documents (and a schema on their type, or not), as a fresh writer finds it. */
async function section(withSchema: boolean): Promise<string> {
  const repoName = freshRepo(fx.em);
  const setup = new DocumentStore(store(fx.em, repoName));
  await setup.putMany([repo('o/a', 1), repo('o/b', 2), repo('o/c', 3)]);
  if (withSchema) await setup.declareSchema(T, SCHEMA);
  return repoName;
}

describe('a put to a type with a schema costs what a put without one does', () => {
  it('cold, then with the declarations cached for the tip: the same requests as without a schema', async () => {
    const runs: Record<string, { cold: string[]; warm: string[] }> = {};
    for (const withSchema of [false, true]) {
      const docs = new DocumentStore(store(fx.em, await section(withSchema)));
      const cold = await cost(() => docs.put(repo('o/a', 10)));
      const warm = await cost(() => docs.put(repo('o/b', 20)));
      runs[String(withSchema)] = { cold, warm };
    }
    expect(runs.true).toEqual(runs.false);
    expect(runs.true?.warm).toEqual([
      'GET git/get-ref 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(runs.true?.cold).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'POST graphql 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
  });

  it('after another writer moved the tip: at most one request more than without a schema', async () => {
    const runs: Record<string, string[]> = {};
    for (const withSchema of [false, true]) {
      const name = await section(withSchema);
      const docs = new DocumentStore(store(fx.em, name));
      await docs.put(repo('o/a', 10)); // warm: the declarations cached for this tip
      await new DocumentStore(store(fx.em, name)).put(repo('o/c', 30)); // another writer moves it
      runs[String(withSchema)] = await cost(() => docs.put(repo('o/b', 20)));
    }
    console.log(
      `[schema budget] moved tip: without a schema ${runs.false?.length}, with ${runs.true?.length} requests`,
    );
    // The budget allows +1; measured: none (the moved tip's `_docdb/` tree is the one already cached).
    expect(runs.true?.length).toBeLessThanOrEqual((runs.false?.length ?? 0) + 1);
    expect(runs.true).toEqual(runs.false);
  });

  it('a refused put costs no write request: the reads only, nothing created', async () => {
    const docs = new DocumentStore(store(fx.em, await section(true)));
    await docs.put(repo('o/a', 10));
    const refused = await cost(() =>
      docs.put({ namespace: 'github', type: 'repo', id: 'o/x', data: { stars: 'x' } }).catch(() => undefined),
    );
    expect(refused).toEqual(['GET git/get-ref 200']);
  });
});

describe('declaring a schema over documents already in the section', () => {
  it('reads the type once: one listing and the bulk read of its documents (GraphQL batches); force reads none', async () => {
    const name = freshRepo(fx.em);
    const docs = new DocumentStore(store(fx.em, name));
    await docs.putMany(Array.from({ length: 300 }, (_, i) => repo(`o/r${i}`, i)));
    const fresh = new DocumentStore(store(fx.em, name));
    const declared = await cost(() => fresh.declareSchema(T, SCHEMA));
    console.log(`[schema budget] declaring over 300 documents: ${declared.length} requests: ${declared.join(', ')}`);
    const force = new DocumentStore(store(fx.em, name));
    const forced = await cost(() => force.declareSchema(T, { ...SCHEMA, required: [] }, { force: true }));
    console.log(`[schema budget] with force: ${forced.length} requests`);
    // The scan: one recursive tree listing and 3 GraphQL batches (100 blobs each) — 4 requests for 300 documents.
    expect(declared.length).toBe(forced.length + 4);
    expect(declared.filter((o) => o === 'GET git/get-tree 200')).toHaveLength(1);
  });
});
