/**
 * Build one type's search index from all its documents: ordinals by id order, postings per term,
 * term shards cut by size, the document table and the id buckets, and the manifest. Pure: the caller
 * commits every file returned.
 */
import { InvalidConfig } from '../../core/errors.js';
import { chunkRuns, encodeRuns, firstRunKey, type Run } from './build-shards.js';
import { FILL, separatorKey } from './chunk.js';
import { normOf } from './codec.js';
import type { TypeSearch } from './declaration.js';
import { type Inverted, invertDocs } from './invert.js';
import {
  SEARCH_FORMAT,
  type SearchManifest,
  serializeSearchManifest,
  shardPathOf,
  TABLE_PART_SIZE,
} from './manifest.js';
import { type SearchOptions, searchOptions } from './need.js';
import { bucketPath, deltaPath, searchManifestPath, tablePartPath } from './paths.js';
import { postingCoding } from './postings.js';
import { bucketOf, encodeBucket, encodeTablePart } from './table.js';
import type { SearchDoc } from './text.js';

/** Ids per bucket a build aims at (a bucket is read by every write of one of its ids). */
export const BUCKET_TARGET = 256;

/**
 * Buckets for `count` documents: the power of two that keeps about {@link BUCKET_TARGET} ids in each.
 *
 * @example
 * bucketCountFor(10_000); // 64
 */
export function bucketCountFor(count: number): number {
  let b = 1;
  while (b * BUCKET_TARGET < count && b < 1 << 16) b *= 2;
  return b;
}

/**
 * Refuse a type whose index needs more than `maxShards` shards (nothing is written).
 *
 * @example
 * checkShardCount(t, 300, 256); // throws InvalidConfig naming github/repo and 256
 */
export function checkShardCount(t: TypeSearch, shards: number, maxShards: number): void {
  if (shards <= maxShards) return;
  throw new InvalidConfig(
    'search',
    `the search index of ${t.namespace}/${t.type} would need ${shards} shards, more than the bound of ${maxShards} per type; search fewer or shorter fields`,
    { namespace: t.namespace, type: t.type, shards, allowed: maxShards },
  );
}

/**
 * Per field: the norm of its average length, which postings' norms are coded against (a field's
 * lengths cluster around it). Kept in the manifest until the next build, as the codes depend on it.
 */
function baseNorms(inv: Inverted): number[] {
  return inv.docsPer.map((docs, f) => (docs === 0 ? 0 : normOf(Math.round(inv.lengths[f]! / docs))));
}

/** A shard's lower bound after the shard `prev` (chunk.ts separatorKey). */
function lowerOf(inv: Inverted, prev: readonly Run[], runs: readonly Run[]) {
  const last = prev[prev.length - 1];
  return separatorKey(last ? inv.terms[last.term]! : '', firstRunKey(inv, runs));
}

function sortedDocs(docs: readonly SearchDoc[]): SearchDoc[] {
  const sorted = [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  sorted.forEach((d, i) => {
    if (i > 0 && sorted[i - 1]!.id === d.id) throw new InvalidConfig('docs', `document ${d.id} is given twice`);
  });
  return sorted;
}

/** The document table parts and id buckets of ids in ordinal order. */
function tableFiles(t: TypeSearch, ids: readonly string[], buckets: number, out: Map<string, Uint8Array>): void {
  for (let p = 0; p * TABLE_PART_SIZE < ids.length; p++) {
    const part = ids.slice(p * TABLE_PART_SIZE, (p + 1) * TABLE_PART_SIZE);
    out.set(tablePartPath(t.namespace, t.type, p), encodeTablePart(part));
  }
  const maps = Array.from({ length: buckets }, () => new Map<string, number>());
  for (const [ordinal, id] of ids.entries()) maps[bucketOf(id, buckets)]!.set(id, ordinal);
  for (const [b, map] of maps.entries()) out.set(bucketPath(t.namespace, t.type, b), encodeBucket(map));
}

/**
 * Every file of the search index of `t` over `docs` (all documents of the type), manifest included.
 * More shards than `maxShards` is `InvalidConfig` naming the type and the bound.
 *
 * @example
 * const files = buildSearch({ namespace: 'github', type: 'repo', fields: ['data.title'] }, [
 *   { id: 'octo/docdb', data: { title: 'A document database on git' } },
 * ]);
 * files.has('_docdb/search/github/repo/manifest.json'); // true
 */
export function buildSearch(t: TypeSearch, docs: readonly SearchDoc[], o?: SearchOptions): Map<string, Uint8Array> {
  const opts = searchOptions(o);
  const sorted = sortedDocs(docs);
  const inv = invertDocs(t, sorted);
  const norms = baseNorms(inv);
  const coding = postingCoding(norms);
  const { chunks, lines } = chunkRuns(inv, coding, Math.floor(FILL * opts.maxShardBytes));
  checkShardCount(t, chunks.length, opts.maxShards);
  const m: SearchManifest = {
    version: SEARCH_FORMAT,
    namespace: t.namespace,
    type: t.type,
    fields: [...t.fields],
    count: sorted.length,
    docs: inv.docsPer,
    lengths: inv.lengths,
    norms,
    next: sorted.length,
    free: [],
    buckets: bucketCountFor(sorted.length),
    nextShard: chunks.length,
    shards: chunks.map((c, i) => ({ name: String(i), lower: i === 0 ? null : lowerOf(inv, chunks[i - 1]!, c) })),
    deltas: [],
  };
  const out = new Map<string, Uint8Array>();
  out.set(searchManifestPath(t.namespace, t.type), serializeSearchManifest(m));
  for (const [i, c] of chunks.entries()) out.set(shardPathOf(m, i), encodeRuns(inv, coding, c, lines));
  out.set(deltaPath(t.namespace, t.type), new Uint8Array(0));
  tableFiles(
    t,
    sorted.map((d) => d.id),
    m.buckets,
    out,
  );
  return out;
}
