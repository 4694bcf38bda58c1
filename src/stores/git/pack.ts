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
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { ObjectType } from '../../core/git/objects.js';
import { type GitCommandOptions, runGit } from './git-command.js';

/** Objects below this count are stored loose; at or above it as a pack (git's `transfer.unpackLimit`). */
export const UNPACK_LIMIT = 100;

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };

export interface RawObject {
  type: ObjectType;
  body: Uint8Array;
}

/** Object header of the pack format: type and size as a little-endian base-128 varint. */
function objectHeader(type: ObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let c = (TYPE_CODE[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(c | 0x80);
    c = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(c);
  return Buffer.from(bytes);
}

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
 * Encode objects as a version-2 pack with no deltas.
 *
 * @example
 * const pack = buildPack([{ type: 'blob', body: utf8('hello\n') }]);
 */
export function buildPack(objects: readonly RawObject[]): Buffer {
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(objects.length, 8);
  const parts: Buffer[] = [head];
  for (const o of objects) {
    parts.push(objectHeader(o.type, o.body.length), deflateSync(o.body, deflateOptions(o.body.length)));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** Store objects in the repository (one git process). Objects it already has are fine. */
export async function writeObjects(options: GitCommandOptions, objects: readonly RawObject[]): Promise<void> {
  if (objects.length === 0) return;
  const pack = buildPack(objects);
  const args =
    objects.length < UNPACK_LIMIT ? ['unpack-objects', '-q', '--strict'] : ['index-pack', '--stdin', '--strict'];
  await runGit(options, args, { input: pack });
}
