/**
 * What the `childFiles` hint keeps of a GraphQL answer (tip-children.ts `childFilesOf`), fed answers built by
 * hand — the bounds at their edges and the damage a real server answer could carry: at most 100 folders and
 * 4 MiB of kept text (beyond, nothing is kept and the usual round reads the files), only regular files, and
 * only blobs whose text hashes to the oid their tree entry names.
 */
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { blobShaAsync } from '../../src/core/git/objects.js';
import { CHILD_BYTES_MAX, CHILD_DIRS_MAX, childFilesOf } from '../../src/stores/remote-api/tip-children.js';

const UNDER = '_docdb/search/ns';
const HINT = { under: UNDER, names: ['manifest.json'] };
const OTHER_SHA = 'f'.repeat(40);

interface FileSpec {
  text: string;
  mode?: number;
  /** The oid the tree entry names (default: the blob's own). */
  entryOid?: string;
}

async function fileEntry(name: string, f: FileSpec) {
  const oid = await blobShaAsync(utf8(f.text));
  return {
    name,
    mode: f.mode ?? 0o100644,
    oid: f.entryOid ?? oid,
    object: { __typename: 'Blob', oid, text: f.text, isBinary: false, isTruncated: false },
  };
}

/** The `d` answer: one folder per entry of `dirs`, each holding manifest.json. */
async function answer(dirs: Record<string, FileSpec>) {
  const entries = [];
  for (const [name, f] of Object.entries(dirs)) {
    entries.push({
      name,
      mode: 0o40000,
      object: { __typename: 'Tree', entries: [await fileEntry('manifest.json', f)] },
    });
  }
  return { mode: 0o40000, object: { __typename: 'Tree', entries } };
}

const kept = async (dirs: Record<string, FileSpec>) => [...(await childFilesOf(await answer(dirs), HINT)).keys()];

describe('childFilesOf bounds', () => {
  it(`keeps the files of exactly ${CHILD_DIRS_MAX} folders, and none of ${CHILD_DIRS_MAX + 1}`, async () => {
    const dirs = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { text: `{"t":${i}}` }]));
    const hundred = await kept(dirs(CHILD_DIRS_MAX));
    expect(hundred).toHaveLength(CHILD_DIRS_MAX);
    expect(hundred[0]).toBe(`${UNDER}/t0/manifest.json`);
    expect(await kept(dirs(CHILD_DIRS_MAX + 1))).toEqual([]);
  });

  it('keeps exactly 4 MiB of text, and nothing when one byte more would be kept', async () => {
    const quarter = CHILD_BYTES_MAX / 4;
    const four = {
      a: { text: 'a'.repeat(quarter) },
      b: { text: 'b'.repeat(quarter) },
      c: { text: 'c'.repeat(quarter) },
    };
    expect(await kept({ ...four, d: { text: 'd'.repeat(quarter) } })).toHaveLength(4);
    expect(await kept({ ...four, d: { text: 'd'.repeat(quarter + 1) } })).toEqual([]);
  });
});

describe('childFilesOf keeps only exact regular files', () => {
  it('leaves out an entry whose oid is not its blob’s (the text would not be the file the tree names)', async () => {
    const got = await kept({ good: { text: '{"a":1}' }, bad: { text: '{"b":2}', entryOid: OTHER_SHA } });
    expect(got).toEqual([`${UNDER}/good/manifest.json`]);
  });

  it('leaves out a symlink (its text is a path, not the file) and keeps an executable file', async () => {
    const got = await kept({
      link: { text: '../other/manifest.json', mode: 0o120000 },
      exec: { text: '{"x":1}', mode: 0o100755 },
    });
    expect(got).toEqual([`${UNDER}/exec/manifest.json`]);
  });

  it('keeps the bytes of a kept file as they hash to its oid', async () => {
    const map = await childFilesOf(await answer({ a: { text: 'héllo' } }), HINT);
    const a = map.get(`${UNDER}/a/manifest.json`)!;
    expect(new TextDecoder().decode(a.bytes)).toBe('héllo');
    expect(a.sha).toBe(await blobShaAsync(utf8('héllo')));
  });
});
