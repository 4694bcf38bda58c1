/**
 * The merge of shard refs (src/projection/run/merge-shards.ts) as a library, against the emulator through
 * RemoteApiRefStore — the guards a workflow rarely meets, each fed what it guards against:
 * - a shard ref is read back untrusted: a document stored under a key its identity does not name, or two
 *   shards changing one key, fail the merge with the section and the shard refs untouched;
 * - shard trailers are parsed strictly; section names ending a component in `.shards` are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../src/core/errors.js';
import { sectionRef } from '../../src/core/refname.js';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { encodeEnvelope } from '../../src/document/envelope.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { mergeShards } from '../../src/projection/run/merge-shards.js';
import { withTrailers } from '../../src/projection/run/run-report.js';
import { shardMarkOf, shardRefOf, shardTrailers } from '../../src/projection/run/shard-refs.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';

const TOKEN = 'ghp_MergeShardsToken0123456789abcdef';
const REPO = 'octo/merge';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

const storeOn = (ref: string): RefStore =>
  new RemoteApiRefStore({
    transport: fetchTransport({ timeoutMs: 10_000 }),
    apiUrl: em.url,
    owner: 'octo',
    repo: 'merge',
    ref,
    token: TOKEN,
    sleep: async () => {},
  });
const db = () => em.state.repo(REPO).db;
const doc = (id: string, data: unknown) => ({ namespace: 'n', type: 't', id, data });

/** A section with one document, and `count` shard refs of run 9 branched from its tip. */
async function sectionWithShards(name: string, count: number, schema?: object) {
  const ref = `refs/docdb/${name}`;
  const section = new DocumentStore(storeOn(ref));
  let base = (await section.put(doc('a', 1))).version!;
  if (schema) base = (await section.declareSchema({ namespace: 'n', type: 't' }, schema)).version!;
  const shards = Array.from({ length: count }, (_, i) => {
    const shardRef = shardRefOf(ref, i + 1);
    db().compareAndSwapRef(shardRef, null, base);
    const message = withTrailers('docdb: project t', [
      'Docdb-Run: 9.1',
      ...shardTrailers({ index: i + 1, count }, base),
    ]);
    return { ref: shardRef, store: storeOn(shardRef), message };
  });
  const deleted: string[] = [];
  const merge = () =>
    mergeShards({
      section: storeOn(ref),
      shardStore: storeOn,
      count,
      run: '9.2',
      deleteRefs: async (list: readonly { ref: string }[]) => void deleted.push(...list.map((r) => r.ref)),
    });
  return { ref, base, shards, merge, deleted };
}

