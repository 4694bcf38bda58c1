/**
 * Issue 21 §2: changing a stored tree (the emulator's create-tree with `base_tree`, MemoryRefStore)
 * costs in proportion to the entries changed, not to the size of the directories it copies. Counted, not
 * timed: the functions that encode, decode or index a whole level are wrapped with counters, and a chain
 * of writes into a directory of 10,000 entries must encode only the entries it changes (and the one entry
 * per level above that points to the new subtree) and never decode, re-encode or re-index a level.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const work = vi.hoisted(() => ({ encodedEntries: 0, indexedBytes: 0, encodedTrees: 0, decodedTrees: 0 }));

vi.mock('../../src/core/git/tree-splice.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/core/git/tree-splice.js')>();
  return {
    ...m,
    encodeEntry: (...a: Parameters<typeof m.encodeEntry>) => {
      work.encodedEntries++;
      return m.encodeEntry(...a);
    },
    levelOf: (body: Uint8Array) => {
      work.indexedBytes += body.length;
      return m.levelOf(body);
    },
  };
});
vi.mock('../../src/core/git/objects.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/core/git/objects.js')>();
  return {
    ...m,
    encodeTree: (...a: Parameters<typeof m.encodeTree>) => {
      work.encodedTrees++;
      return m.encodeTree(...a);
    },
    decodeTree: (...a: Parameters<typeof m.decodeTree>) => {
      work.decodedTrees++;
      return m.decodeTree(...a);
    },
  };
});

const { utf8 } = await import('../../src/core/bytes.js');
const { ObjectDb } = await import('../../src/core/git/object-db.js');

const reset = () => Object.assign(work, { encodedEntries: 0, indexedBytes: 0, encodedTrees: 0, decodedTrees: 0 });
beforeEach(reset);

describe('create-tree on a large directory', () => {
  it('3 changes in a directory of 10,000 entries encode 3 entries, and decode, re-encode or re-index no level', () => {
    const db = new ObjectDb();
    const blob = db.putBlob(utf8('{}'));
    const n = 10_000;
    const all = Array.from({ length: n }, (_, i) => ({
      path: `big/item-${i}.json`,
      mode: '100644' as const,
      sha: blob,
    }));
    let root = db.applyTreeChanges(null, all);
    const other = db.putBlob(utf8('{"v":2}'));
    for (let round = 0; round < 3; round++) {
      reset();
      root = db.applyTreeChanges(root, [
        { path: `big/item-${round}.json`, mode: '100644', sha: other }, // replaced
        { path: `big/new-${round}.json`, mode: '100644', sha: other }, // added
        { path: `big/item-${9_000 + round}.json`, mode: '100644', sha: null }, // deleted
      ]);
      // Two entries spliced into `big`, one into the root (`big` itself); the delete is cut, not encoded.
      expect(work).toEqual({ encodedEntries: 3, indexedBytes: 0, encodedTrees: 0, decodedTrees: 0 });
    }
    expect(db.getTree(db.getTree(root)[0]?.sha as string)).toHaveLength(n);
  });
});
