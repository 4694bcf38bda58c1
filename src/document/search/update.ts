/**
 * Keep a type's search index exact across a write (issue 42), in the same commit as the documents.
 * Pure: the caller reads files at the tip through `read` (NeedFiles protocol) and commits `writes` and
 * `deletes`. A write records its documents' removed and added postings in `delta.txt` (delta.ts) and
 * rewrites the id buckets of their ids, the table parts of their ordinals, and the manifest when its
 * counts change; when `delta.txt` outgrows its bound, the write empties it into the delta parts and
 * merges at most max(1, 5 %) of the shards (flush.ts). A document whose searchable text did not change
 * costs nothing.
 *
 * Rounds: (1) the manifest; (2) the id buckets, `delta.txt`, the table parts of the ordinals new
 * documents get, and the delta parts when the write's own entries surely fill `delta.txt` (all
 * predictable: `searchFirstPaths`); (3) the table parts of deleted documents' ordinals (known from their
 * bucket), the delta parts when `delta.txt` turned out full, and every bucket when the type outgrew its
 * bucket count; (4) the shards the flush merges.
 */
import { appendAll } from '../../core/arrays.js';
import { bytesEqual } from '../../core/bytes.js';
import { InvalidConfig, InvalidResponse } from '../../core/errors.js';
import { type Analyzed, analyze } from './analyze.js';
import type { PostingChange } from './apply.js';
import { BUCKET_TARGET, bucketCountFor, checkShardCount } from './build.js';
import { normOf } from './codec.js';
import type { TypeSearch } from './declaration.js';
import { type Delta as DeltaEntries, deltaBound, encodeDelta, parseDelta } from './delta.js';
import { deltaPartPaths } from './delta-parts.js';
import { type Flush, flushDelta } from './flush.js';
import { parseSearchManifest, type SearchManifest, serializeSearchManifest, TABLE_PART_SIZE } from './manifest.js';
import { readAll, type SearchOptions, type SearchRead, searchOptions } from './need.js';
import { bucketPath, deltaPath, searchManifestPath, tablePartPath } from './paths.js';
import {
  bucketOf,
  encodeBucket,
  encodeTablePart,
  parseBucket,
  parseTablePart,
  partLength,
  readManifest,
} from './table.js';

/** One document's change (envelope data): `before` absent = created, `after` absent = deleted. */
export interface SearchChange {
  id: string;
  before?: unknown;
  after?: unknown;
}

/** A change that touches the index: the document's old and new analysis (null = absent). */
interface Delta {
  id: string;
  before: Analyzed | null;
  after: Analyzed | null;
}

function sameAnalysis(a: Analyzed, b: Analyzed): boolean {
  // Equal lengths, not just equal norms: the manifest's totals would change.
  if (a.terms.size !== b.terms.size || a.lengths.some((n, f) => n !== b.lengths[f])) return false;
  for (const [term, tf] of a.terms) {
    const other = b.terms.get(term);
    if (!other || tf.some((x, f) => x !== other[f])) return false;
  }
  return true;
}

function deltasOf(t: TypeSearch, changes: readonly SearchChange[]): Delta[] {
  const seen = new Set<string>();
  const out: Delta[] = [];
  changes.forEach((c, i) => {
    if (typeof c.id !== 'string' || c.id === '') throw new InvalidConfig(`changes[${i}].id`, 'must be a non-empty id');
    if (seen.has(c.id)) throw new InvalidConfig(`changes[${i}].id`, `changes ${c.id} twice; give one change per id`);
    seen.add(c.id);
    const before = c.before === undefined ? null : analyze(t, { id: c.id, data: c.before });
    const after = c.after === undefined ? null : analyze(t, { id: c.id, data: c.after });
    if (before && after && sameAnalysis(before, after)) return;
    if (before || after) out.push({ id: c.id, before, after });
  });
  return out;
}

/** Ordinals new documents get, in change order: freed ones first (lowest first), then fresh ones. */
function newOrdinals(m: SearchManifest, deltas: readonly Delta[]): Map<string, number> {
  const out = new Map<string, number>();
  let free = 0;
  let next = m.next;
  for (const d of deltas) if (!d.before) out.set(d.id, free < m.free.length ? m.free[free++]! : next++);
  return out;
}

