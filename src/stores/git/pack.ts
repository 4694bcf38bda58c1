/**
 * Writing objects into a repository in one git process. The objects (blobs, trees, the commit) are
 * encoded by `src/core/git` and sent to git as one pack (no deltas), which git hashes and checks
 * (`--strict`) while storing it:
 * - fewer than `UNPACK_LIMIT` objects → `git unpack-objects --strict` (loose objects),
 * - otherwise → `git index-pack --stdin --strict` (kept as a pack),
 * the same split git itself makes for received packs (`transfer.unpackLimit`, default 100).
 * One process per write instead of `hash-object` per blob: a 10,000-document batch written as
 * loose objects costs seconds in file creation alone (see docs/git-stores.md).
 * Pack format: https://git-scm.com/docs/pack-format
 */
import { deflateSync } from 'node:zlib';
import { encodePack, type RawObject } from '../../core/git/pack.js';
import { type GitCommandOptions, runGit } from './git-command.js';

export type { RawObject } from '../../core/git/pack.js';

/** Objects below this count are stored loose; at or above it as a pack (git's `transfer.unpackLimit`). */
export const UNPACK_LIMIT = 100;

/**
 * zlib settings sized to the object: a window no larger than the object compresses it as well as the
 * default 32 KiB window, and a small window and hash table make each of thousands of small
 * `deflateSync` calls about twice as fast (most of their cost is setting up zlib's state). Any zlib
 * stream inflates with git's default window.
 */
function deflateOptions(size: number): { level: number; windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(size + 1))));
  return { level: 1, windowBits, memLevel: Math.min(8, Math.max(1, windowBits - 7)) };
}

/**
 * Encode objects as a version-2 pack with no deltas (the core's encoder with Node's zlib).
 *
 * @example
 * const pack = buildPack([{ type: 'blob', body: utf8('hello\n') }]);
 */
export function buildPack(objects: readonly RawObject[]): Uint8Array {
  return encodePack(objects, (body) => deflateSync(body, deflateOptions(body.length)));
}

/** Store objects in the repository (one git process). Objects it already has are fine. */
export async function writeObjects(options: GitCommandOptions, objects: readonly RawObject[]): Promise<void> {
  if (objects.length === 0) return;
  const pack = buildPack(objects);
  const args =
    objects.length < UNPACK_LIMIT ? ['unpack-objects', '-q', '--strict'] : ['index-pack', '--stdin', '--strict'];
  await runGit(options, args, { input: pack });
}
