/**
 * Issue 31's budget "8 writers writing during a compaction, emulator and every git store: 0 lost writes;
 * every kept version's tree equals the original's (checked with real git)" — ONE scenario, run on every
 * backend that can compact (writer-backends.ts): the GitHub API (emulator), GitRefStore,
 * SubprocessGitRefStore, GitHttpRefStore over git's own `git http-backend`, and IndexedDB. The writers land
 * after the compaction listed the section and before it moves the ref (`racing`), so its first move must
 * fail and the writers' commits must be re-created on the new history.
 */
import { describe, expect, it } from 'vitest';
import { compactSection } from '../../src/retention/index.js';
import { eightWriters, history, racing } from './helpers.js';
import { WRITER_BACKENDS } from './writer-backends.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const SEEDED = 12;
const KEEP = 4;

describe.each(WRITER_BACKENDS)('compactSection on %s with eight writers landing mid-compaction', (_name, backend) => {
  it('loses no write, and every re-created commit holds its original tree (read without the store)', {
    timeout: 120_000,
  }, async () => {
    const b = await backend();
    try {
      const store = b.open();
      const seeded = await history(store, SEEDED);
      const writers = eightWriters(b.open);
      const r = await compactSection(racing(store, writers.run, 1), { keepCommits: KEEP }, { pacing: false });
      // The first move found the writers' tip; the second, with their 16 commits re-created, moved.
      expect(r.compacted).toBe(true);
      expect(r.attempts).toBe(2);
      expect(writers.versions).toHaveLength(16);
      expect(r.kept).toBe(KEEP + 16);
      // Re-created in order: the kept seeded commits (oldest first), then every writer's commit.
      const originals = Object.keys(r.replaced);
      expect(originals.slice(0, KEEP)).toEqual(seeded.slice(-KEEP));
      expect([...originals.slice(KEEP)].sort()).toEqual([...writers.versions].sort());
      // 0 lost writes: each writer's last value is at the tip, for a store that never saw the compaction.
      const reader = b.open();
      for (const [key, value] of writers.last) expect(text((await reader.get(key))!.value)).toBe(value);
      expect(text((await reader.get('state.json'))!.value)).toBe(`{"n":${SEEDED - 1}}`);
      // Every kept version's tree equals the original's, and the section IS the re-created chain.
      for (const [original, now] of Object.entries(r.replaced)) {
        expect(now).not.toBe(original);
        expect(await b.treeOf(now)).toBe(await b.treeOf(original));
      }
      const chain = await b.chain();
      expect(chain).toEqual(Object.values(r.replaced).reverse());
      expect(chain[0]).toBe(r.version);
    } finally {
      await b.cleanup();
    }
  });
});