/** Paths of round 2: buckets of the ids, the delta, table parts of new ordinals. */
function roundTwo(m: SearchManifest, deltas: readonly Delta[], o: Required<SearchOptions>): string[] {
  const paths = new Set<string>();
  for (const d of deltas) paths.add(bucketPath(m.namespace, m.type, bucketOf(d.id, m.buckets)));
  paths.add(deltaPath(m.namespace, m.type));
  // A write whose own entries fill delta.txt will empty it into the parts: read them now, not a round later.
  if (surelyFills(deltas, o)) for (const p of deltaPartPaths(m)) paths.add(p);
  for (const o of newOrdinals(m, deltas).values()) {
    const p = Math.floor(o / TABLE_PART_SIZE);
    if (p * TABLE_PART_SIZE < m.next) paths.add(tablePartPath(m.namespace, m.type, p));
  }
  return [...paths];
}

/** Fewest bytes a delta entry takes (a posting of two symbols, its term's line shared). */
const ENTRY_BYTES = 2;

/** Whether the write's own delta entries alone outgrow delta.txt's bound (each changed term an entry). */
function surelyFills(deltas: readonly Delta[], o: Required<SearchOptions>): boolean {
  let entries = 0;
  for (const d of deltas) {
    for (const [term, tf] of d.before?.terms ?? []) {
      const after = d.after?.terms.get(term);
      if (!after || after.some((x, f) => x !== tf[f])) entries++;
    }
    for (const term of d.after?.terms.keys() ?? []) if (!d.before?.terms.has(term)) entries++;
  }
  return entries * ENTRY_BYTES > deltaBound(o.maxShardBytes);
}

/**
 * The files `updateSearch` needs after the manifest, from the manifest's bytes, so a caller fetches
 * them in one round (all but the table parts of deleted documents, which their buckets name).
 *
 * @example
 * searchFirstPaths(t, manifestBytes, [{ id: 'a', after: { title: 'new' } }]); // bucket, shards, table part
 */
export function searchFirstPaths(
  t: TypeSearch,
  manifest: Uint8Array,
  changes: readonly SearchChange[],
  o?: SearchOptions,
): string[] {
  return roundTwo(parseSearchManifest(t, manifest), deltasOf(t, changes), searchOptions(o));
}

/** A reader that fails for absent files the manifest needs (InvalidResponse, from each parser). */
function fetched(read: SearchRead, paths: string[]): Map<string, Uint8Array | null> {
  const bytes = readAll(read, paths);
  return new Map(paths.map((p, i) => [p, bytes[i]!]));
}

function postingChanges(d: Delta, ordinal: number): PostingChange[] {
  const out: PostingChange[] = [];
  const postingOf = (a: Analyzed, tf: number[]) => ({
    ordinal,
    tf,
    norm: tf.map((x, f) => (x > 0 ? normOf(a.lengths[f]!) : 0)),
  });
  const before = d.before ? new Map([...d.before.terms].map(([term, tf]) => [term, postingOf(d.before!, tf)])) : null;
  const after = d.after ? new Map([...d.after.terms].map(([term, tf]) => [term, postingOf(d.after!, tf)])) : null;
  for (const [term, p] of before ?? []) {
    const q = after?.get(term);
    const same = q && p.tf.every((x, f) => x === q.tf[f] && (x === 0 || p.norm[f] === q.norm[f]));
    if (!same) out.push({ term, posting: p, remove: true });
    if (same) after!.delete(term);
  }
  for (const [term, p] of after ?? []) out.push({ term, posting: p, remove: false });
  return out;
}

/** Record posting changes in the delta: a removal becomes a tombstone, an addition the new posting. */
function recordChanges(entries: DeltaEntries, changes: readonly PostingChange[], fields: number): void {
  for (const c of changes) {
    let e = entries.get(c.term);
    if (!e) {
      e = new Map();
      entries.set(c.term, e);
    }
    const none = new Array<number>(fields).fill(0);
    e.set(c.posting.ordinal, c.remove ? { ordinal: c.posting.ordinal, tf: none, norm: none } : c.posting);
  }
}

function bucketMaps(m: SearchManifest, deltas: readonly Delta[], files: Map<string, Uint8Array | null>) {
  const out = new Map<number, Map<string, number>>();
  for (const d of deltas) {
    const b = bucketOf(d.id, m.buckets);
    if (!out.has(b)) out.set(b, parseBucket(m, b, files.get(bucketPath(m.namespace, m.type, b))!));
  }
  return out;
}

