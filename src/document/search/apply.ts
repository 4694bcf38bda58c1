/**
 * Merging the delta's entries into the shards that hold their keys: drop tombstoned postings, replace
 * or insert the others, and re-cut a shard that outgrew the bound. An emptied shard is dropped (the one
 * before it, or the next when it was the first, covers its range).
 */
import { firstKey, resplit, separatorKey } from './chunk.js';
import { type Key, type SearchManifest, type ShardRef, shardFor, shardPathOf } from './manifest.js';
import { codingOf, encodeShard, type Line, loadShard, type Posting } from './shard.js';

export interface PostingChange {
  term: string;
  /** The posting as the document's old text gives it (removed), or its new one (added). */
  posting: Posting;
  remove: boolean;
}

/**
 * Lines of one shard with the delta's entries merged in, still in term order: a removal drops the
 * posting if the shard holds it (a tombstone may stand for a posting that only the delta held), an
 * addition replaces or inserts it.
 */
function applyToLines(lines: Line[], changes: readonly PostingChange[]): Line[] {
  const byTerm = new Map(lines.map((l) => [l.term, [...l.postings]]));
  for (const c of changes) {
    const list = byTerm.get(c.term) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.ordinal < c.posting.ordinal) lo = mid + 1;
      else hi = mid;
    }
    const found = list[lo]?.ordinal === c.posting.ordinal;
    if (c.remove) {
      if (found) list.splice(lo, 1);
    } else list.splice(lo, found ? 1 : 0, c.posting);
    byTerm.set(c.term, list);
  }
  const terms = [...byTerm.keys()].filter((t) => byTerm.get(t)!.length > 0).sort();
  return terms.map((term) => ({ term, postings: byTerm.get(term)! }));
}

/** Every shard emptied: the index keeps its first shard, empty (a type always has one). */
function keepOneEmpty(m: SearchManifest, edit: ShardEdit): void {
  const key = edit.deletes.shift()!;
  const ref = m.shards.find((_, i) => shardPathOf(m, i) === key)!;
  edit.shards.push({ name: ref.name, lower: null });
  edit.writes.set(key, new Uint8Array(0));
}

export interface ShardEdit {
  shards: ShardRef[];
  nextShard: number;
  writes: Map<string, Uint8Array>;
  deletes: string[];
}

/** Changes grouped by the index of the shard whose range holds them. */
export function changesByShard(m: SearchManifest, changes: readonly PostingChange[]): Map<number, PostingChange[]> {
  const out = new Map<number, PostingChange[]>();
  for (const c of changes) {
    const key: Key = [c.term, c.posting.ordinal];
    const i = shardFor(m, key);
    const list = out.get(i);
    if (list) list.push(c);
    else out.set(i, [c]);
  }
  return out;
}

/**
 * Rewrite the shards `grouped` touches (their bytes given by `bytesOf`), re-cutting those that outgrew
 * `maxBytes` and dropping the emptied ones; the new shard list with its new bounds.
 *
 * @example
 * const edit = applyToShards(m, changesByShard(m, changes), bytesOf, 131072);
 */
export function applyToShards(
  m: SearchManifest,
  grouped: Map<number, PostingChange[]>,
  bytesOf: (i: number) => Uint8Array | null,
  maxBytes: number,
): ShardEdit {
  const edit: ShardEdit = { shards: [], nextShard: m.nextShard, writes: new Map(), deletes: [] };
  const coding = codingOf(m);
  m.shards.forEach((ref, i) => {
    const changes = grouped.get(i);
    if (!changes) {
      edit.shards.push(ref);
      return;
    }
    const key = shardPathOf(m, i);
    const lines = applyToLines(loadShard(m, i, bytesOf(i)), changes);
    if (lines.length === 0 && m.shards.length > 1) {
      edit.deletes.push(key);
      return;
    }
    resplit(lines, coding, maxBytes).forEach((chunk, n, pieces) => {
      const name = n === 0 ? ref.name : String(edit.nextShard++);
      const lower = n === 0 ? ref.lower : separatorKey(pieces[n - 1]!.at(-1)!.term, firstKey(chunk));
      const shard: ShardRef = { name, lower };
      edit.shards.push(shard);
      edit.writes.set(shardPathOf({ ...m, shards: [shard] }, 0), encodeShard(chunk, coding));
    });
  });
  if (edit.shards.length === 0) keepOneEmpty(m, edit);
  // The first shard starts from the beginning whichever shard it was.
  edit.shards[0] = { ...edit.shards[0]!, lower: null };
  return edit;
}
