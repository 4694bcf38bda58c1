/**
 * Contention on one section through git's own `git http-backend`: 4 writers (each its own store and
 * cache, as 4 machines) × 20 puts at once. Every put lands or fails typed (ConcurrentUpdate), none is
 * lost: every landed put's value is at the tip and its commit is in history; the served repository
 * passes `git fsck --strict`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdate } from '../../src/core/errors.js';
import { fsckStrict, git } from '../git/helpers.js';
import { type GitHttpFixture, gitHttpFixture } from './helpers.js';

let fx: GitHttpFixture;
beforeEach(async () => {
  fx = await gitHttpFixture();
});
afterEach(() => fx.cleanup());

const WRITERS = 4;
const PUTS = 20;

describe('GitHttpRefStore under contention', () => {
  it(`${WRITERS} writers × ${PUTS} puts at once: all land or fail typed, none lost, fsck --strict clean`, async () => {
    const stores = Array.from({ length: WRITERS }, () =>
      fx.store({ retryConcurrentWrites: 100, writeBackoffBaseMs: 20 }),
    );
    const outcomes = await Promise.all(
      stores.map(async (store, w) => {
        const out: { key: string; version?: string; error?: unknown }[] = [];
        for (let i = 0; i < PUTS; i++) {
          const key = `w${w}/p${i}.json`;
          try {
            out.push({ key, version: (await store.put(key, `{"w":${w},"i":${i}}`)).version as string });
          } catch (error) {
            out.push({ key, error });
          }
        }
        return out;
      }),
    );
    const all = outcomes.flat();
    const landed = all.filter((o) => o.version);
    const failed = all.filter((o) => o.error);
    for (const f of failed) expect(f.error).toBeInstanceOf(ConcurrentUpdate);
    const reader = fx.store();
    const listed = new Map((await reader.list()).entries.map((e) => [e.key, e.blobSha]));
    for (const o of landed) {
      expect(listed.has(o.key), o.key).toBe(true);
      const history = await reader.history(o.key);
      expect(history.entries.map((e) => e.version)).toContain(o.version);
    }
    // One commit per landed put, on one first-parent chain.
    const commits = git(['--git-dir', fx.repoDir, 'rev-list', '--first-parent', 'refs/docdb/documents'])
      .trim()
      .split('\n');
    expect(commits).toHaveLength(landed.length);
    fsckStrict(fx.repoDir);
    const pushes = fx.server.requests.filter((r) => r.url.endsWith('/git-receive-pack')).length;
    console.log(
      `contention: ${landed.length}/${all.length} puts landed, ${failed.length} ConcurrentUpdate, ` +
        `${pushes} pushes (${pushes - landed.length} lost a race and were re-planned)`,
    );
    expect(landed.length).toBe(WRITERS * PUTS);
  });
});