/** Each changed document's ordinal: from its bucket when it exists, a new one when it is created. */
function ordinalsOf(m: SearchManifest, deltas: readonly Delta[], buckets: Map<number, Map<string, number>>) {
  const fresh = newOrdinals(m, deltas);
  const out = new Map<string, number>();
  for (const d of deltas) {
    const b = bucketOf(d.id, m.buckets);
    const known = buckets.get(b)!.get(d.id);
    if ((known !== undefined) !== (d.before !== null)) {
      const key = bucketPath(m.namespace, m.type, b);
      const why = d.before ? 'does not list' : 'already lists';
      throw new InvalidResponse(
        `search bucket ${key} ${why} document ${JSON.stringify(d.id)}: the search index is out of step with the documents; rebuild it`,
        { key, id: d.id },
      );
    }
    out.set(d.id, known ?? fresh.get(d.id)!);
  }
  return out;
}

interface Plan {
  m: SearchManifest;
  deltas: Delta[];
  ordinals: Map<string, number>;
  buckets: Map<number, Map<string, number>>;
  freed: number[];
  used: number;
  next: number;
}

/** The manifest after the write, its shard and delta-part lists from the flush (if any). */
function nextManifest(p: Plan, f: Flush, buckets: number): SearchManifest {
  const docs = [...p.m.docs];
  const lengths = [...p.m.lengths];
  for (const d of p.deltas) {
    for (const [a, sign] of [
      [d.before, -1],
      [d.after, 1],
    ] as const) {
      a?.lengths.forEach((n, f) => {
        lengths[f]! += sign * n;
        if (n > 0) docs[f]! += sign;
      });
    }
  }
  const free = [...p.m.free.slice(p.used), ...p.freed].sort((a, b) => a - b);
  const count = p.next - free.length;
  const { shards, nextShard, deltas } = f;
  return { ...p.m, count, docs, lengths, next: p.next, free, buckets, nextShard, shards, deltas };
}

/** Table parts with new ids set and freed ordinals cleared (each freed entry must be the deleted id). */
function tableWrites(p: Plan, files: Map<string, Uint8Array | null>, out: Map<string, Uint8Array>): void {
  const { m } = p;
  const parts = new Map<number, (string | null)[]>();
  const partOf = (o: number) => {
    const n = Math.floor(o / TABLE_PART_SIZE);
    let ids = parts.get(n);
    if (!ids) {
      ids = n * TABLE_PART_SIZE < m.next ? parseTablePart(m, n, files.get(tablePartPath(m.namespace, m.type, n))!) : [];
      while (ids.length < partLength(n, p.next)) ids.push(null);
      parts.set(n, ids);
    }
    return { ids, at: o - n * TABLE_PART_SIZE, key: tablePartPath(m.namespace, m.type, n) };
  };
  // An update keeps its document's ordinal: only creates and deletes touch the table.
  for (const d of p.deltas.filter((x) => !x.before || !x.after)) {
    const { ids, at, key } = partOf(p.ordinals.get(d.id)!);
    if (d.before && ids[at] !== d.id) {
      throw new InvalidResponse(`search table ${key} does not hold ${JSON.stringify(d.id)} at its ordinal; rebuild`, {
        key,
      });
    }
    if (!d.before && ids[at] !== null) {
      throw new InvalidResponse(`search table ${key} holds a document at a free ordinal; rebuild`, { key });
    }
    ids[at] = d.after ? d.id : null;
  }
  for (const [n, ids] of parts) out.set(tablePartPath(m.namespace, m.type, n), encodeTablePart(ids));
}

/** Buckets with the changed ids; every bucket, redistributed, when the type outgrew its bucket count. */
function bucketWrites(
  p: Plan,
  all: Map<number, Map<string, number>> | null,
  count: number,
  out: Map<string, Uint8Array>,
) {
  const { m } = p;
  const maps = all ?? p.buckets;
  const touched = new Set<number>();
  for (const d of p.deltas.filter((x) => !x.before || !x.after)) {
    const b = bucketOf(d.id, m.buckets);
    touched.add(b);
    if (d.after) maps.get(b)!.set(d.id, p.ordinals.get(d.id)!);
    else maps.get(b)!.delete(d.id);
  }
  if (!all) {
    for (const b of touched) out.set(bucketPath(m.namespace, m.type, b), encodeBucket(maps.get(b)!));
    return m.buckets;
  }
  const buckets = bucketCountFor(count);
  const grown = Array.from({ length: buckets }, () => new Map<string, number>());
  for (const map of maps.values()) for (const [id, o] of map) grown[bucketOf(id, buckets)]!.set(id, o);
  for (const [b, map] of grown.entries()) out.set(bucketPath(m.namespace, m.type, b), encodeBucket(map));
  return buckets;
}

