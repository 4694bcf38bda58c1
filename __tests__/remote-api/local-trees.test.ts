/**
 * buildTreesLocally (the store computes the trees of its own writes, checks the root against GitHub's
 * reply, then caches every level) must compute exactly what git computes: checked against the core's
 * ObjectDb (itself checked against real git) on random bases and change sets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CachedTreeEntry } from '../../src/cache/git-cache.js';
import { utf8 } from '../../src/core/bytes.js';
import { ObjectDb } from '../../src/core/git/object-db.js';
import { buildTreesLocally } from '../../src/stores/remote-api/local-trees.js';

// Files end in .json and directories never do: no path is both a file and a directory.
const PATHS = ['top.json', 'a/x.json', 'a/y.json', 'a/b/z.json', 'a/b/w.json', 'c/d/e/f.json', 'c/g.json', 'h.json'];

function levelsOf(db: ObjectDb) {
  return async (sha: string): Promise<CachedTreeEntry[] | undefined> =>
    db
      .getTree(sha)
      .map((e) => ({ name: e.name, mode: e.mode, type: e.mode === '040000' ? 'tree' : 'blob', sha: e.sha }));
}

describe('buildTreesLocally', () => {
  it('computes the same root as git’s object model for random writes (puts, deletes, emptied directories)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(PATHS, { minLength: 1 }),
        fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.option(fc.string({ maxLength: 3 }), { nil: undefined })), {
          maxLength: 8,
        }),
        async (base, edits) => {
          const db = new ObjectDb();
          const blob = (s: string) => db.putBlob(utf8(s));
          const root = db.applyTreeChanges(
            null,
            base.map((path) => ({ path, mode: '100644' as const, sha: blob(`base ${path}`) })),
          );
          // One change per path: a put of new content, or (undefined) a delete of a path in the base.
          const seen = new Set<string>();
          const changes = edits.flatMap(([path, value]) => {
            if (seen.has(path) || (value === undefined && !base.includes(path))) return [];
            seen.add(path);
            return [{ path, mode: '100644' as const, sha: value === undefined ? null : blob(value) }];
          });
          const expected = db.applyTreeChanges(root, changes);
          const built = await buildTreesLocally(levelsOf(db), root, changes);
          expect(built?.root).toBe(expected);
          // Every level it reports is a real tree with those entries.
          for (const [sha, entries] of built?.levels ?? []) {
            expect(db.getTree(sha).map((e) => e.name)).toEqual(entries.map((e) => e.name).sort());
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('says "unknown" (undefined) for a level it does not have or a change git would refuse', async () => {
    const db = new ObjectDb();
    const root = db.applyTreeChanges(null, [{ path: 'a/x.json', mode: '100644', sha: db.putBlob(utf8('x')) }]);
    const levels = levelsOf(db);
    expect(await buildTreesLocally(async () => undefined, root, [])).toBeUndefined();
    expect(
      await buildTreesLocally(levels, root, [{ path: 'a/missing.json', mode: '100644', sha: null }]),
    ).toBeUndefined();
    const below = [{ path: 'a/x.json/y', mode: '100644', sha: db.putBlob(utf8('y')) }];
    expect(await buildTreesLocally(levels, root, below)).toBeUndefined();
  });
});
