import { InvalidResponse } from '../../core/errors.js';
import { array, at, fail, integer, onlyKeys, record, shapedJson, string } from '../indexes/check.js';
import { NORM_LEVELS } from './codec.js';
import type { TypeSearch } from './declaration.js';
import { searchManifestPath, shardPath } from './paths.js';

/** A posting's place in the index: its term, then its ordinal. */
export type Key = readonly [term: string, ordinal: number];

export interface ShardRef {
  /** Decimal shard number, unique within the type. */
  name: string;
  lower: Key | null;
}

/**
 * The stored format: 2 codes postings as bit streams (postings.ts) relative to `norms`. A manifest of
 * format 1 (postings in whole symbols) is refused as damaged: a query says so, a write rebuilds.
 */
export const SEARCH_FORMAT = 2;

export interface SearchManifest {
  version: typeof SEARCH_FORMAT;
  namespace: string;
  type: string;
  fields: string[];
  /** Documents of the type. */
  count: number;
  /** Per field: documents whose field holds at least one token (BM25's N). */
  docs: number[];
  /** Per field: total tokens over all documents (BM25's avgdl = lengths / docs). */
  lengths: number[];
  /** Per field: the norm symbol of its average length at the build, postings' norms are coded against. */
  norms: number[];
  /** The next ordinal never used. */
  next: number;
  /** Ordinals of deleted documents, ascending: reused first. */
  free: number[];
  /** Number of id → ordinal buckets (a power of two). */
  buckets: number;
  /** The next shard name. */
  nextShard: number;
  shards: ShardRef[];
  /**
   * The delta's parts by term range (delta-parts.ts), each covering a group of shards; `[]` (absent from
   * the stored JSON) while every pending entry is in `delta.txt`.
   */
  deltas: ShardRef[];
}

/** Ordinals per document-table part. */
export const TABLE_PART_SIZE = 256;
/** Most id → ordinal buckets. */
export const MAX_BUCKETS = 1 << 16;
/** Most delta parts a manifest may list (a writer makes at most DELTA_PARTS, delta-parts.ts). */
export const MAX_DELTA_PARTS = 64;

/**
 * Order of two keys: term by UTF-16 code units, then ordinal.
 *
 * @example
 * compareKeys(['a', 9], ['b', 0]); // negative
 */
export function compareKeys(a: Key, b: Key): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}

function keyOf(v: unknown, field: string): Key {
  const pair = array(v, field, 2, 'must be null or a [term, ordinal] bound');
  if (pair.length !== 2) fail(field, 'must be null or a [term, ordinal] bound');
  return [string(pair[0], at(field, 0), 1, 256), integer(pair[1], at(field, 1), 0)];
}

function shardRefOf(v: unknown, field: string): ShardRef {
  const o = record(v, field);
  const name = string(o.name, at(field, 'name'));
  if (!/^(0|[1-9][0-9]{0,8})$/.test(name)) fail(at(field, 'name'), 'must be a shard number of 1 to 9 digits');
  const lower = o.lower === null ? null : keyOf(o.lower, at(field, 'lower'));
  onlyKeys(o, field, ['name', 'lower']);
  return { name, lower };
}

const numbers = (v: unknown, field: string, n: number, most?: number) => {
  const list = array(v, field, n);
  if (list.length !== n) fail(field, `must list ${n} numbers, one per field`);
  return list.map((x, i) => integer(x, at(field, i), 0, most));
};

function manifestOf(v: unknown): SearchManifest {
  const o = record(v, '');
  if (o.version === 1) {
    fail(
      'version',
      `is 1: the index predates stored format ${SEARCH_FORMAT}, which this docdb reads; the next write of the type, or declaring its search again, rebuilds it`,
    );
  }
  if (o.version !== SEARCH_FORMAT) fail('version', `must be ${SEARCH_FORMAT}`);
  const namespace = string(o.namespace, 'namespace');
  const type = string(o.type, 'type');
  const fields = array(o.fields, 'fields', 8).map((f, i) => string(f, at('fields', i)));
  const count = integer(o.count, 'count', 0);
  const docs = numbers(o.docs, 'docs', fields.length);
  const lengths = numbers(o.lengths, 'lengths', fields.length);
  const norms = numbers(o.norms, 'norms', fields.length, NORM_LEVELS.length - 1);
  const next = integer(o.next, 'next', 0, 2 ** 32);
  const free = array(o.free, 'free', next).map((x, i) => integer(x, at('free', i), 0, next - 1));
  const buckets = integer(o.buckets, 'buckets', 1, MAX_BUCKETS);
  const nextShard = integer(o.nextShard, 'nextShard', 1, 999_999_999);
  const shards = array(o.shards, 'shards', 4096).map((s, i) => shardRefOf(s, at('shards', i)));
  // Absent in manifests written before the delta had parts (and whenever it has none).
  const parts = o.deltas === undefined ? [] : array(o.deltas, 'deltas', MAX_DELTA_PARTS);
  const deltas = parts.map((s, i) => shardRefOf(s, at('deltas', i)));
  onlyKeys(o, '', [
    'version',
    'namespace',
    'type',
    'fields',
    'count',
    'docs',
    'lengths',
    'norms',
    'next',
    'free',
    'buckets',
    'nextShard',
    'shards',
    'deltas',
  ]);
  const version = SEARCH_FORMAT;
  return {
    version,
    namespace,
    type,
    fields,
    count,
    docs,
    lengths,
    norms,
    next,
    free,
    buckets,
    nextShard,
    shards,
    deltas,
  };
}

