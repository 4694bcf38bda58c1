/**
 * Issue 38's budget for `references` on the GitHub API store, counted at the transport against the emulator:
 * against a 100,000-document type, at most 3 extra requests when that type indexes `id`, otherwise one listing
 * of its keys (the requests of a cold `list` of that type) — and never a read of the referenced documents. A
 * refused write sends no mutating request and leaves the section's tip where it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ExpectationsFailed } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import type { TypeExpectations } from '../../src/document/expect/index.js';
import { DECLARATION_KEY, serializeDeclaration } from '../../src/document/indexes/declaration.js';
import { buildIndex, type IndexDeclaration } from '../../src/document/indexes/index.js';
import { emulatorPerFile, freshRepo, meteredTransport, newMeter, OWNER, store } from './helpers.js';

const fx = emulatorPerFile();
const shared = { repo: '' };
const REF = 'refs/docdb/documents';
const N = 100_000;
const DECLARATION: IndexDeclaration = { version: 1, indexes: [{ namespace: 'bench', type: 'item', fields: ['id'] }] };
const id = (i: number) => `g${i % 50}/item-${i}`;
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** 100,000 documents of `bench/item` (an index on `id`) and of `bench/plain` (no index), committed straight in. */
function seed(): void {
  const files: Record<string, string | null> = { 'README.md': null };
  const indexed = [];
  for (let i = 0; i < N; i++) {
    for (const type of ['item', 'plain']) {
      const bytes = encodeEnvelope({ namespace: 'bench', type, id: id(i), data: { i } });
      files[`bench/${type}/${id(i)}.json`] = text(bytes);
      if (type === 'item') indexed.push({ namespace: 'bench', type, id: id(i), blobSha: blobSha(bytes), data: { i } });
    }
  }
  for (const [path, bytes] of buildIndex(DECLARATION, indexed)) files[path] = text(bytes);
  files[DECLARATION_KEY] = text(serializeDeclaration(DECLARATION));
  fx.em.state.commitFiles(`${OWNER}/${shared.repo}`, { branch: REF, files, message: `seed 2 × ${N} documents` });
}

const refsTo = (target: string): TypeExpectations[] => [
  { namespace: 'bench', type: 'issue', expectations: { references: { 'data.item': target } } },
];
const issue = (n: number, item: string) => ({ namespace: 'bench', type: 'issue', id: `i${n}`, data: { item } });

/** A cold DocumentStore on the seeded repository and the meter of its requests. */
function cold() {
  const meter = newMeter();
  return { meter, docs: new DocumentStore(store(fx.em, shared.repo, { transport: meteredTransport(meter) })) };
}

const paths = (meter: ReturnType<typeof newMeter>) => JSON.stringify(meter.log.map((l) => `${l.path} ${l.status}`));

