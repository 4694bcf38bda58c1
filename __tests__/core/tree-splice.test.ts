/**
 * tree-splice.ts: a tree changed by splicing entries in and out of its body is byte for byte the tree
 * encodeTree writes for the resulting entries (git order, subtree names compared as `name/`), however
 * many entries the level holds and wherever the changes fall.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { ObjectDb } from '../../src/core/git/object-db.js';
import { compareTreeEntries, encodeTree, type TreeEntry } from '../../src/core/git/objects.js';
import { isTreePath, levelOf, levelSize } from '../../src/core/git/tree-splice.js';

const NAMES = ['a', 'a.b', 'a-b', 'a0', 'a/', 'b', 'é', '日', 'Z', 'z.json', 'item-1.json', 'item-10.json'];

describe('spliced trees equal fully re-encoded ones', () => {
  it('property: puts, deletes and blob↔subtree swaps in a level of up to 300 entries', () => {
    const name = fc.oneof(
      fc.constantFrom(...NAMES.filter((n) => !n.includes('/'))),
      fc.nat(400).map((i) => `item-${i}.json`),
    );
    const op = fc.record({ name, kind: fc.constantFrom('blob', 'tree', 'delete'), v: fc.nat(3) });
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        (n, batches) => {
          const db = new ObjectDb();
          const blob = (v: number) => db.putBlob(utf8(`v${v}`));
          const sub = (v: number) => db.putTree([{ mode: '100644', name: 'x', sha: blob(v) }]);
          const model = new Map<string, TreeEntry>();
          for (let i = 0; i < n; i++)
            model.set(`item-${i}.json`, { mode: '100644', name: `item-${i}.json`, sha: blob(i % 4) });
          let root = db.putTree([...model.values()]);
          for (const batch of batches) {
            const changes: { path: string; mode: '100644' | '040000'; sha: string | null }[] = [];
            const seen = new Set<string>();
            for (const o of batch) {
              if (seen.has(o.name)) continue;
              seen.add(o.name);
              if (o.kind === 'delete') {
                if (!model.has(o.name)) continue;
                model.delete(o.name);
                changes.push({ path: o.name, mode: '100644', sha: null });
              } else {
                const e: TreeEntry =
                  o.kind === 'tree'
                    ? { mode: '040000', name: o.name, sha: sub(o.v) }
                    : { mode: '100644', name: o.name, sha: blob(o.v) };
                model.set(o.name, e);
                changes.push({ path: o.name, mode: e.mode as '100644' | '040000', sha: e.sha });
              }
            }
            if (changes.length === 0) continue;
            root = db.applyTreeChanges(root, changes);
            expect(db.get(root)?.body).toEqual(encodeTree([...model.values()]));
            expect(levelSize(levelOf(db.get(root)?.body as Uint8Array))).toBe(model.size);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: compareTreeEntries is the order of the UTF-8 bytes of name (+ "/" for a subtree)', () => {
    const unit = fc.constantFrom('a', 'b', '.', '-', '/', '0', 'é', '\ud7ff', '\ue000', '\uffff', '😀', '𝄞', '日');
    const name = fc.array(unit, { minLength: 1, maxLength: 4 }).map((u) => u.join('').replace(/\//g, '_'));
    const entry = fc.record({ name, tree: fc.boolean() });
    const bytes = (e: { name: string; tree: boolean }) => utf8(e.tree ? `${e.name}/` : e.name);
    const byBytes = (a: Uint8Array, b: Uint8Array) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++)
        if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
      return a.length - b.length;
    };
    fc.assert(
      fc.property(entry, entry, (a, b) => {
        const ours = compareTreeEntries(
          { mode: a.tree ? '040000' : '100644', name: a.name, sha: '' },
          { mode: b.tree ? '040000' : '100644', name: b.name, sha: '' },
        );
        expect(Math.sign(ours)).toBe(Math.sign(byBytes(bytes(a), bytes(b))));
      }),
      { numRuns: 3000 },
    );
  });

  it('isTreePath refuses empty, "." and ".." segments', () => {
    for (const p of ['a', 'a/b', '.a', 'a/..b', '...']) expect(isTreePath(p)).toBe(true);
    for (const p of ['', '/', 'a/', '/a', 'a//b', '.', '..', 'a/./b', 'a/../b', 'a/..'])
      expect(isTreePath(p)).toBe(false);
  });
});
