/**
 * One hostile archive read in its own process, with the default limits, as the bulk reader does it
 * (nodeArchiveReader handing each entry to the section builder): prints peak memory (measure.ts).
 *
 *   node --expose-gc --import tsx __tests__/memory/scenarios/archive-bomb.ts <pax|entries|zeros|honest> [n] [size]
 * pax: n entries with a pax path of `size` bytes (600 × 8 MB); entries: n empty files (2,000,000);
 * deep: n empty files each under ~115 directories no entry announces (200,000);
 * zeros: n files of `size` zero bytes (1024 × 1 MiB = 1 GiB); honest: n JSON documents of ~`size` bytes
 * (read whole: the section's blobs and levels are built, as a bulk read builds them).
 */
import * as archive from '../../../src/stores/remote-api/archive-reads.js';
import { nodeArchiveReader } from '../../../src/stores/remote-api/node-archive.js';
import {
  deepPaths,
  END,
  fileEntry,
  gzipStream,
  manyEntries,
  paxPathBomb,
  tarHeader,
  zeroFiles,
} from '../../remote-api/tar-bombs.js';
import { measure } from '../measure.js';

const [kind = 'pax', nArg, sizeArg] = process.argv.slice(2);
const COMMIT = 'abcdef0123456789abcdef0123456789abcdef01';
const TOP = `octo-data-${COMMIT.slice(0, 7)}/`;
const MiB = 1024 * 1024;

function tar(): Iterable<Uint8Array> {
  if (kind === 'pax') return paxPathBomb(TOP, Number(nArg ?? 600), Number(sizeArg ?? 8 * MiB));
  if (kind === 'entries') return manyEntries(TOP, Number(nArg ?? 2_000_000));
  if (kind === 'deep') return deepPaths(TOP, Number(nArg ?? 200_000));
  if (kind === 'zeros') return zeroFiles(TOP, Number(nArg ?? 1024), Number(sizeArg ?? MiB));
  if (kind === 'honest') return honestFiles(Number(nArg ?? 1000), Number(sizeArg ?? 16 * 1024));
  throw new Error(`unknown kind ${kind}`);
}

/** `n` JSON documents of ~`size` bytes with varying numbers (compress ~3:1, as real documents do). */
function* honestFiles(n: number, size: number): Generator<Uint8Array> {
  yield tarHeader({ name: TOP, type: '5', mode: 0o775 });
  let seed = 1;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let i = 0; i < n; i++) {
    const parts: string[] = [];
    for (let len = 0; len < size - 40; ) {
      const part = `"k${rand() % 1000}":${rand()},`;
      parts.push(part);
      len += part.length;
    }
    const text = `{"id":${i},${parts.join('').slice(0, -1)}}\n`;
    yield* fileEntry(`${TOP}d/${i % 100}/doc-${i}.json`, new TextEncoder().encode(text));
  }
  yield END;
}

await measure(async () => {
  const stats = { tarBytes: 0 };
  const reader = nodeArchiveReader({
    fetch: async () => new Response(gzipStream(tar(), stats), { status: 200 }),
  });
  // Works on the code before issue 27 too (no builder, every entry returned), so the bound can be shown
  // to fail there.
  const Builder = (
    archive as {
      ArchiveSectionBuilder?: new (
        c: string,
        t: string,
        maxEntries?: number,
      ) => { add(e: unknown): void; finish(): archive.ArchiveSection };
    }
  ).ArchiveSectionBuilder;
  const builder = Builder ? new Builder(COMMIT, 'f'.repeat(40), archive.DEFAULT_ARCHIVE_LIMITS.maxEntries) : undefined;
  const got = (await reader({
    url: 'http://127.0.0.1:9/tarball',
    headers: {},
    limits: archive.DEFAULT_ARCHIVE_LIMITS,
    onEntry: (e) => builder?.add(e),
  } as Parameters<typeof reader>[0])) as archive.ArchiveDownload & { entries?: archive.ArchiveEntry[] };
  const section = got.entries
    ? archive.sectionFromArchive(got.entries, COMMIT, 'f'.repeat(40))
    : got.overLimit
      ? undefined
      : builder?.finish();
  let sectionBytes = 0;
  for (const b of section?.blobs.values() ?? []) sectionBytes += b.length;
  return {
    status: got.status,
    overLimit: got.overLimit?.data.limit ?? null,
    tarBytes: stats.tarBytes,
    blobs: section?.blobs.size ?? 0,
    sectionBytes,
  };
});