function badManifest(key: string, why: string): never {
  throw new InvalidResponse(
    `search manifest ${key} ${why}; the search index must be rebuilt (docs.rebuildSearch; CLI: docdb doc search-index --rebuild)`,
    { key },
  );
}

/** Rules between the manifest's parts (its shape is checked by manifestOf). */
function checkConsistent(m: SearchManifest, t: TypeSearch, key: string, anyFields: boolean): void {
  if (m.namespace !== t.namespace || m.type !== t.type) badManifest(key, `names ${m.namespace}/${m.type}`);
  if (!anyFields && m.fields.join('\n') !== t.fields.join('\n')) {
    badManifest(key, `indexes fields ${JSON.stringify(m.fields)}, not the declared ${JSON.stringify(t.fields)}`);
  }
  if (m.free.some((f, i) => i > 0 && f <= m.free[i - 1]!)) badManifest(key, 'has free ordinals out of order');
  if (m.count !== m.next - m.free.length) badManifest(key, 'counts documents other than its ordinals hold');
  if (m.docs.some((d) => d > m.count)) badManifest(key, 'counts more documents in a field than in the type');
  // Each document with a non-empty field adds at least one token, and only those add tokens.
  if (m.docs.some((d, f) => m.lengths[f]! < d || (d === 0 && m.lengths[f]! > 0))) {
    badManifest(key, 'has field lengths that do not fit its document counts');
  }
  if ((m.buckets & (m.buckets - 1)) !== 0) badManifest(key, 'has a bucket count that is not a power of two');
  if (m.shards.length === 0 || m.shards[0]!.lower !== null) badManifest(key, 'does not start with a shard from ""');
  checkRanges(m.shards, key, 'shard', (s) => Number(s.name) >= m.nextShard);
  if (m.deltas.length > 0 && m.deltas[0]!.lower !== null) badManifest(key, 'does not start its delta parts from ""');
  checkRanges(m.deltas, key, 'delta part', (s) => Number(s.name) >= MAX_DELTA_PARTS);
}

/** Ranges by lower bound: names unique and numbered, bounds strictly increasing. */
function checkRanges(refs: readonly ShardRef[], key: string, what: string, unnumbered: (s: ShardRef) => boolean) {
  const names = new Set<string>();
  refs.forEach((s, i) => {
    if (names.has(s.name) || unnumbered(s)) badManifest(key, `has duplicate or unnumbered ${what}s`);
    names.add(s.name);
    const prev = refs[i - 1]?.lower;
    if (i > 0 && (s.lower === null || (prev && compareKeys(prev, s.lower) >= 0))) {
      badManifest(key, `has ${what} bounds out of order`);
    }
  });
}

/**
 * Parse the manifest of `t` read back from the section (untrusted): `InvalidResponse` naming the key
 * when it is not JSON, not the manifest's shape, inconsistent, or (unless `anyFields`: a manifest about
 * to be dropped) for other fields than declared.
 *
 * @example
 * const m = parseSearchManifest(t, bytes);
 */
export function parseSearchManifest(t: TypeSearch, bytes: Uint8Array, anyFields = false): SearchManifest {
  const key = searchManifestPath(t.namespace, t.type);
  const m: SearchManifest = shapedJson(bytes, manifestOf, (why) => badManifest(key, why));
  checkConsistent(m, t, key, anyFields);
  return m;
}

/** The manifest's bytes: one compact line (it is read by every query, so size counts more than diffs). */
export function serializeSearchManifest(m: SearchManifest): Uint8Array {
  // No parts, no key: a build's manifest keeps the bytes it had before the delta had parts.
  const { deltas, ...rest } = m;
  return new TextEncoder().encode(`${JSON.stringify(deltas.length > 0 ? { ...rest, deltas } : rest)}\n`);
}

/** The path of shard `i`. */
export function shardPathOf(m: SearchManifest, i: number): string {
  return shardPath(m.namespace, m.type, m.shards[i]!.name);
}

/**
 * Index of the shard whose range holds `key` (binary search over lower bounds).
 *
 * @example
 * shardFor(m, ['apple', 0]); // 0 when one shard
 */
export function shardFor(m: SearchManifest, key: Key): number {
  return rangeFor(m.shards, key);
}

/**
 * Index of the range (of `refs`, sorted by lower bound, the first from null) that holds `key`.
 *
 * @example
 * rangeFor(m.deltas, ['apple', 0]); // the delta part whose range holds the key
 */
export function rangeFor(refs: readonly ShardRef[], key: Key): number {
  let lo = 0;
  let hi = refs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (compareKeys(key, refs[mid]!.lower!) >= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Indexes of the shards that may hold a term starting with `prefix` (`exact`: equal to it).
 *
 * @example
 * shardsForRange(m, 'da', false); // every shard overlapping the terms "da…"
 */
export function shardsForRange(m: SearchManifest, prefix: string, exact: boolean): number[] {
  return rangesFor(m.shards, prefix, exact);
}

/**
 * Indexes of the ranges of `refs` that may hold a term starting with `prefix` (`exact`: equal to it).
 *
 * @example
 * rangesFor(m.deltas, 'da', false); // the delta parts overlapping the terms "da…"
 */
export function rangesFor(refs: readonly ShardRef[], prefix: string, exact: boolean): number[] {
  if (refs.length === 0) return [];
  const first = rangeFor(refs, [prefix, 0]);
  const out = [first];
  // Every later bound is above [prefix, 0]; the range ends at the first bound past every term it holds.
  for (let i = first + 1; i < refs.length; i++) {
    const term = refs[i]!.lower![0];
    if (exact ? term !== prefix : !term.startsWith(prefix)) break;
    out.push(i);
  }
  return out;
}
