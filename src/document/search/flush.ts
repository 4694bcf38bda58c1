/**
 * Emptying a full `delta.txt` (an LSM step): its entries join the pending entries of the delta parts
 * (delta-parts.ts), then a FEW shards take their pending entries — at most max(1, ⌊5 % × shards⌋) term
 * files written, those with the most pending bytes first — and everything still pending is cut again
 * into parts by the new shard layout. A 100-document write's ~6,000 postings fall in every term range;
 * merging them all would rewrite every shard, so they wait in the parts until their shard's turn.
 *
 * Two hard bounds may force more files than the share: a part whose pending bytes would pass
 * `maxDeltaPartBytes` merges its shards until it fits (sustained writes far beyond 100 documents), and a
 * shard that outgrows `maxShardBytes` when merged is split (two files for one).
 */
import { applyToShards, changesByShard, type PostingChange, type ShardEdit } from './apply.js';
import { type Delta, encodeDelta, isTombstone } from './delta.js';
import { deltaPartPaths, loadDeltaPart, overlay, partLayout, shardsPerPart, splitByPart } from './delta-parts.js';
import { type SearchManifest, type ShardRef, shardPathOf } from './manifest.js';
import { readAll, type SearchRead } from './need.js';
import { deltaPartPath } from './paths.js';

/** Share of a type's shards one write may rewrite (issue 42: ≤ 5 %). */
export const MERGE_SHARE = 0.05;

export interface FlushOptions {
  maxShardBytes: number;
  maxDeltaPartBytes: number;
}

/** The shard edit, plus the delta parts after it: the new layout, part files to write and to delete. */
export interface Flush extends ShardEdit {
  deltas: ShardRef[];
}

/**
 * Term shards one write may rewrite: max(1, ⌊5 % × shards⌋).
 *
 * @example
 * mergeBudget(26); // 1
 * mergeBudget(223); // 11
 */
export function mergeBudget(shards: number): number {
  return Math.max(1, Math.floor(MERGE_SHARE * shards));
}

/** Entries as changes to merge into the shards (a tombstone removes). */
function asChanges(entries: Delta): PostingChange[] {
  const out: PostingChange[] = [];
  for (const [term, e] of entries) for (const p of e.values()) out.push({ term, posting: p, remove: isTombstone(p) });
  return out;
}

function asEntries(changes: readonly PostingChange[], into: Delta): void {
  for (const c of changes) {
    let e = into.get(c.term);
    if (!e) {
      e = new Map();
      into.set(c.term, e);
    }
    e.set(c.posting.ordinal, c.posting);
  }
}

/** Encoded bytes of each shard's pending entries. */
function pendingBytes(grouped: Map<number, PostingChange[]>, m: SearchManifest): Map<number, number> {
  const out = new Map<number, number>();
  for (const [i, changes] of grouped) {
    const d: Delta = new Map();
    asEntries(changes, d);
    out.set(i, encodeDelta(d, m).length);
  }
  return out;
}

/**
 * Shards whose pending entries must be merged now: in each group of shards (a part of the current
 * layout), the largest until the rest fits `cap`.
 */
function forcedShards(m: SearchManifest, bytes: Map<number, number>, cap: number): number[] {
  const size = shardsPerPart(m.shards.length);
  const out: number[] = [];
  for (let first = 0; first < m.shards.length; first += size) {
    const group = [...bytes.keys()].filter((i) => i >= first && i < first + size);
    group.sort((a, b) => bytes.get(b)! - bytes.get(a)! || a - b);
    let total = group.reduce((n, i) => n + bytes.get(i)!, 0);
    for (const i of group) {
      if (total <= cap) break;
      out.push(i);
      total -= bytes.get(i)!;
    }
  }
  return out;
}

/**
 * Which shards take their pending entries: the forced ones, then the most pending first while the
 * files written stay within the budget (the first always, even when it splits, so the largest never
 * waits forever).
 */
function chooseMerges(
  m: SearchManifest,
  grouped: Map<number, PostingChange[]>,
  order: { forced: number[]; wanted: number[] },
  bytesOf: (i: number) => Uint8Array | null,
  o: FlushOptions,
): Map<number, PostingChange[]> {
  const budget = mergeBudget(m.shards.length);
  const out = new Map<number, PostingChange[]>();
  let written = 0;
  const filesOf = (i: number) =>
    applyToShards(m, new Map([[i, grouped.get(i)!]]), bytesOf, o.maxShardBytes).writes.size;
  for (const i of order.forced) {
    out.set(i, grouped.get(i)!);
    written += filesOf(i);
  }
  for (const i of order.wanted) {
    const files = filesOf(i);
    if (out.size > 0 && written + files > budget) continue;
    out.set(i, grouped.get(i)!);
    written += files;
  }
  return out;
}

/** Pending entries cut into parts by the shards after the merge; writes and deletes of part files. */
function rewriteParts(m: SearchManifest, rest: Delta, edit: ShardEdit, old: (Uint8Array | null)[]): ShardRef[] {
  const layout = rest.size === 0 ? [] : partLayout(edit.shards);
  const oldPaths = deltaPartPaths(m);
  const parts = splitByPart(rest, layout);
  const paths = layout.map((p) => deltaPartPath(m.namespace, m.type, p.name));
  parts.forEach((d, i) => {
    const bytes = encodeDelta(d, m);
    const before = old[oldPaths.indexOf(paths[i]!)];
    if (!before || before.length !== bytes.length || before.some((x, k) => x !== bytes[k])) {
      edit.writes.set(paths[i]!, bytes);
    }
  });
  for (const p of oldPaths) if (!paths.includes(p)) edit.deletes.push(p);
  return layout;
}

/**
 * Empty the full top delta `top` into the delta parts and merge a few shards (NeedFiles protocol: the
 * parts, then the shards it may merge). `top` is emptied by the caller.
 *
 * @example
 * const flush = flushDelta(m, topEntries, read, { maxShardBytes: 131072, maxDeltaPartBytes: 131072 });
 */
export function flushDelta(m: SearchManifest, top: Delta, read: SearchRead, o: FlushOptions): Flush {
  const old = readAll(read, deltaPartPaths(m));
  const pending: Delta = new Map();
  old.forEach((bytes, i) => {
    overlay(pending, loadDeltaPart(m, i, bytes));
  });
  overlay(pending, top);
  const grouped = changesByShard(m, asChanges(pending));
  const bytes = pendingBytes(grouped, m);
  const forced = forcedShards(m, bytes, o.maxDeltaPartBytes);
  const wanted = [...bytes.keys()]
    .filter((i) => !forced.includes(i))
    .sort((a, b) => bytes.get(b)! - bytes.get(a)! || a - b)
    .slice(0, mergeBudget(m.shards.length));
  const toRead = [...forced, ...wanted].sort((a, b) => a - b);
  const shardBytes = readAll(
    read,
    toRead.map((i) => shardPathOf(m, i)),
  );
  const bytesOf = (i: number) => shardBytes[toRead.indexOf(i)]!;
  const merge = chooseMerges(m, grouped, { forced, wanted }, bytesOf, o);
  const edit = applyToShards(m, merge, bytesOf, o.maxShardBytes);
  const rest: Delta = new Map();
  for (const [i, changes] of grouped) if (!merge.has(i)) asEntries(changes, rest);
  const deltas = rewriteParts(m, rest, edit, old);
  return { ...edit, deltas };
}
