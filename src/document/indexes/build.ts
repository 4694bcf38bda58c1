/**
 * Build an index from the whole document set (issue 28: "adding or changing a declaration builds that
 * index in one commit"). Pure: the caller supplies the documents and writes the returned files.
 */
import { InvalidConfig } from '../../core/errors.js';
import { countRows, countsPath, serializeCounts } from './counts.js';
import type { IndexDeclaration, TypeIndex } from './declaration.js';
import { encodePart, FORMAT_VERSION, type Manifest, type PartRef, serializeManifest } from './format.js';
import { manifestPath, partPath } from './paths.js';
import { compareRows, type Row, rowBytes, rowHead, rowsOf } from './rows.js';
import { type IndexedDocument, type Stored, storedValues } from './values.js';

/**
 * Split a part above this many bytes. 128 KiB keeps a 1-document put of a 2-field type under ~0.5 MB
 * up (at most 3 parts of ≤ 128 KiB, see update.ts) and a selective query under 3 × 128 KiB down, with
 * ~95 parts per field at 100,000 documents (a manifest of ~10 KB).
 */
export const DEFAULT_MAX_PART_BYTES = 128 * 1024;

export interface IndexOptions {
  /** Split a part above this many serialized bytes (default {@link DEFAULT_MAX_PART_BYTES}; < 1 MB). */
  maxPartBytes?: number;
}

export type TypedDocument = IndexedDocument & { namespace: string; type: string };

/** Largest `maxPartBytes` a writer takes: readers refuse a part past twice this (format.ts MAX_READ_PART_BYTES). */
export const MAX_PART_BYTES_OPTION = 1024 * 1024;

/**
 * The part bound of `options`, checked: a whole number of bytes from 64 to 1 MiB (`InvalidConfig` naming
 * `index.maxPartBytes` otherwise), so a docdb writer never writes a part its readers refuse.
 *
 * @example
 * partBound({}); // 131072
 */
export function partBound(options: IndexOptions): number {
  const max = options.maxPartBytes ?? DEFAULT_MAX_PART_BYTES;
  if (!Number.isSafeInteger(max) || max < 64 || max > MAX_PART_BYTES_OPTION) {
    throw new InvalidConfig(
      'index.maxPartBytes',
      `index.maxPartBytes must be a whole number of bytes from 64 to ${MAX_PART_BYTES_OPTION}, got ${String(max)}`,
      { allowed: `64..${MAX_PART_BYTES_OPTION}` },
    );
  }
  return max;
}

/** A full build fills parts to this fraction of the bound, so the next inserts do not split at once. */
export const fillBytes = (max: number) => Math.floor((max * 3) / 4);

/** Cut sorted rows into chunks of at most `limit` bytes (a single larger row gets a chunk of its own). */
export function chunkRows(rows: readonly Row[], limit: number): Row[][] {
  const out: Row[][] = [];
  let chunk: Row[] = [];
  let size = 0;
  for (const r of rows) {
    const b = rowBytes(r);
    if (chunk.length > 0 && size + b > limit) {
      out.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(r);
    size += b;
  }
  if (chunk.length > 0 || out.length === 0) out.push(chunk);
  return out;
}

/**
 * A build's chunks with a last one under 1/8 of the bound joined to the one before (the result stays under
 * 7/8 of the bound): else the first write touching the run's end would merge it, reading one more part.
 */
function withoutSmallTail(chunks: Row[][], max: number): Row[][] {
  const last = chunks[chunks.length - 1]!;
  if (chunks.length < 2 || last.reduce((n, r) => n + rowBytes(r), 0) >= max / 8) return chunks;
  return [...chunks.slice(0, -2), chunks[chunks.length - 2]!.concat(last)];
}

/** Separator of a chunk that does not start the run: its first row. */
export const separatorOf = (rows: readonly Row[]): [Row['key'], string] => [rows[0]!.key, rows[0]!.id];

/**
 * Manifest and files of one `(namespace, type)` built from its documents.
 *
 * @example
 * const { manifest, files } = buildTypeIndex({ namespace: 'g', type: 'repo', fields: ['data.stars'] }, docs);
 */
export function buildTypeIndex(
  t: TypeIndex,
  docs: readonly IndexedDocument[],
  options: IndexOptions = {},
): { manifest: Manifest; files: Map<string, Uint8Array> } {
  return buildTypeIndexFromValues(
    t,
    docs.map((d) => ({ id: d.id, blobSha: d.blobSha, values: storedValues(t.fields, d) })),
    options,
  );
}

/** A document as an index holds it: its declared fields' stored values, in declaration order. */
export interface StoredDocument {
  id: string;
  blobSha: string;
  values: Stored[];
}

/**
 * {@link buildTypeIndex} from stored values — what an index's own covering rows hold, so a type can be
 * rebuilt from one run of its old index plus a write's documents, without reading the other documents.
 *
 * @example
 * const { manifest, files } = buildTypeIndexFromValues(t, [{ id: 'a', blobSha, values: [3] }]);
 */
export function buildTypeIndexFromValues(
  t: TypeIndex,
  docs: readonly StoredDocument[],
  options: IndexOptions = {},
): { manifest: Manifest; files: Map<string, Uint8Array> } {
  const limit = fillBytes(partBound(options));
  const values = docs.map((d) => d.values);
  const heads = docs.map((d, di) => rowHead(d.id, d.blobSha, values[di]!));
  const files = new Map<string, Uint8Array>();
  const runs = t.fields.map((field, fi) => {
    const rows = docs.flatMap((d, di) => rowsOf(fi, d.id, d.blobSha, values[di]!, heads[di])).sort(compareRows);
    files.set(countsPath(t.namespace, t.type, field), serializeCounts(countRows(field, docs.length, rows)));
    const parts: PartRef[] = withoutSmallTail(chunkRows(rows, limit), partBound(options)).map((chunk, i) => {
      files.set(partPath(t.namespace, t.type, field, String(i)), encodePart(chunk));
      return { name: String(i), lower: i === 0 ? null : separatorOf(chunk) };
    });
    return { field, next: parts.length, parts };
  });
  const manifest: Manifest = {
    version: FORMAT_VERSION,
    namespace: t.namespace,
    type: t.type,
    fields: [...t.fields],
    count: docs.length,
    runs,
  };
  return { manifest, files };
}

/**
 * Every index file of a declaration, built from the section's documents (documents of undeclared
 * types are ignored). Throws `InvalidDocument` for a value an index cannot hold (values.ts).
 *
 * @example
 * const files = buildIndex(declaration, [{ namespace: 'g', type: 'repo', id: 'a', blobSha, data: { stars: 3 } }]);
 * // Map { '_docdb/index/g/repo/manifest.json' => …, '_docdb/index/g/repo/data.stars/0.jsonl' => … }
 */
export function buildIndex(
  declaration: IndexDeclaration,
  documents: readonly TypedDocument[],
  options: IndexOptions = {},
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const t of declaration.indexes) {
    const docs = documents.filter((d) => d.namespace === t.namespace && d.type === t.type);
    const { manifest, files } = buildTypeIndex(t, docs, options);
    for (const [p, b] of files) out.set(p, b);
    out.set(manifestPath(t.namespace, t.type), serializeManifest(manifest));
  }
  return out;
}
