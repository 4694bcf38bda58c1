/**
 * The document table of one type's search index: ordinal → id in parts of 256 ordinals
 * (`table/<part>.json`, a JSON array of ids, null for a free ordinal), so the ids of a page of hits cost
 * a few small files; and id → ordinal in buckets by a hash of the id (`ids/<bucket>.json`: see
 * parseBucket), so a write finds a document's ordinal without the whole table.
 * Read back, both are untrusted: damage is `InvalidResponse` naming the key.
 */

import { appendAll } from '../../core/arrays.js';
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { Cursor, numberText } from './codec.js';
import type { TypeSearch } from './declaration.js';
import { deltaPartPaths } from './delta-parts.js';
import { parseSearchManifest, type SearchManifest, shardPathOf, TABLE_PART_SIZE } from './manifest.js';
import { readAll, type SearchRead } from './need.js';
import { bucketPath, deltaPath, searchManifestPath, tablePartPath } from './paths.js';

/**
 * FNV-1a over the id's UTF-16 code units: cheap, stable, and the same in every host.
 *
 * @example
 * idHash('a'); // 3826002220
 */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The bucket of `id` among `buckets` (a power of two).
 *
 * @example
 * bucketOf('a', 1); // 0
 */
export function bucketOf(id: string, buckets: number): number {
  return idHash(id) & (buckets - 1);
}

/** Ordinals in table part `p` of a manifest whose next ordinal is `next`. */
export function partLength(p: number, next: number): number {
  return Math.max(0, Math.min(TABLE_PART_SIZE, next - p * TABLE_PART_SIZE));
}

function bad(key: string, why: string): never {
  throw new InvalidResponse(
    `search table ${key} ${why}; the search index must be rebuilt (docs.rebuildSearch; CLI: docdb doc search-index --rebuild)`,
    { key },
  );
}

function jsonOf(bytes: Uint8Array | null, key: string): unknown {
  if (bytes === null) bad(key, 'is absent though the manifest needs it');
  try {
    if (!isUtf8(bytes)) throw new Error('not UTF-8');
    return JSON.parse(fromUtf8(bytes));
  } catch {
    bad(key, 'is not JSON');
  }
}

/**
 * Parse table part `p` (untrusted): an array of the part's length of non-empty ids or null.
 *
 * @example
 * parseTablePart(m, 0, bytes); // ['a', null, 'c']
 */
export function parseTablePart(m: SearchManifest, p: number, bytes: Uint8Array | null): (string | null)[] {
  const key = tablePartPath(m.namespace, m.type, p);
  const v = jsonOf(bytes, key);
  const n = partLength(p, m.next);
  if (!Array.isArray(v) || v.length !== n) bad(key, `is not an array of ${n} ids`);
  for (const id of v)
    if (id !== null && (typeof id !== 'string' || id === '')) bad(key, 'holds an entry that is not an id');
  return v as (string | null)[];
}

/**
 * Ids in a bucket are front coded: each is one character saying how many code units it shares with the
 * previous id of the bucket (`0`–`9`, `A`–`Z`, `a`–`z`: 0 to 61, characters JSON writes as they are),
 * then the rest. Ids in ordinal order are mostly in id order, so neighbours share their folders: the
 * buckets take ~45 % fewer bytes.
 */
const ID_HEADS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function frontCoded(ids: readonly string[]): string[] {
  return ids.map((id, i) => {
    const prev = ids[i - 1] ?? '';
    let n = 0;
    while (n < ID_HEADS.length - 1 && n < prev.length && n < id.length && id.charCodeAt(n) === prev.charCodeAt(n)) n++;
    return ID_HEADS[n]! + id.slice(n);
  });
}

/** The ids of front-coded entries; null where an entry is not one (damage). */
function frontDecoded(entries: readonly unknown[]): string[] | null {
  const out: string[] = [];
  for (const e of entries) {
    const n = typeof e === 'string' && e.length > 0 ? ID_HEADS.indexOf(e[0]!) : -1;
    const prev = out[out.length - 1] ?? '';
    if (n < 0 || n > prev.length) return null;
    out.push(prev.slice(0, n) + (e as string).slice(1));
  }
  return out;
}

/**
 * Parse bucket `b` (untrusted): `["<ordinals>", id, id, …]` — the ids of the bucket in ordinal order,
 * front coded, their ordinals gap-coded in the first string (codec.ts) — each id hashing to `b`, each
 * ordinal below next.
 *
 * @example
 * parseBucket(m, 0, bytes); // Map { 'a' => 0 }
 */
