/**
 * The pure parts of catching up with a moved tip (src/stores/remote-api/stale-tip.ts): which changed files
 * touch a write, and replaying a compare's file list as tree changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChangedFile,
  changedFilesAsTreeChanges,
  touches,
  touchesAny,
  touchesKeySet,
} from '../../src/stores/remote-api/stale-tip.js';

const seg = fc.constantFrom('a', 'b', 'c', 'a.json', 'b.json');
const path = fc.array(seg, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));

describe('touchesKeySet', () => {
  it('touches = the key itself, a directory above it, or a path below it (brute-force oracle)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(path, { maxLength: 6 }), fc.array(path, { maxLength: 6 }), (keys, names) => {
        const files: ChangedFile[] = names.map((filename) => ({ filename, status: 'modified' }));
        const set = new Set(keys);
        const dirs = new Set(
          keys.flatMap((k) =>
            k
              .split('/')
              .slice(0, -1)
              .map((_, i, a) => a.slice(0, i + 1).join('/')),
          ),
        );
        expect(
          touchesKeySet(
            files,
            (k) => set.has(k),
            (d) => dirs.has(d),
          ),
        ).toBe(names.some((n) => keys.some((k) => touches(n, k))));
        expect(touchesAny(files, keys)).toBe(names.some((n) => keys.some((k) => touches(n, k))));
      }),
      { numRuns: 300 },
    );
  });

  it('counts the old name of a renamed file', () => {
    const files: ChangedFile[] = [{ filename: 'x/new.json', previousFilename: 'k/old.json', status: 'renamed' }];
    expect(
      touchesKeySet(
        files,
        (k) => k === 'k/old.json',
        () => false,
      ),
    ).toBe(true);
    expect(touchesAny(files, ['k/old.json'])).toBe(true);
    expect(touchesAny(files, ['k/other.json'])).toBe(false);
  });
});

describe('changedFilesAsTreeChanges', () => {
  const sha = 'a'.repeat(40);
  it('maps added/modified to the blob, removed to a delete, renamed to both', () => {
    expect(
      changedFilesAsTreeChanges([
        { filename: 'a', status: 'added', sha },
        { filename: 'b', status: 'removed', sha },
        { filename: 'c', status: 'renamed', previousFilename: 'd', sha },
      ]),
    ).toEqual([
      { path: 'a', mode: '100644', sha },
      { path: 'b', mode: '100644', sha: null },
      { path: 'd', mode: '100644', sha: null },
      { path: 'c', mode: '100644', sha },
    ]);
  });
  it('refuses what it cannot replay (an unknown status, a missing blob SHA)', () => {
    expect(changedFilesAsTreeChanges([{ filename: 'a', status: 'copied', sha }])).toBeUndefined();
    expect(changedFilesAsTreeChanges([{ filename: 'a', status: 'added' }])).toBeUndefined();
  });
});
