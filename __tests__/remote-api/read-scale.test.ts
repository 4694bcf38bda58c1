/**
 * The issue-20 read table at section sizes 1,000 / 10,000 / 100,000 documents, requests and bytes counted at
 * the transport: a cold get is 2 requests and < 16 KB at every size (it never downloads the listing); a cold
 * put into the 100,000-document section is 6 requests and its bytes are those of the levels on the key's path
 * (computed from the emulator's objects), within GraphQL's JSON overhead.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeTree } from '../../src/core/git/objects.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { emulator, freshRepo, meteredTransport, newMeter, OWNER, store } from './helpers.js';

// An emulator per test, on its own port: seeding 100,000 documents blocks the event loop longer than the
// emulator's 5 s keep-alive window, and a request on a connection pooled by the previous test could meet
// the server closing it — a lost attempt the meter rightly counts (seen on a busy machine: 3 requests
// instead of 2). A new port has no pooled connection, so the counts are the store's alone.
const fx = {} as { em: EmulatorHandle; repo: string };
beforeEach(async () => {
  fx.em = await emulator();
  fx.repo = freshRepo(fx.em);
});
afterEach(async () => {
  await fx.em?.stop();
});
const REF = 'refs/docdb/documents';
const key = (i: number) => `bench/item/g${i % 50}/item-${i}.json`;
const body = (i: number) =>
  `${JSON.stringify({ data: { i, text: 'x'.repeat(200) }, id: `g${i % 50}/item-${i}`, namespace: 'bench', type: 'item' }, null, 2)}\n`;

function seed(n: number): void {
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < n; i++) files[key(i)] = body(i);
  fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files, message: `seed ${n} documents` });
}

/**
 * Bytes of the tree levels (git's own encoding) on `dir`'s path at the tip: the root and every directory down
 * to `dir`; and of a sibling of `dir` as large as it, for scale.
 */
function levelSizes(dir: string): { onPath: number; sibling: number } {
  const db = fx.em.state.repo(`${OWNER}/${fx.repo}`).db;
  const root = db.getCommit(db.readRef(REF) as string).tree;
  const size = (sha: string) => encodeTree(db.getTree(sha)).length;
  const segs = dir.split('/');
  let onPath = size(root);
  for (let i = 1; i <= segs.length; i++) onPath += size(db.lookupPath(root, segs.slice(0, i).join('/'))!.sha);
  const other = `${segs.slice(0, -1).join('/')}/g28`;
  return { onPath, sibling: size(db.lookupPath(root, other)!.sha) };
}

describe('cold reads at any section size', () => {
  for (const n of [1_000, 10_000, 100_000]) {
    it(`cold get in a ${n.toLocaleString('en-US')}-document section: 2 requests, < 16 KB; pinned: 2, < 16 KB`, async () => {
      seed(n);
      const meter = newMeter();
      const got = await store(fx.em, fx.repo, { transport: meteredTransport(meter) }).get(key(n - 1));
      expect(new TextDecoder().decode(got!.value)).toBe(body(n - 1));
      expect(meter.requests).toBe(2);
      expect(meter.received, JSON.stringify(meter.log)).toBeLessThan(16 * 1024);
      const version = got!.version;
      fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files: { [key(0)]: body(-1) }, message: 'edit' });
      const pinned = newMeter();
      const old = await store(fx.em, fx.repo, { transport: meteredTransport(pinned) }).get(key(0), { version });
      expect(new TextDecoder().decode(old!.value)).toBe(body(0));
      expect(pinned.requests).toBeLessThanOrEqual(3);
      expect(pinned.received, JSON.stringify(pinned.log)).toBeLessThan(16 * 1024);
    }, 180_000);
  }

  it("cold put into a 100,000-document section: 6 requests, the levels on the key's path only", async () => {
    seed(100_000);
    const meter = newMeter();
    const r = await store(fx.em, fx.repo, { transport: meteredTransport(meter) }).put(key(77), body(-77));
    expect(r.changed).toBe(true);
    expect(meter.requests).toBe(6);
    // The listing would be 22.9 MB; the path's levels (root, bench, item, g27 with 2,000 entries) are far less.
    expect(meter.received).toBeLessThan(400 * 1024);
    // Bytes ∝ the key's depth: within a small factor of the levels on its path. GraphQL's JSON entry
    // ({"name":…,"oid":"<40 hex>","mode":33188}) is ~2.1× git's encoding (mode, name, 20-byte SHA); the
    // other five answers (ref, commit, the write's three) are a few KB.
    const { onPath, sibling } = levelSizes('bench/item/g27');
    const bound = 2.5 * onPath + 8 * 1024;
    expect(meter.received, JSON.stringify(meter.log)).toBeLessThanOrEqual(bound);
    // …and tight enough to notice one level more (a sibling directory of the same size), which 400 KB was not.
    expect(2.1 * (onPath + sibling)).toBeGreaterThan(bound);
  }, 180_000);
});
