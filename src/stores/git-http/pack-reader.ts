/**
 * Reading a pack from the server: isomorphic-git's `indexPack` parses it — zlib streams, `ofs-delta`
 * and `ref-delta` objects, delta chains — and computes every object id from the object's own bytes
 * (so a server cannot label content with another id); `readObject` then gives each object whole.
 * Both run on an in-memory file system that lives for one pack; a thin pack's deltas against objects
 * this store already holds find their bases through `readBase`, served as loose objects. Before that,
 * pack-check.ts reads the whole pack once within fixed memory, so a pack isomorphic-git gets cannot
 * inflate past the limits (it inflates each object whole, and checks sizes only after). Pack format:
 * https://git-scm.com/docs/pack-format. See docs/decisions.md for why isomorphic-git.
 */
import { indexPack, readObject } from 'isomorphic-git';
import pako from 'pako';
import { encodeObject, type ObjectType } from '../../core/git/objects.js';
import { MemoryFs } from './mem-fs.js';
import { checkPack, overLimit, type PackCheckLimits, parseDeadline } from './pack-check.js';
import { malformed } from './pkt-line.js';

/** One object of a pack, whole. */
export interface PackObject {
  sha: string;
  type: ObjectType;
  body: Uint8Array;
}

/** Limits on what one pack may hold and cost (the reply itself is already size-capped). */
export type PackLimits = PackCheckLimits;

/** Reads an object this store holds (a thin pack's delta base), or undefined. */
export type ReadBase = (sha: string) => Promise<{ type: ObjectType; body: Uint8Array } | undefined>;

/** A thin pack named a delta base this store does not hold (evicted): fetch again without `have`s. */
export class UnresolvedDeltas extends Error {
  constructor(missing: number) {
    super(`${missing} objects of a thin pack have delta bases that are not here`);
    this.name = 'UnresolvedDeltas';
  }
}

const GITDIR = '/git';
const LOOSE = /^\/git\/objects\/([0-9a-f]{2})\/([0-9a-f]{38})$/;

/** A loose object file (zlib of `<type> <size>\0<body>`) for a base `readBase` holds. */
function looseObjects(readBase: ReadBase | undefined) {
  return async (path: string): Promise<Uint8Array | undefined> => {
    const m = LOOSE.exec(path);
    const o = m && readBase ? await readBase(`${m[1]}${m[2]}`) : undefined;
    return o && pako.deflate(encodeObject(o.type, o.body), { level: 1 });
  };
}
const PACK_PATH = 'objects/pack/pack-received.pack';

/** Object count from the pack header (`PACK`, version 2 or 3, count), checked before any parsing. */
function packCount(pack: Uint8Array, limits: PackLimits): number {
  const magic = String.fromCharCode(...pack.subarray(0, 4));
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  if (pack.length < 32 || magic !== 'PACK') throw malformed('pack', 'no PACK header');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw malformed('pack', `unsupported pack version ${version}`);
  const count = view.getUint32(8);
  if (count > limits.maxObjects) throw overLimit('maxObjects', limits.maxObjects, `it declares ${count} objects`);
  return count;
}

/**
 * Every blob, tree and commit in `pack` (tags are skipped: a section holds none). An empty reply (the
 * server had nothing to send) is no objects.
 *
 * @example
 * const limits = { maxObjects: 1e6, maxObjectBytes: 128 << 20, maxInflatedBytes: 1 << 30, maxParseMs: 120_000 };
 * for (const o of await unpack(reply.pack, limits)) store.put(o);
 */
export async function unpack(pack: Uint8Array, limits: PackLimits, readBase?: ReadBase): Promise<PackObject[]> {
  if (pack.length === 0) return [];
  const count = packCount(pack, limits);
  if (count === 0) return [];
  const tick = parseDeadline(limits);
  checkPack(pack, count, limits, tick);
  const fs = new MemoryFs(looseObjects(readBase));
  await fs.promises.writeFile(`${GITDIR}/${PACK_PATH}`, pack);
  const cache = {};
  let oids: string[];
  try {
    ({ oids } = await indexPack({ fs, dir: GITDIR, gitdir: GITDIR, filepath: PACK_PATH, cache }));
  } catch (e) {
    throw malformed('pack', `it could not be parsed (${(e as Error).message})`);
  }
  if (oids.length !== count) {
    if (readBase) throw new UnresolvedDeltas(count - oids.length);
    throw malformed('pack', `${count - oids.length} of its ${count} objects could not be resolved`);
  }
  const out: PackObject[] = [];
  for (const oid of oids) {
    tick();
    const o = await readObject({ fs, gitdir: GITDIR, oid, format: 'content', cache });
    const type = o.type as string;
    if (type === 'tag') continue;
    if (type !== 'blob' && type !== 'tree' && type !== 'commit') throw malformed('pack', `object ${oid} is a ${type}`);
    const body = o.object as Uint8Array;
    if (body.length > limits.maxObjectBytes) {
      throw overLimit('maxObjectBytes', limits.maxObjectBytes, `object ${oid} is ${body.length} bytes`);
    }
    out.push({ sha: oid, type, body: new Uint8Array(body.buffer, body.byteOffset, body.length) });
  }
  return out;
}
