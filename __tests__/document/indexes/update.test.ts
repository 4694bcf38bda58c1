/**
 * updateIndex rewrites only the parts that hold the changed rows (issue 28), leaves the manifest alone
 * unless the count changes or a part splits or merges, and refuses what it cannot do exactly.
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidDocument, InvalidResponse } from '../../../src/core/errors.js';
import { buildIndex } from '../../../src/document/indexes/build.js';
import { declarationChanges, dropIndex } from '../../../src/document/indexes/lifecycle.js';
import { type IndexChange, partsToRead, updateIndex } from '../../../src/document/indexes/update.js';
import { apply, doc, manifestOf, runRows, shaOf } from './helpers.js';

const MANIFEST = '_docdb/index/g/repo/manifest.json';
const decl = { version: 1 as const, indexes: [{ namespace: 'g', type: 'repo', fields: ['data.lang', 'data.stars'] }] };
const LANGS = ['C', 'Go', 'Rust', 'TypeScript', 'Zig'];
const data = (i: number) => ({ lang: LANGS[i % 5], stars: i, name: `repo-${i}` });
const docs = Array.from({ length: 3000 }, (_, i) => doc('g', 'repo', `o/r${i}`, data(i)));
const OPTS = { maxPartBytes: 16 * 1024 };

function setup() {
  return buildIndex(decl, docs, OPTS);
}
const change = (id: string, before: unknown, after: unknown): IndexChange => ({
  namespace: 'g',
  type: 'repo',
  id,
  ...(before === undefined ? {} : { before: { blobSha: shaOf(before), data: before } }),
  ...(after === undefined ? {} : { after: { blobSha: shaOf(after), data: after } }),
});
const parts = (paths: Iterable<string>) => [...paths].filter((p) => p.endsWith('.jsonl'));

describe('updateIndex touches only the parts that hold the changed rows', () => {
  it('starts from many parts per field', () => {
    const m = manifestOf(setup(), 'g', 'repo');
    expect(m.runs.map((r) => r.parts.length).every((n) => n >= 10)).toBe(true);
  });

  it('an edit that changes no indexed value: 1 part per field, manifest unchanged', () => {
    const files = setup();
    const after = { ...data(7), name: 'renamed' };
    const u = updateIndex(decl, (p) => files.get(p), [change('o/r7', data(7), after)], OPTS);
    expect(parts(u.readPaths)).toHaveLength(2);
    expect(parts(u.writes.keys())).toHaveLength(2);
    expect(u.writes.has(MANIFEST)).toBe(false);
    expect(u.deletes).toEqual([]);
  });

  it('an edit that moves one value: 2 parts of that field, 1 of the other, manifest unchanged', () => {
    const files = setup();
    const after = { ...data(7), stars: 2999.5 };
    const u = updateIndex(decl, (p) => files.get(p), [change('o/r7', data(7), after)], OPTS);
    expect(parts(u.readPaths).filter((p) => p.includes('/data.stars/'))).toHaveLength(2);
    expect(parts(u.readPaths).filter((p) => p.includes('/data.lang/'))).toHaveLength(1);
    expect(parts(u.writes.keys())).toHaveLength(3);
    expect(u.writes.has(MANIFEST)).toBe(false);
  });

  it('a new document: 1 part per field, and the manifest for the count', () => {
    const files = setup();
    const u = updateIndex(decl, (p) => files.get(p), [change('o/new', undefined, data(3001))], OPTS);
    expect(parts(u.readPaths)).toHaveLength(2);
    expect(parts(u.writes.keys())).toHaveLength(2);
    apply(files, u);
    expect(manifestOf(files, 'g', 'repo').count).toBe(3001);
  });

  it('a delete: 1 part per field, and the manifest for the count', () => {
    const files = setup();
    const u = updateIndex(decl, (p) => files.get(p), [change('o/r5', data(5), undefined)], OPTS);
    expect(parts(u.readPaths)).toHaveLength(2);
    apply(files, u);
    const m = manifestOf(files, 'g', 'repo');
    expect(m.count).toBe(2999);
    expect(runRows(files, m, 1).some((r) => r.id === 'o/r5')).toBe(false);
  });

  it('splits a part that grows past the bound, and says which parts it wrote', () => {
    const files = setup();
    const before = manifestOf(files, 'g', 'repo').runs[1]!.parts.length;
    const batch = Array.from({ length: 200 }, (_, i) =>
      change(`o/n${i}`, undefined, { ...data(i), stars: 1000 + i / 1000 }),
    );
    const u = updateIndex(decl, (p) => files.get(p), batch, OPTS);
    apply(files, u);
    const m = manifestOf(files, 'g', 'repo');
    expect(m.runs[1]!.parts.length).toBeGreaterThan(before);
    for (const [p, b] of files) if (p.endsWith('.jsonl')) expect(b.length).toBeLessThanOrEqual(OPTS.maxPartBytes);
  });

  it('merges a part that shrinks under 1/8 of the bound into its neighbour, deleting it', () => {
    const files = setup();
    const m0 = manifestOf(files, 'g', 'repo');
    // delete every document whose stars fall in the second part of the stars run
    const rows = runRows(files, m0, 1);
    const lo = m0.runs[1]!.parts[1]!.lower![0] as number;
    const hi = m0.runs[1]!.parts[2]!.lower![0] as number;
    const gone = rows.filter((r) => (r.key as number) >= lo && (r.key as number) < hi - 5);
    const u = updateIndex(
      decl,
      (p) => files.get(p),
      gone.map((r) => change(r.id, data(r.key as number), undefined)),
      OPTS,
    );
    expect(u.deletes.length + parts(u.writes.keys()).length).toBeGreaterThan(0);
    apply(files, u);
    const m = manifestOf(files, 'g', 'repo');
    expect(m.runs[1]!.parts.length).toBe(m0.runs[1]!.parts.length - 1);
    expect(u.deletes.some((p) => p.includes('/data.stars/'))).toBe(true);
    expect(runRows(files, m, 1)).toHaveLength(3000 - gone.length);
  });

  it('partsToRead names, from the manifest alone, exactly the parts updateIndex then reads', () => {
    const files = setup();
    const onlyManifest = (p: string) => (p === MANIFEST ? files.get(p) : undefined);
    const changes = [
      change('o/r7', data(7), { ...data(7), stars: 2999.5 }),
      change('o/new', undefined, data(12)),
      change('o/r9', data(9), undefined),
    ];
    const planned = partsToRead(decl, onlyManifest, changes);
    const fetched = new Map([[MANIFEST, files.get(MANIFEST)!], ...planned.map((p) => [p, files.get(p)!] as const)]);
    const u = updateIndex(decl, (p) => fetched.get(p), changes, OPTS);
    // Parts and value counts (every field's: an insert and a delete change every run).
    expect(new Set(u.readPaths.filter((p) => p !== MANIFEST))).toEqual(new Set(planned));
    expect(planned.filter((p) => p.endsWith('/counts.json'))).toHaveLength(2);
    expect(planned.length).toBeGreaterThanOrEqual(4);
  });

  it('ignores changes to undeclared types without reading anything', () => {
    const u = updateIndex(decl, () => {
      throw new Error('read');
    }, [{ namespace: 'g', type: 'issue', id: 'x', after: { blobSha: shaOf(1), data: {} } }]);
    expect(u).toEqual({ writes: new Map(), deletes: [], readPaths: [], rebuild: [] });
  });
});

describe('updateIndex refuses what it cannot do exactly', () => {
  it('asks for a rebuild when the manifest is missing or indexes other fields', () => {
    const c = [change('a', undefined, data(1))];
    expect(updateIndex(decl, () => undefined, c).rebuild).toEqual(decl.indexes);
    const other = buildIndex({ version: 1, indexes: [{ namespace: 'g', type: 'repo', fields: ['data.stars'] }] }, []);
    const u = updateIndex(decl, (p) => other.get(p), c);
    expect(u.rebuild).toEqual(decl.indexes);
    expect(u.writes.size).toBe(0);
  });

  it('gives InvalidResponse when the stored index lacks the row the previous state implies', () => {
    const files = setup();
    const e = (() => {
      try {
        updateIndex(decl, (p) => files.get(p), [change('o/r7', { ...data(7), stars: 7.5 }, data(8))], OPTS);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as Error).message).toContain('"o/r7"');
  });

  it('gives InvalidResponse when a listed part is missing', () => {
    const files = setup();
    const path = [...files.keys()].find((p) => p.endsWith('/data.stars/0.jsonl'))!;
    files.delete(path);
    expect(() =>
      updateIndex(decl, (p) => files.get(p), [change('o/r0', data(0), { ...data(0), name: 'x' })], OPTS),
    ).toThrow(/listed in its manifest but missing/);
  });

  it('refuses two changes of one document in one call', () => {
    const files = setup();
    const c = change('o/r1', data(1), data(2));
    expect(() => updateIndex(decl, (p) => files.get(p), [c, c], OPTS)).toThrow(InvalidConfig);
  });

  it('refuses an unindexable value, naming the document and field', () => {
    const files = setup();
    expect(() =>
      updateIndex(decl, (p) => files.get(p), [change('o/x', undefined, { lang: { name: 'C' } })], OPTS),
    ).toThrow(InvalidDocument);
  });
});

describe('declaring and dropping', () => {
  it('lists what to build and what to drop when a declaration changes', () => {
    const a = { namespace: 'g', type: 'repo', fields: ['id'] };
    const b = { namespace: 'g', type: 'issue', fields: ['data.state'] };
    const a2 = { ...a, fields: ['id', 'data.stars'] };
    expect(declarationChanges({ version: 1, indexes: [a, b] }, { version: 1, indexes: [a2] })).toEqual({
      build: [a2],
      drop: [a, b],
    });
    expect(declarationChanges({ version: 1, indexes: [a] }, { version: 1, indexes: [a] })).toEqual({
      build: [],
      drop: [],
    });
  });

  it('dropIndex lists exactly the files of the index', () => {
    const files = setup();
    expect(dropIndex((p) => files.get(p), 'g', 'repo').sort()).toEqual([...files.keys()].sort());
    expect(dropIndex(() => undefined, 'g', 'repo')).toEqual([]);
  });
});