describe('references against a 100,000-document type on the GitHub API store', () => {
  beforeAll(() => {
    shared.repo = freshRepo(fx.em);
    seed();
  }, 300_000);

  it('with an index on id: at most 3 extra requests; the referenced documents are not read', async () => {
    const without = cold();
    await without.docs.put(issue(1, id(5)));
    const withExpect = cold();
    const r = await withExpect.docs.putMany([issue(2, id(77_777))], { expect: refsTo('bench/item') });
    expect(r.changed).toBe(true);
    const extra = withExpect.meter.requests - without.meter.requests;
    // Measured: 2 — one GraphQL query for bench/item's manifest, one for the part its id sorts into.
    expect(extra, `${paths(without.meter)} vs ${paths(withExpect.meter)}`).toBe(2);
    expect(extra).toBeLessThanOrEqual(3);
    expect(withExpect.meter.log.some((l) => /\/contents\/|\/git\/blobs\//.test(l.path))).toBe(false);
  }, 120_000);

  it("without an index: one listing of the type's keys — the requests of a cold list of it, no more", async () => {
    const listing = cold();
    await listing.docs.store.list({ prefix: 'bench/plain/' });
    // Its ref, commit and root tree are the write's own reads too (measured: 41 requests, 38 of them new).
    const listRequests = listing.meter.requests - 3;
    const without = cold();
    await without.docs.put(issue(3, id(6)));
    const withExpect = cold();
    await withExpect.docs.putMany([issue(4, id(99_999))], { expect: refsTo('bench/plain') });
    const extra = withExpect.meter.requests - without.meter.requests;
    expect(
      extra,
      `${paths(listing.meter)} | ${paths(without.meter)} vs ${paths(withExpect.meter)}`,
    ).toBeLessThanOrEqual(listRequests);
  }, 120_000);

  it('a missing id is refused: no mutating request, the tip unchanged, the tip named in the error', async () => {
    const db = fx.em.state.repo(`${OWNER}/${shared.repo}`).db;
    const tip = db.readRef(REF);
    const from = fx.em.requests.length;
    const { docs } = cold();
    const e = await docs.putMany([issue(5, 'g1/item-100000')], { expect: refsTo('bench/item') }).catch((x) => x);
    expect(e).toBeInstanceOf(ExpectationsFailed);
    expect((e as ExpectationsFailed).data.version).toBe(tip);
    expect((e as ExpectationsFailed).data.violations).toEqual([
      {
        expectation: 'references',
        field: 'data.item',
        key: 'bench/issue/i5.json',
        message: 'data.item names no document of bench/item',
      },
    ]);
    expect(fx.em.requests.slice(from).filter((q) => q.method !== 'GET' && !q.path.endsWith('/graphql'))).toEqual([]);
    expect(db.readRef(REF)).toBe(tip);
  }, 120_000);
});

describe('max-removed on the GitHub API store', () => {
  it('a refused prune costs the ref, commit and one listing, and writes nothing; an allowed one costs what the write costs without it', async () => {
    const seedStore = new DocumentStore(store(fx.em, fx.repo));
    await seedStore.putMany(
      Array.from({ length: 40 }, (_, i) => ({ namespace: 'g', type: 'repo', id: `o/r${i}`, data: { i } })),
    );
    const db = fx.em.state.repo(`${OWNER}/${fx.repo}`).db;
    const tip = db.readRef(REF);
    const del = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        op: 'delete' as const,
        identity: { namespace: 'g', doc_type: 'repo', id: `o/r${i}` },
      }));
    const expect10 = [{ namespace: 'g', type: 'repo', expectations: { maxRemoved: '10%' as const } }];
    const fresh = () => {
      const meter = newMeter();
      return { meter, docs: new DocumentStore(store(fx.em, fx.repo, { transport: meteredTransport(meter) })) };
    };
    const refused = fresh();
    const e = await refused.docs.commit(del(24), { expect: expect10 }).catch((x) => x);
    expect(e).toBeInstanceOf(ExpectationsFailed);
    expect((e as ExpectationsFailed).data.violations[0]?.message).toBe(
      'the write removes 24 of 40 documents (60%); max-removed allows 10% (4)',
    );
    expect(db.readRef(REF)).toBe(tip);
    // The ref, its commit, and the listing of g/repo/ (one recursive tree read): nothing is created.
    expect(
      refused.meter.log.map((l) => l.path.replace(/^\/repos\/[^/]+\/[^/]+/, '').replace(/[0-9a-f]{40}/, 'SHA')),
    ).toEqual(['/git/ref/docdb/documents', '/git/commits/SHA', '/git/trees/SHA']);
    const without = fresh();
    await without.docs.commit(del(1));
    const allowed = fresh();
    await allowed.docs.commit(del(2).slice(1), { expect: expect10 });
    // Measured: 0 — the listing is the tree the delete reads anyway (cached by SHA in the store).
    expect(allowed.meter.requests - without.meter.requests, `${paths(without.meter)} vs ${paths(allowed.meter)}`).toBe(
      0,
    );
  }, 120_000);
});
