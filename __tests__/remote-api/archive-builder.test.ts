/**
 * The archive's section builder holds one directory per path segment, announced by a tar entry or not: it
 * counts every one it creates against `maxEntries` (issue 27), and throws the over-limit error the bulk
 * reader falls back on, so deep paths cannot make it build millions of directories.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/core/errors.js';
import { ArchiveSectionBuilder } from '../../src/stores/remote-api/archive-reads.js';
import { isArchiveOverLimit } from '../../src/stores/remote-api/tar-stream.js';

const COMMIT = 'abcdef0123456789abcdef0123456789abcdef01';
const TOP = `octo-data-${COMMIT.slice(0, 7)}/`;
const file = (path: string) => ({ path: `${TOP}${path}`, type: 'file' as const, mode: 0o644, bytes: new Uint8Array() });

describe('ArchiveSectionBuilder counts what it holds', () => {
  it('implied directories count against maxEntries: a/b/c/x holds four', () => {
    const builder = new ArchiveSectionBuilder(COMMIT, 'f'.repeat(40), 4);
    builder.add(file('a/b/c/x'));
    const e = (() => {
      try {
        builder.add(file('a/b/c/y'));
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(InvalidResponse);
    expect(isArchiveOverLimit(e)).toBe(true);
    expect((e as InvalidResponse).data).toMatchObject({ limit: 'maxEntries', allowed: 4 });
  });

  it('a directory or file seen twice is held once; within the limit the tree is rebuilt as git would', () => {
    const builder = new ArchiveSectionBuilder(COMMIT, 'f'.repeat(40), 4);
    builder.add({ path: `${TOP}a/`, type: 'directory', mode: 0o755, bytes: new Uint8Array() });
    builder.add(file('a/b/x'));
    builder.add(file('a/b/x'));
    builder.add(file('a/y'));
    const section = builder.finish();
    // Root {a}, a {b, y}, b {x}: three levels, one (empty) blob.
    expect(section.levels.size).toBe(3);
    expect(section.blobs.size).toBe(1);
    expect(section.verified).toBe(false);
  });
});
