/**
 * The shard merge as a compare-and-set per key (src/projection/run/merge-guard.ts), against the emulator
 * through RemoteApiRefStore: a write another writer made to the section after the shards started is never
 * overwritten by the merge.
 * - a direct write (before the merge) to a key a shard changed: the merge fails with PreconditionFailed
 *   naming the key and the shard, nothing written, the shard refs kept, the direct write intact;
 * - the same write landing WHILE the merge commits (after it read the tip, before its ref moved): the
 *   merge's ref update loses, the check runs again on the new tip and fails the same way;
 * - a direct write to a key no shard changed, or of the very value the shard wrote: the merge lands and
 *   keeps it (the controls).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreconditionFailed } from '../../src/core/errors.js';
import type { CommitOptions, RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { mergeShards } from '../../src/projection/run/merge-shards.js';
import { withTrailers } from '../../src/projection/run/run-report.js';
import { shardRefOf, shardTrailers } from '../../src/projection/run/shard-refs.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';

const TOKEN = 'ghp_MergeRaceToken0123456789abcdefab';
const REPO = 'octo/race';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

const storeOn = (ref: string, startAt?: string): RemoteApiRefStore =>
  new RemoteApiRefStore({
    transport: fetchTransport({ timeoutMs: 10_000 }),
    apiUrl: em.url,
    owner: 'octo',
    repo: 'race',
    ref,
    token: TOKEN,
    sleep: async () => {},
    ...(startAt ? { startAt } : {}),
  });
const db = () => em.state.repo(REPO).db;
const doc = (id: string, data: unknown) => ({ namespace: 'n', type: 't', id, data });
const valueAt = (ref: string, path: string) => {
  const entry = db()
    .flattenTree(db().getCommit(db().readRef(ref)!).tree)
    .find((e) => e.path === path);
  return entry ? JSON.parse(new TextDecoder().decode(db().getBlob(entry.sha))).data : undefined;
};

/**
 * A section holding a, b and c, and two shards of run 9 branched from its tip (each created on its
 * commit): shard 1 changes a, shard 2 adds d.
 */
async function shardsStarted(name: string) {
  const ref = `refs/docdb/${name}`;
  const base = (
    await new DocumentStore(storeOn(ref)).commit(['a', 'b', 'c'].map((id) => ({ op: 'put', document: doc(id, 0) })))
  ).version!;
  const ops = [
    [{ op: 'put' as const, document: doc('a', 'shard') }],
    [{ op: 'put' as const, document: doc('d', 'shard') }],
  ];
  for (const [i, changes] of ops.entries()) {
    const message = withTrailers('docdb: project t', [
      'Docdb-Run: 9.1',
      ...shardTrailers({ index: i + 1, count: 2 }, base),
    ]);
    await new DocumentStore(storeOn(shardRefOf(ref, i + 1), base)).commit(changes, { message });
  }
  const tips = [1, 2].map((i) => db().readRef(shardRefOf(ref, i)));
  const merge = (section: RefStore = storeOn(ref)) =>
    mergeShards({
      section,
      shardStore: (r) => storeOn(r),
      count: 2,
      run: '9.1',
      deleteRefs: (refs) => storeOn(ref).deleteRefs(refs),
    });
  return { ref, base, merge, tips };
}

/** The section's store whose first commit lets `during` run after the commit's tip was read, before its ref moves. */
function racedDuringCommit(store: RemoteApiRefStore, during: () => Promise<void>): RefStore {
  let raced = false;
  const commit = (changes: Parameters<RefStore['commit']>[0], options: CommitOptions = {}) =>
    store.commit(changes, {
      ...options,
      derive: async (base) => {
        if (!raced) {
          raced = true;
          await during();
        }
        return options.derive ? options.derive(base) : [];
      },
    });
  return new Proxy(store, {
    get: (target, prop, receiver) => (prop === 'commit' ? commit : Reflect.get(target, prop, receiver)),
  });
}

describe('the merge never overwrites a write the shards did not see', () => {
  it('a direct write to a key a shard changed, after the shards started: PreconditionFailed naming it, nothing written, shard refs kept', async () => {
    const s = await shardsStarted('before');
    const direct = await new DocumentStore(storeOn(s.ref)).put(doc('a', 'direct'));
    const e = await s.merge().catch((x) => x);
    expect(e).toBeInstanceOf(PreconditionFailed);
    expect(e.message).toMatch(
      /cannot merge into refs\/docdb\/before: 1 key\(s\) the shards changed were also changed in the section by another writer after the shards started .*"n\/t\/a\.json" \(shard 1\)\. Merging would overwrite those writes, so nothing was written and the shard refs are kept\. Re-run all jobs of this workflow run/,
    );
    expect(e.data).toMatchObject({ reason: 'conflict', keys: ['n/t/a.json'], conflicts: 1, version: direct.version });
    expect(db().readRef(s.ref)).toBe(direct.version);
    expect(valueAt(s.ref, 'n/t/a.json')).toBe('direct');
    expect([1, 2].map((i) => db().readRef(shardRefOf(s.ref, i)))).toEqual(s.tips);
  });

  it('the same write landing while the merge commits: its ref update loses, the check runs again on the new tip and fails', async () => {
    const s = await shardsStarted('during');
    let landed: string | null = null;
    const section = racedDuringCommit(storeOn(s.ref), async () => {
      landed = (await new DocumentStore(storeOn(s.ref)).put(doc('a', 'direct'))).version;
    });
    const e = await s.merge(section).catch((x) => x);
    expect(e).toBeInstanceOf(PreconditionFailed);
    expect(e.data).toMatchObject({ reason: 'conflict', keys: ['n/t/a.json'], version: landed });
    expect(db().readRef(s.ref)).toBe(landed);
    expect(valueAt(s.ref, 'n/t/a.json')).toBe('direct');
    expect([1, 2].map((i) => db().readRef(shardRefOf(s.ref, i)))).toEqual(s.tips);
  });

  it('(control) a direct write to a key no shard changed, during the merge: the merge lands on it and keeps it', async () => {
    const s = await shardsStarted('other-key');
    const section = racedDuringCommit(storeOn(s.ref), async () => {
      await new DocumentStore(storeOn(s.ref)).put(doc('b', 'direct'));
    });
    const report = await s.merge(section);
    expect(report).toMatchObject({ changed: true, keys: ['n/t/a.json', 'n/t/d.json'] });
    expect(valueAt(s.ref, 'n/t/b.json')).toBe('direct');
    expect(valueAt(s.ref, 'n/t/a.json')).toBe('shard');
    expect([1, 2].map((i) => db().readRef(shardRefOf(s.ref, i)))).toEqual([undefined, undefined]);
  });

  it('(control) a direct write of the very value the shard wrote is no conflict', async () => {
    const s = await shardsStarted('same-value');
    await new DocumentStore(storeOn(s.ref)).put(doc('a', 'shard'));
    const report = await s.merge();
    expect(report).toMatchObject({ changed: true, keys: ['n/t/d.json'] });
    expect(valueAt(s.ref, 'n/t/a.json')).toBe('shard');
  });
});