/** Buckets hold about BUCKET_TARGET ids; a type that grew past 4× that per bucket doubles them (all rewritten). */
function outgrew(m: SearchManifest, count: number): boolean {
  return count > m.buckets * BUCKET_TARGET * 4 && bucketCountFor(count) > m.buckets;
}

/**
 * The files to write and delete so the search index of `t` stays exact after `changes` (NeedFiles
 * protocol; `InvalidResponse` on a damaged file or an index out of step with the documents' old text).
 * More shards than `maxShards` is `InvalidConfig` naming the type and the bound.
 *
 * @example
 * const { writes, deletes } = updateSearch(t, read, [{ id: 'a', before: { title: 'old' }, after: { title: 'new' } }]);
 */
export function updateSearch(
  t: TypeSearch,
  read: SearchRead,
  changes: readonly SearchChange[],
  o?: SearchOptions,
): { writes: Map<string, Uint8Array>; deletes: string[] } {
  const opts = searchOptions(o);
  const m = readManifest(t, read);
  const deltas = deltasOf(t, changes);
  if (deltas.length === 0) return { writes: new Map(), deletes: [] };
  const files = fetched(read, roundTwo(m, deltas, opts));
  const buckets = bucketMaps(m, deltas, files);
  const ordinals = ordinalsOf(m, deltas, buckets);
  const created = deltas.filter((d) => !d.before).length;
  const freed = deltas.filter((d) => !d.after).map((d) => ordinals.get(d.id)!);
  const plan: Plan = {
    m,
    deltas,
    ordinals,
    buckets,
    freed,
    used: Math.min(created, m.free.length),
    next: m.next + Math.max(0, created - m.free.length),
  };
  const count = m.count + created - freed.length;
  const entries = parseDelta(m, files.get(deltaPath(t.namespace, t.type))!);
  recordChanges(
    entries,
    deltas.flatMap((d) => postingChanges(d, ordinals.get(d.id)!)),
    m.fields.length,
  );
  let deltaBytes = encodeDelta(entries, m);
  // A full delta.txt is emptied into the delta parts (read in round 3), and a few shards merged (round 4).
  const full = deltaBytes.length > deltaBound(opts.maxShardBytes);
  const all = roundThree(plan, read, count, files, full ? deltaPartPaths(m) : []);
  let flush: Flush = { shards: m.shards, nextShard: m.nextShard, deltas: m.deltas, writes: new Map(), deletes: [] };
  if (full) {
    flush = flushDelta(m, entries, read, opts);
    deltaBytes = new Uint8Array(0);
  }
  checkShardCount(t, flush.shards.length, opts.maxShards);
  const writes = flush.writes;
  const deltaKey = deltaPath(t.namespace, t.type);
  if (!bytesEqual(deltaBytes, files.get(deltaKey)!)) writes.set(deltaKey, deltaBytes);
  tableWrites(plan, files, writes);
  const bucketCount = bucketWrites(plan, all, count, writes);
  const manifest = serializeSearchManifest(nextManifest(plan, flush, bucketCount));
  const key = searchManifestPath(t.namespace, t.type);
  if (!bytesEqual(manifest, read(key)!)) writes.set(key, manifest);
  return { writes, deletes: flush.deletes };
}

/**
 * Round 3: table parts of freed ordinals, the delta parts a full delta.txt is emptied into, and every
 * bucket when they must grow (those returned).
 */
function roundThree(
  p: Plan,
  read: SearchRead,
  count: number,
  files: Map<string, Uint8Array | null>,
  partPaths: string[],
) {
  const { m } = p;
  const paths = p.freed.map((o) => tablePartPath(m.namespace, m.type, Math.floor(o / TABLE_PART_SIZE)));
  appendAll(paths, partPaths);
  const grow = outgrew(m, count);
  if (grow) for (let b = 0; b < m.buckets; b++) paths.push(bucketPath(m.namespace, m.type, b));
  for (const [path, bytes] of fetched(read, [...new Set(paths)])) files.set(path, bytes);
  if (!grow) return null;
  const all = new Map<number, Map<string, number>>();
  for (let b = 0; b < m.buckets; b++) {
    all.set(b, p.buckets.get(b) ?? parseBucket(m, b, files.get(bucketPath(m.namespace, m.type, b))!));
  }
  return all;
}
