/**
 * One hostile archive read in its own process, with the default limits, as the bulk reader does it
 * (nodeArchiveReader handing each entry to the section builder): prints peak memory (measure.ts).
 *
 *   node --expose-gc --import tsx __tests__/memory/scenarios/archive-bomb.ts <pax|entries|zeros|honest> [n] [size]
 * pax: n entries with a pax path of `size` bytes (600 × 8 MB); entries: n empty files (2,000,000);
 * zeros: n files of `size` zero bytes (1024 × 1 MiB = 1 GiB); honest: n files of `size` random-ish bytes.
 */
import * as archive from '../../../src/stores/remote-api/archive-reads.js';
import { nodeArchiveReader } from '../../../src/stores/remote-api/node-archive.js';
import { gzipStream, manyEntries, paxPathBomb, zeroFiles } from '../../remote-api/tar-bombs.js';
import { measure } from '../measure.js';

const [kind = 'pax', nArg, sizeArg] = process.argv.slice(2);
const COMMIT = 'abcdef0123456789abcdef0123456789abcdef01';
const TOP = `octo-data-${COMMIT.slice(0, 7)}/`;
const MiB = 1024 * 1024;

function tar(): Iterable<Uint8Array> {
  if (kind === 'pax') return paxPathBomb(TOP, Number(nArg ?? 600), Number(sizeArg ?? 8 * MiB));
  if (kind === 'entries') return manyEntries(TOP, Number(nArg ?? 2_000_000));
  if (kind === 'zeros') return zeroFiles(TOP, Number(nArg ?? 1024), Number(sizeArg ?? MiB));
  throw new Error(`unknown kind ${kind}`);
}

await measure(async () => {
  const stats = { tarBytes: 0 };
  const reader = nodeArchiveReader({
    fetch: async () => new Response(gzipStream(tar(), stats), { status: 200 }),
  });
  // Works on the code before issue 27 too (no builder, every entry returned), so the bound can be shown
  // to fail there.
  const Builder = (archive as { ArchiveSectionBuilder?: new (c: string, t: string) => { add(e: unknown): void } })
    .ArchiveSectionBuilder;
  const builder = Builder ? new Builder(COMMIT, 'f'.repeat(40)) : undefined;
  const got = (await reader({
    url: 'http://127.0.0.1:9/tarball',
    headers: {},
    limits: archive.DEFAULT_ARCHIVE_LIMITS,
    onEntry: (e) => builder?.add(e),
  } as Parameters<typeof reader>[0])) as archive.ArchiveDownload & { entries?: archive.ArchiveEntry[] };
  if (got.entries) archive.sectionFromArchive(got.entries, COMMIT, 'f'.repeat(40));
  return { status: got.status, overLimit: got.overLimit?.data.limit ?? null, tarBytes: stats.tarBytes };
});
