/**
 * ObjectDb.applyTreeChanges compared with git's own index → tree path (`update-index --index-info`,
 * `write-tree`), including deletes that prune directories, plus refs compare-and-swap.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { EMPTY_TREE_SHA, ObjectDb, ObjectDbError } from '../../src/core/git/object-db.js';
import type { Signature } from '../../src/core/git/objects.js';
import { type GitRepo, makeRepo } from './git-helpers.js';

let repo: GitRepo;
let indexNo = 0;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => repo.cleanup());

/** The tree git writes for exactly these files (a fresh index each time, so no leftovers). */
function gitWriteTree(files: ReadonlyMap<string, { mode: string; sha: string }>): string {
  const env = { GIT_INDEX_FILE: `${repo.dir}/index-${indexNo++}` };
  const input = [...files].map(([path, f]) => `${f.mode} ${f.sha}\t${path}\x00`).join('');
  repo.git(['update-index', '-z', '--index-info'], { input, env });
  return repo.text(['write-tree', '--missing-ok'], { env });
}

const sig: Signature = { name: 'T', email: 't@example.com', timestamp: 1700000000, timezone: '+0000' };

describe('applyTreeChanges vs git write-tree', () => {
  it('builds nested trees from paths, in git order', () => {
    const db = new ObjectDb();
    const a = db.putBlob(utf8('a\n'));
    const b = db.putBlob(utf8('b\n'));
    const changes = [
      { path: 'github/repo/octo/hello-world.json', mode: '100644' as const, sha: a },
      { path: 'github/repo/octo/hello.json', mode: '100644' as const, sha: b },
      { path: 'github/repo-x.json', mode: '100644' as const, sha: a },
      { path: 'github/repo.json', mode: '100755' as const, sha: b },
      { path: 'github/repo0', mode: '100644' as const, sha: a },
      { path: 'ünï/çødé/日本.json', mode: '100644' as const, sha: b },
    ];
    const ours = db.applyTreeChanges(null, changes);
    expect(ours).toBe(gitWriteTree(new Map(changes.map((c) => [c.path, { mode: c.mode, sha: c.sha }]))));
    expect(db.flattenTree(ours).map((e) => e.path)).toEqual([
      'github/repo-x.json',
      'github/repo.json',
      'github/repo/octo/hello-world.json',
      'github/repo/octo/hello.json',
      'github/repo0',
      'ünï/çødé/日本.json',
    ]);
    expect(db.lookupPath(ours, 'github/repo.json')).toEqual({ mode: '100755', name: 'repo.json', sha: b });
    expect(db.lookupPath(ours, 'github/repo')?.mode).toBe('040000');
    expect(db.lookupPath(ours, 'github/nope')).toBeUndefined();
    expect(db.lookupPath(ours, 'github/repo.json/x')).toBeUndefined();
  });

  it('deletes prune directories left empty, up to the empty tree', () => {
    const db = new ObjectDb();
    const a = db.putBlob(utf8('a'));
    const t1 = db.applyTreeChanges(null, [
      { path: 'x/y/z/deep.json', mode: '100644', sha: a },
      { path: 'x/keep.json', mode: '100644', sha: a },
    ]);
    const t2 = db.applyTreeChanges(t1, [{ path: 'x/y/z/deep.json', mode: '100644', sha: null }]);
    expect(t2).toBe(gitWriteTree(new Map([['x/keep.json', { mode: '100644', sha: a }]])));
    expect(db.lookupPath(t2, 'x/y')).toBeUndefined();
    const t3 = db.applyTreeChanges(t2, [{ path: 'x/keep.json', mode: '100644', sha: null }]);
    expect(t3).toBe(EMPTY_TREE_SHA);
    expect(db.getTree(t3)).toEqual([]);
  });

  it('replaces a file by a directory when the file is deleted in the same change set', () => {
    const db = new ObjectDb();
    const a = db.putBlob(utf8('a'));
    const t1 = db.applyTreeChanges(null, [{ path: 'p', mode: '100644', sha: a }]);
    const t2 = db.applyTreeChanges(t1, [
      { path: 'p/q', mode: '100644', sha: a },
      { path: 'p', mode: '100644', sha: null },
    ]);
    expect(t2).toBe(gitWriteTree(new Map([['p/q', { mode: '100644', sha: a }]])));
  });

  it('replacing a directory by a file while deleting its contents in one change set is a path-conflict', () => {
    const db = new ObjectDb();
    const a = db.putBlob(utf8('a'));
    const t1 = db.applyTreeChanges(null, [{ path: 'd/x', mode: '100644', sha: a }]);
    expect(() =>
      db.applyTreeChanges(t1, [
        { path: 'd/x', mode: '100644', sha: null },
        { path: 'd', mode: '100644', sha: a },
      ]),
    ).toThrow(ObjectDbError);
    // Writing a file over a directory without touching its contents replaces the whole directory in
    // ObjectDb; stores never ask for it (assertNoPathConflicts refuses with rule "conflict").
    const t2 = db.applyTreeChanges(t1, [{ path: 'd', mode: '100644', sha: a }]);
    expect(db.flattenTree(t2).map((e) => e.path)).toEqual(['d']);
  });

  it('errors: missing path on delete, writing below a file, bad paths', () => {
    const db = new ObjectDb();
    const a = db.putBlob(utf8('a'));
    const t1 = db.applyTreeChanges(null, [{ path: 'f', mode: '100644', sha: a }]);
    const reason = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        expect(e).toBeInstanceOf(ObjectDbError);
        return (e as ObjectDbError).reason;
      }
      return 'no error';
    };
    expect(reason(() => db.applyTreeChanges(t1, [{ path: 'g', mode: '100644', sha: null }]))).toBe('missing-path');
    expect(reason(() => db.applyTreeChanges(t1, [{ path: 'd/g', mode: '100644', sha: null }]))).toBe('missing-path');
    expect(reason(() => db.applyTreeChanges(t1, [{ path: 'f/g', mode: '100644', sha: a }]))).toBe('path-conflict');
    for (const path of ['', 'a//b', '/a', 'a/', 'a/./b', '../a']) {
      expect(reason(() => db.applyTreeChanges(t1, [{ path, mode: '100644', sha: a }]))).toBe('bad-path');
    }
    expect(reason(() => db.getTree(a))).toBe('wrong-type');
    expect(reason(() => db.getBlob('0'.repeat(40)))).toBe('missing-object');
  });

  it('property: any sequence of puts and deletes matches git write-tree of the resulting file set', () => {
    // Names chosen to hit every ordering edge: a, a.b, a-b, a0 and a subtree a/.
    const segment = fc.constantFrom('a', 'a.b', 'a-b', 'a0', 'b', 'é', '日', 'Z');
    const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
    const step = fc.record({ path, del: fc.boolean(), content: fc.nat(3), exec: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(fc.array(step, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        (batches) => {
          const db = new ObjectDb();
          const files = new Map<string, { mode: '100644' | '100755'; sha: string }>();
          let tree: string | null = null;
          for (const batch of batches) {
            // Keep only changes that are valid against the current file set (no file/dir clashes,
            // deletes of existing files, one change per path) — the same rules stores enforce.
            const next = new Map(files);
            const changes: { path: string; mode: '100644' | '100755'; sha: string | null }[] = [];
            const touched = new Set<string>();
            for (const s of batch) {
              if (touched.has(s.path)) continue;
              if (s.del) {
                if (!next.has(s.path)) continue;
                next.delete(s.path);
                changes.push({ path: s.path, mode: '100644', sha: null });
              } else {
                // Checked against the files before AND after this batch's earlier changes: a path that is
                // a directory in the base cannot become a file in the same change set (stores refuse it as
                // rule "conflict"; ObjectDb reports path-conflict).
                const clash = [...files.keys(), ...next.keys()].some(
                  (k) => k !== s.path && (k.startsWith(`${s.path}/`) || s.path.startsWith(`${k}/`)),
                );
                if (clash) continue;
                const mode = s.exec ? '100755' : '100644';
                const sha = db.putBlob(utf8(`content ${s.content}`));
                next.set(s.path, { mode, sha });
                changes.push({ path: s.path, mode, sha });
              }
              touched.add(s.path);
            }
            if (changes.length === 0) continue;
            tree = db.applyTreeChanges(tree, changes);
            files.clear();
            for (const [k, v] of next) files.set(k, v);
            expect(tree).toBe(gitWriteTree(files));
            expect(
              db
                .flattenTree(tree)
                .map((e) => e.path)
                .sort(),
            ).toEqual([...files.keys()].sort());
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('refs and ancestry', () => {
  it('compareAndSwapRef only moves a ref from the expected value', () => {
    const db = new ObjectDb();
    const tree = db.putTree([]);
    const c1 = db.putCommit({ tree, parents: [], author: sig, committer: sig, message: '1' });
    const c2 = db.putCommit({ tree, parents: [c1], author: sig, committer: sig, message: '2' });
    expect(db.compareAndSwapRef('refs/docdb/documents', c1, c2)).toBe(false);
    expect(db.readRef('refs/docdb/documents')).toBeUndefined();
    expect(db.compareAndSwapRef('refs/docdb/documents', null, c1)).toBe(true);
    expect(db.compareAndSwapRef('refs/docdb/documents', null, c2)).toBe(false);
    expect(db.compareAndSwapRef('refs/docdb/documents', c1, c2)).toBe(true);
    expect(db.readRef('refs/docdb/documents')).toBe(c2);
    db.compareAndSwapRef('refs/docdb/other', null, c1);
    db.compareAndSwapRef('refs/heads/main', null, c1);
    expect(db.listRefs('refs/docdb/')).toEqual([
      { ref: 'refs/docdb/documents', sha: c2 },
      { ref: 'refs/docdb/other', sha: c1 },
    ]);
    expect(db.compareAndSwapRef('refs/docdb/other', c1, null)).toBe(true);
    expect(db.readRef('refs/docdb/other')).toBeUndefined();
    expect(db.isAncestor(c1, c2)).toBe(true);
    expect(db.isAncestor(c2, c1)).toBe(false);
    expect(db.isAncestor(c2, c2)).toBe(true);
  });

  it('put is idempotent and stores a copy of the bytes', () => {
    const db = new ObjectDb();
    const bytes = utf8('mutable');
    const sha = db.putBlob(bytes);
    bytes[0] = 0x4d;
    expect(db.putBlob(utf8('mutable'))).toBe(sha);
    expect(db.size).toBe(1);
    expect(new TextDecoder().decode(db.getBlob(sha))).toBe('mutable');
  });
});
