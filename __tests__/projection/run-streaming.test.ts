/**
 * A run with many changed documents hands them to the store in parts WHILE its sources are still being
 * read (issue 11: a backfill's memory must not grow with the size of the source), and still makes one
 * commit; a run with few changes commits them at the end with `commit`, as before.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../src/core/commit-parts.js';
import type { ChangeParts, CommitPartsOptions, RefStore, WriteResult } from '../../src/core/refstore.js';
import { runProjections } from '../../src/projection/run/index.js';
import { STREAM_PART } from '../../src/projection/run/streamed-commit.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

const PAGES = 12;
const PER_PAGE = 250;
const urls = Array.from({ length: PAGES }, (_, i) => `https://data.example.com/p${i}.json`);
/** A store that records, for each part it receives, how many source pages had been fetched by then. */
function observed(pagesFetched: () => number) {
  const inner = new MemoryRefStore();
  const parts: { size: number; pagesFetched: number }[] = [];
  let commits = 0;
  const store: RefStore = Object.create(inner);
  store.commit = async (changes, options): Promise<WriteResult> => {
    commits++;
    return inner.commit(changes, options);
  };
  store.commitParts = async (all: ChangeParts, options?: CommitPartsOptions) => {
    async function* watched() {
      for await (const part of all) {
        parts.push({ size: part.length, pagesFetched: pagesFetched() });
        yield part;
      }
    }
    commits++;
    return commitInParts(inner, watched(), options);
  };
  return { store, parts, commits: () => commits, inner };
}

function fakeFetch(pageIndex: (url: string) => number, per: number) {
  let fetched = 0;
  const fetch = (async (url: string) => {
    fetched++;
    const p = pageIndex(url);
    const items = Array.from({ length: per }, (_, i) => ({ id: p * per + i, v: `value ${p}-${i}` }));
    return new Response(JSON.stringify(items), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, fetched: () => fetched };
}

/** A backfill of one projection whose http source lists `pages`, each item's `id` its document id. */
function backfill(pages: string[], store: RefStore, fetch: typeof globalThis.fetch) {
  const yaml = `projections:\n  items:\n    source: { type: http, url: [${pages.map((u) => `"${u}"`).join(', ')}] }\n    identity: { id: "{item.id}" }\n`;
  return runProjections({
    spec: parseSpec(yaml, 'docdb.yml'),
    client: { request: async () => ({ status: 200, headers: {}, data: [] }) },
    store,
    fetch,
    mode: 'backfill',
  });
}

describe('a run streams its changes into the one commit', () => {
  it(`${PAGES * PER_PAGE} new documents: parts of ${STREAM_PART} reach the store before the last page is read; one commit`, async () => {
    const src = fakeFetch((u) => urls.indexOf(u), PER_PAGE);
    const obs = observed(src.fetched);
    const report = await backfill(urls, obs.store, src.fetch);
    expect(report.changed).toBe(true);
    expect(obs.commits()).toBe(1);
    expect(report.written.filter((k) => !k.startsWith('_docdb/'))).toHaveLength(PAGES * PER_PAGE);
    // Streamed: the first part (1,000 documents = 4 pages) reached the store while page 5 at most had been
    // read (reading goes on while the store takes the part), long before the 12th.
    expect(obs.parts[0]?.size).toBe(STREAM_PART);
    expect(obs.parts[0]?.pagesFetched).toBeLessThanOrEqual(STREAM_PART / PER_PAGE + 1);
    expect(obs.parts.at(-2)?.pagesFetched).toBeLessThan(PAGES);
    expect(obs.parts.reduce((a, p) => a + p.size, 0)).toBe(report.written.length);
  });

  it('few changes: one commit() at the end, no commit in parts', async () => {
    const src = fakeFetch(() => 0, 10);
    const obs = observed(src.fetched);
    const report = await backfill(['https://data.example.com/one.json'], obs.store, src.fetch);
    expect(report.changed).toBe(true);
    expect(obs.commits()).toBe(1);
    expect(obs.parts).toHaveLength(0);
  });
});