export function parseBucket(m: SearchManifest, b: number, bytes: Uint8Array | null): Map<string, number> {
  const key = bucketPath(m.namespace, m.type, b);
  const v = jsonOf(bytes, key);
  if (!Array.isArray(v) || typeof v[0] !== 'string') bad(key, 'is not ["<ordinals>", id, …]');
  const ordinals: number[] = [];
  const c = new Cursor(v[0], 0, (why) => bad(key, `ordinals ${why}`));
  while (!c.done) ordinals.push((ordinals[ordinals.length - 1] ?? -1) + c.number() + 1);
  if (ordinals.length !== v.length - 1 || ordinals.some((o) => o >= m.next)) {
    bad(key, 'does not hold one ordinal below next per id');
  }
  const ids = frontDecoded(v.slice(1));
  if (ids === null) bad(key, 'holds an entry that is not a front-coded id');
  const out = new Map<string, number>();
  for (const [i, id] of ids.entries()) {
    if (id === '' || out.has(id) || bucketOf(id, m.buckets) !== b) {
      bad(key, 'holds an id twice, not an id, or an id of another bucket');
    }
    out.set(id, ordinals[i]!);
  }
  return out;
}

/** A table part's bytes. */
export function encodeTablePart(ids: readonly (string | null)[]): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(ids)}\n`);
}

/** A bucket's bytes: ids in ordinal order, front coded, after their gap-coded ordinals. */
export function encodeBucket(entries: ReadonlyMap<string, number>): Uint8Array {
  const list = [...entries].sort((a, b) => a[1] - b[1]);
  let gaps = '';
  for (const [i, [, o]] of list.entries()) gaps += numberText(o - (list[i - 1]?.[1] ?? -1) - 1);
  return new TextEncoder().encode(`${JSON.stringify([gaps, ...frontCoded(list.map(([id]) => id))])}\n`);
}

/**
 * The manifest of `t` through `read` (NeedFiles protocol); absent is `InvalidResponse`: the caller asks
 * only for declared types, whose manifest every writer keeps.
 *
 * @example
 * const m = readManifest(t, read);
 */
export function readManifest(t: TypeSearch, read: SearchRead): SearchManifest {
  const key = searchManifestPath(t.namespace, t.type);
  const [bytes] = readAll(read, [key]);
  if (!bytes) {
    throw new InvalidResponse(
      `search manifest ${key} is absent though search is declared; rebuild the index (docs.rebuildSearch; CLI: docdb doc search-index --rebuild)`,
      { key },
    );
  }
  return parseSearchManifest(t, bytes);
}

/**
 * Paths of the table parts holding `ordinals` (to fetch a page's ids with its documents' round).
 *
 * @example
 * tablePathsOf(m, [3, 300]); // ['…/table/0.json', '…/table/1.json']
 */
export function tablePathsOf(m: SearchManifest, ordinals: Iterable<number>): string[] {
  const parts = new Set<number>();
  for (const o of ordinals) parts.add(Math.floor(o / TABLE_PART_SIZE));
  return [...parts].sort((a, b) => a - b).map((p) => tablePartPath(m.namespace, m.type, p));
}

/**
 * The ids of `ordinals` (NeedFiles protocol: the manifest, then the table parts holding them). An
 * ordinal that is free or past the table is `InvalidResponse` (a shard referenced no document).
 *
 * @example
 * idsOf(t, hits.map((h) => h.ordinal), read); // Map { 12 => 'octo/docdb', … }
 */
export function idsOf(t: TypeSearch, ordinals: readonly number[], read: SearchRead): Map<number, string> {
  const m = readManifest(t, read);
  const parts = [...new Set(ordinals.map((o) => Math.floor(o / TABLE_PART_SIZE)))];
  const bytes = readAll(
    read,
    parts.map((p) => tablePartPath(t.namespace, t.type, p)),
  );
  const table = new Map(parts.map((p, i) => [p, parseTablePart(m, p, bytes[i]!)]));
  const out = new Map<number, string>();
  for (const o of ordinals) {
    const p = Math.floor(o / TABLE_PART_SIZE);
    const id = table.get(p)![o - p * TABLE_PART_SIZE];
    if (typeof id !== 'string') bad(tablePartPath(t.namespace, t.type, p), `has no document at ordinal ${o}`);
    out.set(o, id);
  }
  return out;
}

/**
 * Every file of the type's search index, from its manifest (to drop the index, or to delete what a
 * rebuild does not rewrite).
 *
 * @example
 * searchFilesOf(t, manifestBytes); // ['_docdb/search/github/repo/manifest.json', '…/terms/0.txt', …]
 */
export function searchFilesOf(t: TypeSearch, manifest: Uint8Array): string[] {
  const m = parseSearchManifest(t, manifest, true);
  const out = [searchManifestPath(t.namespace, t.type)];
  for (let i = 0; i < m.shards.length; i++) out.push(shardPathOf(m, i));
  out.push(deltaPath(t.namespace, t.type));
  appendAll(out, deltaPartPaths(m));
  for (let p = 0; p * TABLE_PART_SIZE < m.next; p++) out.push(tablePartPath(t.namespace, t.type, p));
  for (let b = 0; b < m.buckets; b++) out.push(bucketPath(t.namespace, t.type, b));
  return out;
}
