/**
 * `docs.rebuildSearch` (search-rebuild.ts): a damaged term shard refuses every search of its type — a small
 * write goes to the delta and never reads the shard, and declaring the same fields writes nothing — until the
 * type's search is rebuilt from its documents, in ONE commit. Run on the memory store and on the GitHub API
 * store against the emulator (requests counted at the transport).
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import type { RefStore } from '../../../src/core/refstore.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { SEARCH_DECLARATION_KEY, SEARCH_ROOT } from '../../../src/document/search/index.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';
import { store as apiStore, emulatorPerFile, meteredTransport, newMeter } from '../../remote-api/helpers.js';
import { assertNoStrayFiles, assertSearchExact } from './search-oracle.js';

const REPO = { namespace: 'github', type: 'repo', fields: ['data.title', 'data.body'] };
const WHERE = { namespace: 'github', type: 'repo' };
const OPTIONS = { search: { maxShardBytes: 512 } };
const doc = (i: number, title: string) => ({
  namespace: 'github',
  type: 'repo',
  id: `o/r${i}`,
  data: { title, body: `body of r${i} with word${i % 7} and filler${i}` },
});
const enc = (s: string) => new TextEncoder().encode(s);

/** A fresh section: a store to set it up, and `cold()` — a store over the same section with nothing cached,
 * counting the requests it sends and those that write (remote only: the memory store sends none). */
interface Section {
  store: RefStore;
  cold(): { store: RefStore; requests: () => number; writes: () => number; log: () => string[] };
}

const fx = emulatorPerFile();
const backends: { name: string; remote: boolean; open(): Section }[] = [
  {
    name: 'memory store',
    remote: false,
    open: () => {
      const store = new MemoryRefStore();
      return { store, cold: () => ({ store, requests: () => 0, writes: () => 0, log: () => [] }) };
    },
  },
  {
    name: 'GitHub API store (emulator)',
    remote: true,
    open: () => ({
      store: apiStore(fx.em, fx.repo),
      cold: () => {
        const meter = newMeter();
        const store = apiStore(fx.em, fx.repo, { transport: meteredTransport(meter) });
        const writes = () => meter.log.filter((l) => /\/git\/(trees|commits|refs|blobs)$/.test(l.path)).length;
        const log = () => meter.log.map((l) => `${l.path} ${l.status}`);
        return { store, requests: () => meter.requests, writes, log };
      },
    }),
  },
];

/** A searchable type of 40 documents over several shards, then one term shard overwritten by a raw write. */
async function damagedSection(store: RefStore): Promise<{ docs: DocumentStore; shard: string }> {
  const docs = new DocumentStore(store, OPTIONS);
  await docs.putMany(
    Array.from({ length: 40 }, (_, i) => doc(i, `alpha${i % 5} common`)),
    { search: [REPO] },
  );
  const shards = (await store.list({ prefix: `${SEARCH_ROOT}github/repo/terms/` })).entries.map((e) => e.key);
  expect(shards.length).toBeGreaterThan(1);
  await store.put(shards[0]!, enc('not a shard\n'));
  return { docs, shard: shards[0]! };
}

describe.each(backends)('rebuildSearch on the $name', (backend) => {
  it('a damaged shard refuses search, survives a small write, and is rebuilt in one commit', async () => {
    const section = backend.open();
    const { docs, shard } = await damagedSection(section.store);
    const refused = docs.search('common', WHERE);
    await expect(refused).rejects.toThrow(InvalidResponse);
    await expect(refused).rejects.toThrow(/docs\.rebuildSearch.*doc search-index --rebuild/);
    await docs.put(doc(99, 'common gamma'));
    await expect(docs.search('common', WHERE)).rejects.toMatchObject({ data: { key: shard } });
    // Declaring the same fields again writes nothing, so it cannot repair the shard.
    expect((await docs.declareSearch([REPO])).changed).toBe(false);

    const before = await docs.head();
    const { store, requests, log } = section.cold();
    const r = await new DocumentStore(store, OPTIONS).rebuildSearch([WHERE]);
    const spent = requests();
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBe(before);
    expect(r.written).toContain(shard);
    expect(r.written).not.toContain(SEARCH_DECLARATION_KEY);
    expect((await store.history(`${SEARCH_ROOT}github/repo/manifest.json`, { limit: 1 })).entries[0]!.version).toBe(
      r.version,
    );
    if (backend.remote) {
      console.log(`[rebuildSearch] 41 documents: ${spent} requests`);
      // ref + commit; the declarations' first read round (declaration, manifests: one GraphQL query); the
      // type's listing (one recursive tree); its 41 documents (one GraphQL query by oid); the paths the
      // commit deletes and rewrites, resolved (one query); create tree, create commit, update ref. The old
      // files need no read: their paths are in the manifest.
      expect(spent, JSON.stringify(log())).toBe(REBUILD_REQUESTS);
    }
    for (const words of ['common', 'gamma', 'alpha3', 'word4 filler1']) await assertSearchExact(docs, words, WHERE);
    await assertNoStrayFiles(store, [REPO]);
  }, 60_000);

  it('a type without search declared is InvalidConfig naming it, and nothing is written', async () => {
    const section = backend.open();
    await new DocumentStore(section.store).putMany([doc(1, 'one'), { ...doc(2, 'two'), type: 'issue' }], {
      search: [REPO],
    });
    const { store, writes } = section.cold();
    const docs = new DocumentStore(store, OPTIONS);
    const before = await docs.head();
    const refused = docs.rebuildSearch([WHERE, { namespace: 'github', type: 'issue' }]);
    await expect(refused).rejects.toThrow(InvalidConfig);
    await expect(refused).rejects.toMatchObject({
      message: expect.stringMatching(/github\/issue has no search declared.*declareSearch/),
      data: { field: 'types[1]', namespace: 'github', type: 'issue' },
    });
    expect(await docs.head()).toBe(before);
    expect(writes()).toBe(0);
  }, 60_000);

  it('a list that is not { namespace, type }[] is InvalidConfig naming the entry, before any request', async () => {
    const { store, requests } = backend.open().cold();
    const docs = new DocumentStore(store);
    const cases: [unknown, string][] = [
      ['github/repo', 'types'],
      [[], 'types'],
      [[{ namespace: 'github' }], 'types[0].type'],
      [[WHERE, { namespace: 'github', type: '' }], 'types[1].type'],
      [[{ ...WHERE, fields: ['data.title'] }], 'types[0]'],
      [[{ namespace: '..', type: 'repo' }], 'types[0].namespace'],
      [[WHERE, { namespace: 'github', type: 'a/b' }], 'types[1].type'],
      [Array.from({ length: 1001 }, () => WHERE), 'types'],
    ];
    for (const [types, field] of cases) {
      await expect(docs.rebuildSearch(types as never), JSON.stringify(types).slice(0, 60)).rejects.toMatchObject({
        code: 'InvalidConfig',
        data: { field },
      });
    }
    expect(requests()).toBe(0);
  });
});

/** Requests of the rebuild on the GitHub API store (measured; see the comment where it is asserted). */
const REBUILD_REQUESTS = 9;
