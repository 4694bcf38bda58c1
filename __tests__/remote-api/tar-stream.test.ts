/**
 * The bounded tar reader on its own (issue 27 item 2): each guard is fed the very thing it guards
 * against — an 8 MB pax path, a GNU long name over the cap, a path longer than a key, two million empty
 * entries, a bad path in the middle — and the test checks where the read stopped (entries handed over,
 * bytes pulled from the source), not only that it failed.
 */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/core/errors.js';
import { ArchiveSectionBuilder } from '../../src/stores/remote-api/archive-reads.js';
import {
  isArchiveOverLimit,
  MAX_ARCHIVE_PATH_BYTES,
  MAX_META_BYTES,
  readTar,
  type TarEntry,
  type TarLimits,
} from '../../src/stores/remote-api/tar-stream.js';
import { END, fileEntry, manyEntries, padding, paxPathBomb, paxRecord, tarHeader } from './tar-bombs.js';

const COMMIT = 'abcdef0123456789abcdef0123456789abcdef01';
const TOP = `octo-data-${COMMIT.slice(0, 7)}/`;
const MiB = 1024 * 1024;
const LIMITS: TarLimits = { maxBytes: 64 * MiB, maxEntries: 10_000, maxEntryBytes: MiB };
const enc = new TextEncoder();

/** A `next` over `chunks` that counts what the reader pulled. */
function source(chunks: Iterable<Uint8Array>) {
  const it = chunks[Symbol.iterator]();
  const seen = { bytes: 0 };
  const next = async () => {
    const r = it.next();
    if (r.done) return undefined;
    seen.bytes += r.value.length;
    return r.value;
  };
  return { next, seen };
}

async function readAll(chunks: Iterable<Uint8Array>, limits: Partial<TarLimits> = {}) {
  const got: TarEntry[] = [];
  const src = source(chunks);
  const error = await readTar(src.next, { ...LIMITS, ...limits }, (e) => got.push(e)).then(
    () => undefined,
    (e: unknown) => e as InvalidResponse,
  );
  return { got, error, pulled: src.seen.bytes };
}

function* paxEntry(records: Uint8Array[], then: Iterable<Uint8Array>): Generator<Uint8Array> {
  const size = records.reduce((n, r) => n + r.length, 0);
  yield tarHeader({ name: 'PaxHeader', type: 'x', size });
  yield* records;
  yield padding(size);
  yield* then;
}

describe('readTar: what git archive writes', () => {
  it('files, directories, symlinks, pax paths and sizes, GNU long names, the global header', async () => {
    const long = `${TOP}${'d/'.repeat(80)}deep.json`; // over ustar's 100-byte name field
    const gnuName = `${TOP}${'g'.repeat(150)}.json`;
    const { got, error } = await readAll([
      tarHeader({ name: 'pax_global_header', type: 'g', size: paxRecord('comment', COMMIT).length }),
      paxRecord('comment', COMMIT),
      padding(paxRecord('comment', COMMIT).length),
      tarHeader({ name: TOP, type: '5', mode: 0o775 }),
      ...fileEntry(`${TOP}a.json`, enc.encode('{"a":1}'), 0o664),
      ...fileEntry(`${TOP}run.sh`, enc.encode('#!/bin/sh\n'), 0o775),
      tarHeader({ name: `${TOP}link`, type: '2', linkname: 'a.json', mode: 0o777 }),
      ...paxEntry(
        [paxRecord('path', long), paxRecord('size', '3')],
        [tarHeader({ name: 'x', size: 0 }), enc.encode('abc'), padding(3)],
      ),
      tarHeader({ name: '././@LongLink', type: 'L', size: gnuName.length }),
      enc.encode(gnuName),
      padding(gnuName.length),
      ...fileEntry(gnuName.slice(0, 100), enc.encode('{}')),
      END,
    ]);
    expect(error).toBeUndefined();
    expect(got.map((e) => [e.path, e.type, e.mode.toString(8), new TextDecoder().decode(e.bytes), e.linkname])).toEqual(
      [
        [TOP, 'directory', '775', '', undefined],
        [`${TOP}a.json`, 'file', '664', '{"a":1}', undefined],
        [`${TOP}run.sh`, 'file', '775', '#!/bin/sh\n', undefined],
        [`${TOP}link`, 'symlink', '777', '', 'a.json'],
        [long, 'file', '644', 'abc', undefined],
        [gnuName, 'file', '644', '{}', undefined],
      ],
    );
  });

  it('corrupt tars name what is wrong: checksum, truncation, no end blocks, hard links, non-octal sizes', async () => {
    const bad = tarHeader({ name: `${TOP}a.json`, size: 2, badChecksum: true });
    expect((await readAll([bad, enc.encode('{}'), padding(2), END])).error?.message).toMatch(
      /checksum is \d+, its bytes sum to \d+ \(corrupt tar\)/,
    );
    const truncated = await readAll([tarHeader({ name: `${TOP}a.json`, size: 4096 }), new Uint8Array(100)]);
    expect(truncated.error?.message).toMatch(/the tar ends inside entry ".*a\.json" \(truncated\)/);
    expect((await readAll([...fileEntry(`${TOP}a.json`, enc.encode('{}'))])).error?.message).toMatch(
      /ends inside a header \(truncated\)/,
    );
    const hard = await readAll([tarHeader({ name: `${TOP}h`, type: '1', linkname: `${TOP}a.json` }), END]);
    expect(hard.error?.message).toMatch(/is a hard link; only files, directories and symlinks are read/);
    const junk = tarHeader({ name: `${TOP}a.json` });
    junk.set(enc.encode('zz'), 124);
    expect((await readAll([junk, END])).error?.message).toMatch(/checksum|size field is not an octal/);
    expect((await readAll([enc.encode('not a tar at all'.repeat(40))])).error).toBeInstanceOf(InvalidResponse);
  });
});

