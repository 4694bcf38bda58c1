/**
 * `docs.migrate` on the GitHub API emulator (issue 38, Migrations), counted in the emulator's request log:
 * - the budget: migrating a type costs at most 1.2x the requests of writing its documents from scratch.
 *   At 5,000 documents of ~1 KB with create-tree requests cut at 100 KiB, a write from scratch takes ~55
 *   create-tree requests — what 50,000 documents take at the default cut (bench/migrate.ts runs that size);
 *   the migration adds the read of the type (the archive: ref, commit, tree, tarball, codeload);
 * - a dry run sends no write request;
 * - a write that lands while the migration uploads: the ref update loses, the rebase's guard refuses, and
 *   the section holds the other write and nothing of the migration.
 */
import { describe, expect, it } from 'vitest';
import { ConcurrentUpdate } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { nodeArchiveReader } from '../../src/stores/remote-api/node-archive.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { emulatorPerFile, freshRepo, OWNER, since, store, untimedFetch } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const N = 5_000;
const CUT = 100 * 1024;

const documents = () =>
  Array.from({ length: N }, (_, i) => ({
    namespace: 'gh',
    type: 'repo',
    id: `r${String(i).padStart(5, '0')}`,
    data: { stars: i, old: `v${i}`, pad: 'x'.repeat(1000) },
  }));

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const isWrite = (r: { method: string; operation?: string }) => WRITES.has(r.method) && r.operation !== 'graphql';

describe('migrating a type costs at most 1.2x writing it from scratch', () => {
  it(`${N} documents, every one changed: requests counted in the emulator's log`, async () => {
    const fromScratch = fx.em.requests.length;
    await new DocumentStore(store(fx.em, fx.repo, { maxInlineBytes: CUT })).putMany(documents());
    const scratch = since(fx.em, fromScratch).length;

    // A cold store (a new process): nothing cached, the type read through the archive.
    const docs = new DocumentStore(store(fx.em, fx.repo, { maxInlineBytes: CUT, archive: nodeArchiveReader() }));
    const from = fx.em.requests.length;
    const r = await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [
        { op: 'rename', from: 'data.old', to: 'data.label' },
        { op: 'cast', field: 'data.stars', to: 'string' },
      ],
    });
    const migration = since(fx.em, from);
    expect(r.counts).toEqual({ read: N, changed: N, unchanged: 0, moved: 0 });
    expect(migration.filter((q) => q.operation === 'git/create-commit')).toHaveLength(1);
    expect(scratch).toBeGreaterThan(40); // the size this test stands for: many create-tree requests
    expect(migration.length).toBeLessThanOrEqual(Math.floor(scratch * 1.2));
    expect(r.requests).toBe(migration.length);
    const got = await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r04999' });
    expect(got?.data).toEqual({ stars: '4999', label: 'v4999', pad: 'x'.repeat(1000) });
  }, 120_000);
});

describe('moving a type costs at most 1.2x writing it from scratch', () => {
  it(`${N} documents moved to another type: the old type goes as one tree entry, not ${N} deletes`, async () => {
    const fromScratch = fx.em.requests.length;
    await new DocumentStore(store(fx.em, fx.repo, { maxInlineBytes: CUT })).putMany(documents());
    const scratchRequests = since(fx.em, fromScratch);
    const scratch = scratchRequests.length;
    const docs = new DocumentStore(store(fx.em, fx.repo, { maxInlineBytes: CUT, archive: nodeArchiveReader() }));
    const from = fx.em.requests.length;
    const r = await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'move-type', namespace: 'hub', type: 'project' }],
    });
    const migration = since(fx.em, from);
    expect(r.counts.moved).toBe(N);
    // Deleted one by one, the 5,000 old keys would take 6 more create-tree requests at this cut (70
    // requests in all, 1.19x); as one entry they ride in the last request of the new type's puts (64, 1.08x).
    const creates = (q: { operation?: string }[]) => q.filter((x) => x.operation === 'git/create-tree').length;
    expect(creates(migration)).toBeLessThanOrEqual(creates(scratchRequests) + 1);
    expect(migration.length).toBeLessThanOrEqual(Math.floor(scratch * 1.2));
    const fresh = new DocumentStore(store(fx.em, fx.repo));
    expect((await fresh.list({ namespace: 'gh', type: 'repo' })).documents).toHaveLength(0);
    expect((await fresh.list({ namespace: 'hub', type: 'project' })).documents).toHaveLength(N);
  }, 120_000);
});

describe('the archive is read once, whatever the cache holds', () => {
  it('a type larger than the store cache: one tarball for the whole dry run', async () => {
    await new DocumentStore(store(fx.em, fx.repo)).putMany(documents().slice(0, 3_000));
    // ~3.3 MB of documents, a 1 MiB cache: values read page by page would each need the archive again.
    const docs = new DocumentStore(
      store(fx.em, fx.repo, { archive: nodeArchiveReader(), cache: { maxBytes: 1024 * 1024 } }),
    );
    const from = fx.em.requests.length;
    const r = await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'drop', field: 'data.old' }],
      dryRun: true,
    });
    expect(r.counts.changed).toBe(3_000);
    const sent = since(fx.em, from);
    expect(sent.filter((q) => q.operation === 'repos/download-tarball-archive')).toHaveLength(1);
    expect(sent.length).toBeLessThanOrEqual(6);
  }, 60_000);
});

describe('dry run', () => {
  it('reads the type and sends no write request', async () => {
    await new DocumentStore(store(fx.em, fx.repo)).putMany(documents().slice(0, 300));
    const docs = new DocumentStore(store(fx.em, fx.repo, { archive: nodeArchiveReader() }));
    const from = fx.em.requests.length;
    const r = await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'move-type', namespace: 'hub', type: 'project' }],
      dryRun: true,
    });
    expect(r.counts).toEqual({ read: 300, changed: 0, unchanged: 0, moved: 300 });
    expect(r.samples).toHaveLength(5);
    const sent = since(fx.em, from);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter(isWrite)).toEqual([]);
  });
});

describe('a write that lands while the migration uploads', () => {
  it('the ref update loses, the guard refuses the rebase: the section holds the other write only', async () => {
    const repo = freshRepo(fx.em);
    await new DocumentStore(store(fx.em, repo)).putMany(documents().slice(0, 50));
    let raced = false;
    const inner = untimedFetch();
    // On the migration's first create-tree, another writer commits to the section.
    const transport: HttpTransport = {
      request: (req) => {
        if (!raced && req.method === 'POST' && new URL(req.url).pathname.endsWith('/git/trees')) {
          raced = true;
          fx.em.state.commitFiles(`${OWNER}/${repo}`, { branch: REF, files: { 'gh/other/x.json': '{}' } });
        }
        return inner.request(req);
      },
    };
    const docs = new DocumentStore(store(fx.em, repo, { transport }));
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: [{ op: 'drop', field: 'data.pad' }] })
      .catch((e) => e);
    expect(raced).toBe(true);
    expect(err).toBeInstanceOf(ConcurrentUpdate);
    expect(err.message).toMatch(/after the migration read it; nothing was written/);
    const tip = fx.em.state.repo(`${OWNER}/${repo}`).db.readRef(REF);
    const fresh = new DocumentStore(store(fx.em, repo));
    expect(await fresh.head()).toBe(tip);
    expect(await fresh.store.get('gh/other/x.json')).not.toBeNull();
    expect((await fresh.get({ namespace: 'gh', doc_type: 'repo', id: 'r00001' }))?.data).toHaveProperty('pad');
  });
});
