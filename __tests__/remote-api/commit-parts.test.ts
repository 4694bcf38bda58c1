/**
 * A commit in parts on the GitHub API store (issue 11, memory): each part's tree entries join the chain of
 * create-tree requests as soon as one is full, so it costs exactly what `commit` of every part costs, and a
 * lost race re-plans from the kept blob SHAs (4 requests, no value sent twice). Counted in the emulator log.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../src/core/commit-parts.js';
import type { Change } from '../../src/core/refstore.js';
import { fetchTransport, recordingTransport } from '../../src/transport/index.js';
import { emulatorPerFile, freshRepo, ops, store } from './helpers.js';

const fx = emulatorPerFile();

const doc = (i: number, salt: string): Change => ({
  op: 'put',
  key: `items/g${i % 10}/item-${i}.json`,
  value: JSON.stringify({ i, salt, pad: 'x'.repeat(200) }),
});
const page = (from: number, n: number, salt: string) => Array.from({ length: n }, (_, k) => doc(from + k, salt));

describe('RemoteApiRefStore.commitParts', () => {
  it('3 parts of 400 documents cost the same requests as one commit of the 1,200, and build the same tree', async () => {
    const opts = { maxInlineBytes: 64 * 1024 };
    const a = store(fx.em, fx.repo, opts);
    let from = fx.em.requests.length;
    const whole = await a.commit(page(0, 1200, 'one'));
    const wholeOps = ops(fx.em, from);

    const other = freshRepo(fx.em);
    const b = store(fx.em, other, opts);
    from = fx.em.requests.length;
    const parts = await b.commitParts([page(0, 400, 'one'), page(400, 400, 'one'), page(800, 400, 'one')]);
    expect(ops(fx.em, from)).toEqual(wholeOps);
    expect(wholeOps.filter((o) => o.startsWith('POST git/create-tree')).length).toBeGreaterThan(3);
    expect(parts.requests).toBe(whole.requests);
    const treeOf = (r: string, v: string) => fx.em.state.repo(`octo/${r}`).db.getCommit(v).tree;
    expect(treeOf(other, parts.version as string)).toBe(treeOf(fx.repo, whole.version as string));
    expect(parts.written).toHaveLength(1200);
  });

  it('a no-op re-run right after its own commit in parts costs 1 request (the levels it built are known)', async () => {
    const s = store(fx.em, fx.repo);
    await s.commitParts([page(0, 300, 'x'), page(300, 300, 'x')]);
    const from = fx.em.requests.length;
    const again = await s.commitParts([page(0, 300, 'x'), page(300, 300, 'x')]);
    expect(again.changed).toBe(false);
    expect(ops(fx.em, from)).toEqual(['GET git/get-ref 200']);
  });

  it('a lost race costs 4 requests and sends no value again (tree entries name the blobs by SHA)', async () => {
    const t = recordingTransport({ inner: fetchTransport({ timeoutMs: 10_000 }) });
    const s = store(fx.em, fx.repo, { transport: t });
    const peer = store(fx.em, fx.repo);
    await s.commitParts([page(0, 50, 'seed')]);
    await peer.get('items/g0/item-0.json'); // the peer knows the tip
    async function* racing() {
      yield page(0, 25, 'mine'); // 25 changed documents…
      await peer.put('elsewhere.json', 'theirs'); // …while another writer moves the section
      yield page(25, 25, 'mine');
    }
    t.clear();
    const r = await s.commitParts(racing());
    expect(r.changed).toBe(true);
    const mine = t.requests.map((q) => `${q.method} ${new URL(q.url).pathname.split('/')[4]}`);
    expect(mine).toEqual([
      'GET git', // the ref read: every write confirms its cached tip first (issue 21)
      'POST git', // create tree: both parts' 50 documents fit one request, sent at the end
      'POST git', // create commit
      'PATCH git', // update ref: 422, lost
      'GET compare', // one compare against the ref name: the new tip, its tree, what changed
      'POST git',
      'POST git',
      'PATCH git',
    ]);
    expect(t.requests[4]?.url).toMatch(/\/compare\/[0-9a-f]{40}\.\.\.refs\/docdb\/documents$/);
    expect(r.requests).toBe(8);
    // The retry's create-tree body names every blob by SHA: no inline content is sent again.
    const trees = t.requests.filter((q) => q.method === 'POST' && q.url.endsWith('/git/trees'));
    const last = trees.at(-1)?.json() as { tree: { sha?: string; content?: string }[] };
    expect(last.tree).toHaveLength(50);
    expect(last.tree.every((e) => typeof e.sha === 'string' && e.content === undefined)).toBe(true);
    const reader = store(fx.em, fx.repo);
    expect((await reader.list()).entries).toHaveLength(51);
  });
});

describe('commitInParts', () => {
  it('uses the store’s own commitParts when it has one (requests counted as parts arrive)', async () => {
    const s = store(fx.em, fx.repo, { maxInlineBytes: 16 * 1024 });
    const seen: number[] = [];
    async function* pages() {
      for (let p = 0; p < 4; p++) {
        seen.push(fx.em.requests.filter((q) => q.operation === 'git/create-tree').length);
        yield page(p * 100, 100, 'stream');
      }
    }
    await commitInParts(s, pages());
    // Tree requests were sent while later pages were still to come (streamed), not all at the end.
    expect(seen[3]).toBeGreaterThan(seen[0] as number);
  });
});