describe('readTar: hostile metadata is refused before it is read', () => {
  it('600 entries with an 8 MB pax path each: refused at the first record, having pulled ~one block', async () => {
    const r = await readAll(paxPathBomb(TOP, 600, 8 * MiB));
    expect(r.error).toBeInstanceOf(InvalidResponse);
    expect(r.error?.message).toMatch(
      new RegExp(`'x' metadata record of 838\\d{4} bytes is over the limit of ${MAX_META_BYTES} bytes`),
    );
    expect(r.error?.data).toMatchObject({ limit: 'metadata' });
    expect(isArchiveOverLimit(r.error)).toBe(false); // malformed, not big: no fallback
    expect(r.got.map((e) => e.path)).toEqual([TOP]);
    expect(r.pulled).toBeLessThan(4096); // the directory's header, the pax header: not the 8 MB
  });

  it('a GNU long name over the cap is refused the same way', async () => {
    const r = await readAll([tarHeader({ name: '././@LongLink', type: 'L', size: 5 * MiB }), new Uint8Array(5 * MiB)]);
    expect(r.error?.message).toMatch(/'L' metadata record of 5242880 bytes is over the limit/);
    expect(r.pulled).toBe(512);
  });

  it('a path longer than the top directory and the longest key, and a link over 4096 bytes', async () => {
    const path = `${TOP}${'a'.repeat(MAX_ARCHIVE_PATH_BYTES)}`;
    const r = await readAll(paxEntry([paxRecord('path', path)], [tarHeader({ name: 'x' }), END]));
    expect(r.error?.message).toMatch(
      new RegExp(`has a path of ${path.length} bytes; at most ${MAX_ARCHIVE_PATH_BYTES} are allowed`),
    );
    expect(r.got).toEqual([]);
    // The longest path an honest archive can hold is read.
    const ok = `${TOP}${'a'.repeat(MAX_ARCHIVE_PATH_BYTES - TOP.length)}`;
    expect((await readAll(paxEntry([paxRecord('path', ok)], [tarHeader({ name: 'x' }), END]))).got).toHaveLength(1);
    const link = await readAll(
      paxEntry([paxRecord('linkpath', 'l'.repeat(5000))], [tarHeader({ name: `${TOP}l`, type: '2' }), END]),
    );
    expect(link.error?.message).toMatch(/has a link of 5000 bytes; at most 4096 are allowed/);
  });

  it('an entry over maxEntryBytes is refused from its header, its content never pulled', async () => {
    const r = await readAll([tarHeader({ name: `${TOP}big.bin`, size: 50 * MiB }), new Uint8Array(50 * MiB)]);
    expect(r.error?.message).toMatch(/is larger than 1048576 bytes \(maxEntryBytes\)/);
    expect(r.pulled).toBe(512);
  });
});

describe('readTar: counts', () => {
  it('2,000,000 empty entries: stopped at maxEntries, one entry past it never handed over', async () => {
    const r = await readAll(manyEntries(TOP, 2_000_000), { maxEntries: 1_000 });
    expect(isArchiveOverLimit(r.error)).toBe(true);
    expect(r.error?.message).toMatch(/more than 1000 entries \(maxEntries\)/);
    expect(r.got).toHaveLength(1_000);
    expect(r.pulled).toBe(1_001 * 512);
  });

  it('headers count against maxBytes: empty entries cost 512 bytes each', async () => {
    const r = await readAll(manyEntries(TOP, 2_000_000), { maxBytes: 1 * MiB, maxEntries: 10_000_000 });
    expect(isArchiveOverLimit(r.error)).toBe(true);
    expect(r.error?.data).toMatchObject({ limit: 'maxBytes', allowed: MiB });
    expect(r.got).toHaveLength(2_048); // 2,048 headers fit in 1 MiB: the directory and 2,047 files
    expect(r.pulled).toBe(MiB);
  });

  it('a bad path mid-stream stops the read at that entry (the section builder judges each as it comes)', async () => {
    function* tar() {
      yield tarHeader({ name: TOP, type: '5' });
      for (let i = 0; i < 20_000; i++) {
        yield* fileEntry(i === 500 ? `${TOP}a/../../escape.json` : `${TOP}d/${i}.json`, enc.encode(`{"i":${i}}`));
      }
      yield END;
    }
    const builder = new ArchiveSectionBuilder(COMMIT, 'f'.repeat(40));
    let handed = 0;
    const src = source(tar());
    const err = await readTar(src.next, LIMITS, (e) => {
      handed++;
      builder.add(e);
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err.message).toMatch(/entry ".*a\/\.\.\/\.\.\/escape\.json" has an unsafe path/);
    expect(handed).toBe(502); // the directory, 500 files, the bad one: nothing after it
    expect(src.seen.bytes).toBe((1 + 501 * 2) * 512);
  });
});
