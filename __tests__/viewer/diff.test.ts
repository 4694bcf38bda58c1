/** The viewer's field-level diff (src/viewer/diff.ts): a pure module, checked in Node. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDiff, diffValues, type FieldChange, formatPath, type PathPart, preview } from '../../src/viewer/diff.js';

/** JSON with object keys sorted: docdb stores canonical JSON, so key order is not content. */
const json = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );

/** The value at `path`, or `missing` when the path does not exist in `v`. */
const MISSING = Symbol('missing');
function at(v: unknown, path: readonly PathPart[]): unknown {
  let node: unknown = v;
  for (const part of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return MISSING;
    node = (node as Record<PathPart, unknown>)[part];
  }
  return node;
}

/** Every leaf path of a value (scalars, and empty objects/arrays) with its value. */
function leaves(v: unknown, path: PathPart[] = [], out: [PathPart[], unknown][] = []): [PathPart[], unknown][] {
  if (Array.isArray(v) && v.length > 0) {
    for (const [i, x] of v.entries()) leaves(x, [...path, i], out);
  } else if (v !== null && typeof v === 'object' && Object.keys(v).length > 0) {
    for (const [k, x] of Object.entries(v)) leaves(x, [...path, k], out);
  } else out.push([path, v]);
  return out;
}

const startsWith = (path: readonly PathPart[], prefix: readonly PathPart[]) =>
  prefix.length <= path.length && prefix.every((p, i) => p === path[i]);

describe('diffValues', () => {
  it('reports added, removed and changed fields with nested paths', () => {
    const before = { data: { owner: { login: 'ann', id: 1 }, stars: 3, gone: true } };
    const after = { data: { owner: { login: 'bob', id: 1 }, stars: 3, fresh: 'x' } };
    expect(diffValues(before, after)).toEqual<FieldChange[]>([
      { kind: 'changed', path: ['data', 'owner', 'login'], before: 'ann', after: 'bob' },
      { kind: 'added', path: ['data', 'fresh'], after: 'x' },
      { kind: 'removed', path: ['data', 'gone'], before: true },
    ]);
  });

  it('diffs arrays by position: a longer array adds its tail, a shorter one removes it', () => {
    expect(diffValues({ t: ['a', 'b'] }, { t: ['a', 'c', 'd'] })).toEqual([
      { kind: 'changed', path: ['t', 1], before: 'b', after: 'c' },
      { kind: 'added', path: ['t', 2], after: 'd' },
    ]);
    expect(diffValues({ t: [1, 2, 3] }, { t: [1] })).toEqual([
      { kind: 'removed', path: ['t', 1], before: 2 },
      { kind: 'removed', path: ['t', 2], before: 3 },
    ]);
    expect(diffValues([{ n: 1 }], [{ n: 2 }])).toEqual([{ kind: 'changed', path: [0, 'n'], before: 1, after: 2 }]);
  });

  it('a change of kind (object, array, scalar) is one change carrying both values', () => {
    expect(diffValues({ a: { x: 1 } }, { a: [1] })).toEqual([
      { kind: 'changed', path: ['a'], before: { x: 1 }, after: [1] },
    ]);
    expect(diffValues({ a: null }, { a: {} })).toEqual([{ kind: 'changed', path: ['a'], before: null, after: {} }]);
    expect(diffValues(1, '1')).toEqual([{ kind: 'changed', path: [], before: 1, after: '1' }]);
  });

  it('equal values have no changes; a __proto__ key is an ordinary key', () => {
    expect(diffValues({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
    const before = JSON.parse('{"__proto__":{"x":1}}');
    const after = JSON.parse('{"__proto__":{"x":2}}');
    const changes = diffValues(before, after);
    expect(changes).toEqual([{ kind: 'changed', path: ['__proto__', 'x'], before: 1, after: 2 }]);
    expect(json(applyDiff(before, changes))).toBe(json(after));
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  const runs = { numRuns: 300, seed: 29 };
  const value = fc.jsonValue({ maxDepth: 4 });

  it('property: applying diff(a, b) to a gives b', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(json(applyDiff(a, diffValues(a, b)))).toBe(json(b));
      }),
      runs,
    );
  });

  it('property: every reported path differs, and every leaf no change covers is equal', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const changes = diffValues(a, b);
        for (const c of changes) {
          expect(json(at(a, c.path) === MISSING ? undefined : at(a, c.path))).not.toBe(
            json(at(b, c.path) === MISSING ? undefined : at(b, c.path)),
          );
          if (c.kind === 'added') expect(at(a, c.path)).toBe(MISSING);
          if (c.kind === 'removed') expect(at(b, c.path)).toBe(MISSING);
        }
        // A leaf no change touches (none at, above or below it) holds the same value in both.
        for (const [path, leaf] of [...leaves(a), ...leaves(b)]) {
          if (changes.some((c) => startsWith(path, c.path) || startsWith(c.path, path))) continue;
          expect(json(at(a, path))).toBe(json(leaf));
          expect(json(at(b, path))).toBe(json(leaf));
        }
      }),
      runs,
    );
  });
});

describe('formatPath and preview', () => {
  it('writes paths as people read them', () => {
    expect(formatPath(['data', 'owner', 'login'])).toBe('data.owner.login');
    expect(formatPath(['data', 'tags', 2])).toBe('data.tags[2]');
    expect(formatPath(['data', 'a key', 'x'])).toBe('data["a key"].x');
    expect(formatPath([0, 'n'])).toBe('[0].n');
    expect(formatPath([])).toBe('(value)');
  });

  it('cuts long values with an ellipsis and names an absent one', () => {
    expect(preview('x'.repeat(500), 20)).toHaveLength(20);
    expect(preview('x'.repeat(500), 20).endsWith('…')).toBe(true);
    expect(preview(undefined)).toBe('(absent)');
    expect(preview({ a: 1 })).toBe('{"a":1}');
  });
});
