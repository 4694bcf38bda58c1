/**
 * Reading a pack from the server (https://git-scm.com/docs/pack-format). First pack-check.ts reads it
 * once within fixed memory, refusing it when it would inflate past the limits; then each object is
 * inflated whole and each `ofs-delta`/`ref-delta` applied to its base (core/git/delta.ts, git's own
 * rules), in pack order, so every object is inflated once however long its delta chain. Every object
 * id is computed from the object's own bytes, so a server cannot label content with another id. A thin
 * pack's deltas against objects this store already holds find their bases through `readBase`.
 * Memory: the pack, plus every object it resolves to (at most `maxInflatedBytes`), held until returned.
 */
import pako from 'pako';
import { toHex, utf8 } from '../../core/bytes.js';
import { applyDelta, BadDelta } from '../../core/git/delta.js';
import type { ObjectType } from '../../core/git/objects.js';
import { sha1HexParts } from '../../core/git/sha1.js';
import { checkPack, overLimit, type PackCheckLimits, type PackIndex, parseDeadline, slotAt } from './pack-check.js';
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
  const resolved = await resolve(pack, checkPack(pack, count, limits, tick), readBase, tick);
  const out: PackObject[] = [];
  for (const o of resolved) if (o.type !== 'tag') out.push(o as PackObject);
  return out;
}

const TYPE_NAMES: Record<number, ObjectType | 'tag'> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

interface Resolved {
  sha: string;
  type: ObjectType | 'tag';
  body: Uint8Array;
}

/** An object's id: the SHA-1 of `<type> <size>\0<body>`. */
function objectId(type: string, body: Uint8Array): string {
  return sha1HexParts([utf8(`${type} ${body.length}\0`), body]);
}

/** The zlib stream of object `i` inflated whole (pack-check.ts has checked it inflates to its declared size). */
function inflateSlot(pack: Uint8Array, index: PackIndex, i: number): Uint8Array {
  return pako.inflate(pack.subarray(index.start[i], index.end[i]));
}

const REF_DELTA = 7;

/**
 * Every object of the pack, whole, in pack order. Deltas whose base is not resolved yet wait for a
 * later round (a ref-delta may name an object further on); when a round resolves nothing, a
 * ref-delta's base is asked of `readBase` (a thin pack), and what still has no base is unresolved.
 */
async function resolve(pack: Uint8Array, index: PackIndex, readBase: ReadBase | undefined, tick: () => void) {
  const slots: (Resolved | undefined)[] = new Array(index.count);
  const bySha = new Map<string, Resolved>();
  const add = (i: number, r: Resolved) => {
    slots[i] = r;
    bySha.set(r.sha, r);
  };
  const baseOf = (i: number) =>
    index.type[i] === REF_DELTA
      ? bySha.get(refBase(pack, index, i))
      : slots[slotAt(index, index.count, index.base[i] as number)];
  const asked = new Set<string>();
  let waiting: number[] = [];
  for (let i = 0; i < index.count; i++) {
    const type = TYPE_NAMES[index.type[i] as number];
    if (type) {
      const body = inflateSlot(pack, index, i);
      add(i, { sha: objectId(type, body), type, body });
    } else waiting.push(i);
    tick();
  }
  while (waiting.length > 0) {
    const next: number[] = [];
    for (const i of waiting) {
      const base = baseOf(i);
      if (base) add(i, applyTo(pack, index, i, base));
      else next.push(i);
      tick();
    }
    if (next.length === waiting.length && !(await fetchBases(pack, index, next, bySha, asked, readBase))) break;
    waiting = next;
  }
  if (waiting.length > 0) {
    if (readBase) throw new UnresolvedDeltas(waiting.length);
    throw malformed('pack', `${waiting.length} of its ${index.count} objects have delta bases that are not in it`);
  }
  return slots as Resolved[];
}

/** The id a ref-delta names as its base. */
function refBase(pack: Uint8Array, index: PackIndex, i: number): string {
  const at = index.base[i] as number;
  return toHex(pack.subarray(at, at + 20));
}

/** Delta `i` applied to its base: the base's type, the delta's result, its id. */
function applyTo(pack: Uint8Array, index: PackIndex, i: number, base: Resolved): Resolved {
  try {
    const body = applyDelta(base.body, inflateSlot(pack, index, i));
    return { sha: objectId(base.type, body), type: base.type, body };
  } catch (err) {
    if (err instanceof BadDelta) throw malformed('pack', `the delta at byte ${index.offset[i]}: ${err.reason}`);
    throw err;
  }
}

/** Ask `readBase` for the ref-delta bases of `waiting` not asked before; true when one was found. */
async function fetchBases(
  pack: Uint8Array,
  index: PackIndex,
  waiting: number[],
  bySha: Map<string, Resolved>,
  asked: Set<string>,
  readBase: ReadBase | undefined,
): Promise<boolean> {
  if (!readBase) return false;
  let found = false;
  for (const i of waiting) {
    if (index.type[i] !== REF_DELTA) continue;
    const sha = refBase(pack, index, i);
    if (asked.has(sha)) continue;
    asked.add(sha);
    const o = await readBase(sha);
    if (o) {
      bySha.set(sha, { sha, type: o.type, body: o.body });
      found = true;
    }
  }
  return found;
}
