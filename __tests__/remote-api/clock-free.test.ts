/**
 * Issue 21: request counts are a function of the work and of what other writers did, never of elapsed
 * time. Every store here runs on an injected clock that the test jumps (10 ms, then 10 minutes); the same
 * scenario must cost exactly the same requests at both ages. Counted in the emulator's log.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/index.js';
import { emulatorPerFile, OWNER, ops, store } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const AGES = [10, 600_000] as const; // 10 ms and 10 minutes after the store's last request

function docs(n: number, salt: string, changed = n) {
  return Array.from({ length: n }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `group-${i % 50}/item-${i}`,
    data: { i, salt: i < changed ? salt : 'base' },
  }));
}

/** A store on a clock the test moves, and a way to move it. */
function clocked(extra: Parameters<typeof store>[2] = {}) {
  let t = 1_700_000_000_000;
  const s = store(fx.em, fx.repo, { now: () => t, ...extra });
  const advance = (ms: number) => {
    t += ms;
  };
  return { s, d: new DocumentStore(s), advance };
}

const db = () => fx.em.state.repo(`${OWNER}/${fx.repo}`).db;
const objects = () => db().size;

describe.each(AGES)('%d ms after the store’s last request', (age) => {
  it('a no-op write right after the store’s own write costs exactly 1 request (single commit and in parts)', async () => {
    const { d, advance } = clocked();
    await d.putMany(docs(2000, 'a')); // in parts
    advance(age);
    let from = fx.em.requests.length;
    expect((await d.putMany(docs(2000, 'a'))).changed).toBe(false);
    // A 200: the store holds no ETag after its own update. The ETag it brings makes the next one a 304.
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
    advance(age);
    from = fx.em.requests.length;
    expect((await d.putMany(docs(2000, 'a'))).changed).toBe(false);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 304']);
    await d.putMany(docs(20, 'b')); // one commit
    advance(age);
    from = fx.em.requests.length;
    expect((await d.putMany(docs(20, 'b'))).requests).toBe(1);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
  });

  it('a warm 1 % re-run of 2,000 documents costs exactly 4: the ref read, tree, commit, ref update', async () => {
    const { d, advance } = clocked();
    await d.putMany(docs(2000, 'base'));
    advance(age);
    const from = fx.em.requests.length;
    const r = await d.putMany(docs(2000, 'run', 20));
    expect(r.written).toHaveLength(20);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200', // unconditional: the tip came from our own update, which has no ref ETag
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
  });

  it('a put on a tip another writer moved costs exactly 5 and leaves no orphan commit', async () => {
    const { s, advance } = clocked();
    await s.commit([
      { op: 'put', key: 'docs/a.json', value: 'a' },
      { op: 'put', key: 'docs/b.json', value: 'b' },
    ]);
    await store(fx.em, fx.repo).put('other/x.json', 'x'); // moves the tip
    advance(age);
    const before = objects();
    const from = fx.em.requests.length;
    const r = await s.put('docs/a.json', 'a2');
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET repos/compare-commits-with-basehead 200',
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    // The commit, the new root and docs/ levels, and the blob: nothing built on the old tip.
    expect(objects() - before).toBe(1 + 2 + 1);
    expect(db().getCommit(r.version as string).parents).toEqual([r.previousVersion]);
  });

  it('a write in parts on a tip another writer moved costs exactly 5 too', async () => {
    const { d, advance } = clocked();
    await d.putMany(docs(1500, 'base'));
    await store(fx.em, fx.repo).put('other/x.json', 'x');
    advance(age);
    const from = fx.em.requests.length;
    const r = await d.putMany(docs(1500, 'run', 15));
    expect(r.written).toHaveLength(15);
    expect(ops(fx.em, from)).toEqual([
      'GET git/get-ref 200',
      'GET repos/compare-commits-with-basehead 200', // the new tip's commit and, replayed, its tree
      'POST git/create-tree 201',
      'POST git/create-commit 201',
      'PATCH git/update-ref 200',
    ]);
    expect(db().readRef(REF)).toBe(r.version);
  });
});

describe('trustCachedTipMs (opt-in): the one setting whose counts depend on the clock, as documented', () => {
  it('within the window a write skips the ref read (3); past it the write confirms first (4)', async () => {
    const { s, advance } = clocked({ trustCachedTipMs: 5_000 });
    await s.put('k.json', '0');
    advance(1_000);
    let from = fx.em.requests.length;
    await s.put('k.json', '1');
    expect(fx.em.requests.length - from).toBe(3);
    advance(600_000);
    from = fx.em.requests.length;
    await s.put('k.json', '2');
    expect(fx.em.requests.length - from).toBe(4);
  });
});