describe('mergeShards: untrusted shard refs', () => {
  it('folds two honest shards in one commit (the control case)', async () => {
    const s = await sectionWithShards('honest', 2);
    const [one, two] = s.shards;
    await new DocumentStore(one!.store).commit([{ op: 'put', document: doc('b', 2) }], { message: one!.message });
    await new DocumentStore(two!.store).commit(
      [{ op: 'delete', identity: { namespace: 'n', doc_type: 't', id: 'a' } }],
      {
        message: two!.message,
      },
    );
    const report = await s.merge();
    expect(report).toMatchObject({ changed: true, previousVersion: s.base, keys: ['n/t/a.json', 'n/t/b.json'] });
    expect(db().getCommit(report.version!).parents).toEqual([s.base]);
    expect(s.deleted).toEqual([shardRefOf(s.ref, 1), shardRefOf(s.ref, 2)]);
  });

  it('a fold larger than one part (1,000 changes, handed to the store in parts) lands in ONE commit', async () => {
    const s = await sectionWithShards('large', 2);
    for (const [i, shard] of s.shards.entries()) {
      const ops = Array.from({ length: 700 }, (_, j) => ({ op: 'put' as const, document: doc(`s${i}-${j}`, j) }));
      await new DocumentStore(shard.store).commit(ops, { message: shard.message });
    }
    em.clearLog();
    const report = await s.merge();
    expect(report.keys).toHaveLength(1400);
    expect(db().getCommit(report.version!).parents).toEqual([s.base]);
    expect(
      db()
        .flattenTree(db().getCommit(report.version!).tree)
        .filter((e) => e.type === 'blob'),
    ).toHaveLength(1401);
    // One commit and one ref update for the whole fold.
    const writes = em.requests.filter((r) => r.method !== 'GET');
    expect(writes.filter((r) => r.path.endsWith('/git/commits'))).toHaveLength(1);
    expect(writes.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('a merge whose shard-ref delete failed after the commit landed: re-run, it changes nothing and finishes the cleanup', async () => {
    const s = await sectionWithShards('again', 1);
    await new DocumentStore(s.shards[0]!.store).commit([{ op: 'put', document: doc('c', 3) }], {
      message: s.shards[0]!.message,
    });
    const failing = {
      section: storeOn(s.ref),
      shardStore: storeOn,
      count: 1,
      run: '9.1',
      deleteRefs: async () => {
        throw new Error('connection reset while deleting');
      },
    };
    await expect(mergeShards(failing)).rejects.toThrow(/connection reset/);
    const landed = db().readRef(s.ref);
    expect(landed).not.toBe(s.base);
    const report = await s.merge();
    expect(report).toMatchObject({ changed: false, version: landed, keys: [] });
    expect(db().readRef(s.ref)).toBe(landed);
    expect(s.deleted).toEqual([shardRefOf(s.ref, 1)]);
  });

  it('a document stored under a key its identity does not name: InvalidResponse, nothing written, shard refs kept', async () => {
    const s = await sectionWithShards('tampered', 1);
    // A raw RefStore write (anyone with write access can make one): the envelope of "b" at a's key.
    await s.shards[0]!.store.commit([{ op: 'put', key: 'n/t/a.json', value: encodeEnvelope(doc('b', 'evil')) }], {
      message: s.shards[0]!.message,
    });
    const e = await s.merge().catch((x) => x);
    expect(e).toBeInstanceOf(InvalidResponse);
    expect(e.message).toMatch(
      /shard 1 \(refs\/docdb\/tampered\.shards\/1\) holds at "n\/t\/a\.json" a document whose identity names another key/,
    );
    expect(db().readRef(s.ref)).toBe(s.base);
    expect(s.deleted).toEqual([]);
  });

  it('two shards changing one key (shards own disjoint keys): InvalidResponse naming both, nothing written', async () => {
    const s = await sectionWithShards('overlap', 2);
    for (const [i, shard] of s.shards.entries())
      await new DocumentStore(shard.store).commit([{ op: 'put', document: doc('same', i) }], {
        message: shard.message,
      });
    const e = await s.merge().catch((x) => x);
    expect(e).toBeInstanceOf(InvalidResponse);
    expect(e.message).toMatch(/shards 1 and 2 both changed "n\/t\/same\.json"/);
    expect(db().readRef(s.ref)).toBe(s.base);
    expect(s.deleted).toEqual([]);
  });
});

describe('shard marks and names', () => {
  it('a shard document that breaks the section schema (a raw write): InvalidDocument, nothing written, shard refs kept', async () => {
    const s = await sectionWithShards('schema', 2, { type: 'integer' });
    // A raw RefStore write on the shard ref skips the shard's own checks; the merge is a writer too.
    await s.shards[0]!.store.commit([{ op: 'put', key: 'n/t/b.json', value: encodeEnvelope(doc('b', 'text')) }], {
      message: s.shards[0]!.message,
    });
    const many = Array.from({ length: 1_100 }, (_, j) => ({
      op: 'put' as const,
      key: `n/t/m${j}.json`,
      value: encodeEnvelope(doc(`m${j}`, { not: 'an integer' })),
    }));
    await s.shards[1]!.store.commit(many, { message: s.shards[1]!.message });
    const e = await s.merge().catch((x) => x);
    // Both shards' documents, streamed to the store in parts: every violation counted, the first 50 listed.
    expect(e).toMatchObject({ code: 'InvalidDocument', data: { field: 'data', count: 1_101 } });
    expect(e.data.violations).toHaveLength(50);
    expect(db().readRef(s.ref)).toBe(s.base);
    expect(s.deleted).toEqual([]);
  });

  it('trailers are parsed strictly: a forged or partial mark is no mark', () => {
    const base = 'a'.repeat(40);
    const good = withTrailers('m', ['Docdb-Run: 7.1', ...shardTrailers({ index: 2, count: 4 }, base)]);
    expect(shardMarkOf(good)).toEqual({ run: '7.1', shard: { index: 2, count: 4 }, base });
    expect(shardMarkOf(good.replace('Docdb-Shard: 2/4', 'Docdb-Shard: 02/4'))).toBeUndefined();
    expect(shardMarkOf(good.replace(base, 'HEAD~1'))).toBeUndefined();
    expect(shardMarkOf(good.replace('Docdb-Run: 7.1', 'Docdb-Run: $(rm -rf)'))).toBeUndefined();
    expect(shardMarkOf('docdb: project t\n\nDocdb-Run: 7.1\n')).toBeUndefined();
  });

  it('a section name ending a component in .shards is refused (it could be another section’s shard ref)', () => {
    expect(() => sectionRef('docdb', 'inventory.shards/1')).toThrow(InvalidConfig);
    expect(() => sectionRef('docdb', 'inventory.shards')).toThrow(
      /is in a reserved space: a component ending in "\.shards"/,
    );
    expect(() => sectionRef('x.shards', 'inventory')).toThrow(/reserved/);
    expect(sectionRef('docdb', 'inventory.shard')).toBe('refs/docdb/inventory.shard');
    expect(shardRefOf(sectionRef('docdb', 'inventory'), 3)).toBe('refs/docdb/inventory.shards/3');
  });
});
