/**
 * Whole-type index builds for a write (index-write.ts): from the documents at the tip plus the write
 * (a new or changed declaration, a missing or damaged index), or from one run of the type's own index —
 * its rows are covering, so every document's id, blob SHA and stored values are there — plus the write
 * (a large write, where rewriting every part is cheaper than locating each document's old rows) — or
 * only the value counts an index written before them lacks, from that same run.
 */
import { InvalidResponse } from '../core/errors.js';
import { readManyFrom } from '../core/read-many.js';
import type { DerivedRead, RefStore } from '../core/refstore.js';
import type { VersionId } from '../core/version.js';
import { decodeEnvelope } from './envelope.js';
import { parseKey } from './identity.js';
import { countRows, countsPath, countsPaths, serializeCounts } from './indexes/counts.js';
import { serializeManifest } from './indexes/format.js';
import {
  buildTypeIndexFromValues,
  type IndexOptions,
  type Manifest,
  parseManifest,
  parsePart,
  type StoredDocument,
  type TypeIndex,
} from './indexes/index.js';
import { manifestPath, partPath } from './indexes/paths.js';
import { rowsOf } from './indexes/rows.js';
import { type Stored, storedValues } from './indexes/values.js';

/** One document a write changes, as an index needs it; `after` absent = deleted. */
export interface IndexedOp {
  namespace: string;
  type: string;
  id: string;
  key: string;
  after?:
    | { blobSha: string; data: unknown }
    | { blobSha: string; values: Stored[]; fields: readonly string[] }
    /** The envelope's bytes, decoded only when an index asks (a commit in parts, before its declaration is known). */
    | { blobSha: string; bytes: Uint8Array };
}

/** The data of an op's new state, decoding buffered envelope bytes on first use; undefined for values only. */
export function dataAfter(op: IndexedOp): { data: unknown } | undefined {
  const a = op.after;
  if (!a || 'values' in a) return undefined;
  if ('data' in a) return { data: a.data };
  return { data: (JSON.parse(new TextDecoder().decode(a.bytes)) as { data: unknown }).data };
}

/** The files of one type's index: path → bytes (written) or null (deleted). */
export type IndexFiles = Map<string, Uint8Array | null>;

/**
 * The stored values of an op's new state for `t` (its data, or values taken for the same fields).
 *
 * @example
 * valuesAfter(op, { namespace: 'g', type: 'repo', fields: ['data.stars'] }); // [3]
 */
export function valuesAfter(op: IndexedOp, t: TypeIndex): Stored[] | undefined {
  const a = op.after;
  if (!a) return undefined;
  const d = dataAfter(op);
  if (d) return storedValues(t.fields, { id: op.id, blobSha: a.blobSha, data: d.data });
  const v = a as { values: Stored[]; fields: readonly string[] };
  if (v.fields.join('\n') !== t.fields.join('\n')) return undefined;
  return v.values;
}

/** Apply a write's ops of type `t` to documents keyed by id. */
function applyOps(docs: Map<string, StoredDocument>, t: TypeIndex, ops: readonly IndexedOp[], missing: () => never) {
  for (const op of ops) {
    if (!op.after) {
      docs.delete(op.id);
      continue;
    }
    const values = valuesAfter(op, t) ?? missing();
    docs.set(op.id, { id: op.id, blobSha: op.after.blobSha, values });
  }
}

/** The new files of `t` built from `docs`, and deletes of the old files (from `old`) it does not rewrite. */
function filesOf(t: TypeIndex, docs: Map<string, StoredDocument>, old: Manifest | undefined, o: IndexOptions) {
  const { manifest, files } = buildTypeIndexFromValues(t, [...docs.values()], o);
  const out: IndexFiles = new Map();
  if (old) for (const p of oldPaths(old)) out.set(p, null);
  for (const [p, b] of files) out.set(p, b);
  out.set(manifestPath(t.namespace, t.type), serializeManifest(manifest));
  return out;
}

/** Every part path an old manifest lists, and its fields' value counts (deleting an absent one is a no-op). */
export function oldPaths(m: Manifest): string[] {
  const parts = m.runs.flatMap((run) => run.parts.map((p) => partPath(m.namespace, m.type, run.field, p.name)));
  return [...parts, ...countsPaths(m)];
}

/**
 * Build `t` from every document of the type at `version` (read in bulk) with the write's ops applied.
 * `old` is the type's manifest at `version`, if any, so its files that the build does not rewrite go.
 *
 * @example
 * const files = await buildFromDocuments(store, version, t, ops, oldManifest, {});
 */
export async function buildFromDocuments(
  store: RefStore,
  version: VersionId | null,
  t: TypeIndex,
  ops: readonly IndexedOp[],
  old: Manifest | undefined,
  options: IndexOptions,
  missing: () => never,
): Promise<IndexFiles> {
  const docs = new Map<string, StoredDocument>();
  if (version !== null) {
    const written = new Set(ops.map((o) => o.key));
    const listed = await store.list({ prefix: `${t.namespace}/${t.type}/`, version });
    const keys = listed.entries.map((e) => e.key).filter((k) => !written.has(k) && parseKey(k)?.doc_type === t.type);
    for await (const item of readManyFrom(store, keys, { version })) {
      if (!item.value || !item.blobSha) continue;
      const env = decodeEnvelope(item.value, version);
      docs.set(env.id, {
        id: env.id,
        blobSha: item.blobSha,
        values: storedValues(t.fields, { id: env.id, blobSha: item.blobSha, data: env.data }),
      });
    }
  }
  applyOps(docs, t, ops, missing);
  return filesOf(t, docs, old, options);
}

/**
 * Rebuild `t` from its own index: the rows of its first run (every document, covering) read through
 * `read`, with the write's ops applied — the documents themselves are not read. Throws
 * `InvalidResponse` for a damaged part (the caller then builds from the documents).
 *
 * @example
 * const files = await buildFromRun(read, manifest, t, ops, {});
 */
export async function buildFromRun(
  read: (keys: readonly string[]) => Promise<Map<string, DerivedRead | null>>,
  m: Manifest,
  t: TypeIndex,
  ops: readonly IndexedOp[],
  options: IndexOptions,
  missing: () => never,
): Promise<IndexFiles> {
  const docs = await documentsOfRun(read, m);
  applyOps(docs, t, ops, missing);
  return filesOf(t, docs, m, options);
}

/**
 * The value counts of `fields` after the write, counted from the first run of `t`'s index (every
 * document, covering) with the write's ops applied: how a write adds the counts an index written before
 * them lacks (counts.ts), without rewriting a part. Throws `InvalidResponse` for a damaged part.
 *
 * @example
 * const files = await countsFromRun(read, manifest, t, ops, ['data.language'], missing); // counts.json → bytes
 */
export async function countsFromRun(
  read: (keys: readonly string[]) => Promise<Map<string, DerivedRead | null>>,
  m: Manifest,
  t: TypeIndex,
  ops: readonly IndexedOp[],
  fields: readonly string[],
  missing: () => never,
): Promise<IndexFiles> {
  const docs = await documentsOfRun(read, m);
  applyOps(docs, t, ops, missing);
  const all = [...docs.values()];
  const out: IndexFiles = new Map();
  for (const field of fields) {
    const fi = t.fields.indexOf(field);
    const rows = all.flatMap((d) => rowsOf(fi, d.id, d.blobSha, d.values));
    out.set(countsPath(t.namespace, t.type, field), serializeCounts(countRows(field, all.length, rows)));
  }
  return out;
}

/** Every document of the type, from the rows of the first run of its index (read whole through `read`). */
async function documentsOfRun(
  read: (keys: readonly string[]) => Promise<Map<string, DerivedRead | null>>,
  m: Manifest,
): Promise<Map<string, StoredDocument>> {
  const run = m.runs[0]!;
  const paths = run.parts.map((p) => partPath(m.namespace, m.type, run.field, p.name));
  const got = await read(paths);
  const docs = new Map<string, StoredDocument>();
  run.parts.forEach((_, i) => {
    const bytes = got.get(paths[i]!)?.value;
    if (!bytes) {
      throw new InvalidResponse(
        `index part ${paths[i]} is listed in its manifest but missing; the index must be rebuilt`,
        {
          key: paths[i],
        },
      );
    }
    for (const r of parsePart(m, 0, i, bytes)) docs.set(r.id, { id: r.id, blobSha: r.blobSha, values: r.values });
  });
  return docs;
}

/** The manifest of `t` read at the tip, or undefined when absent or built for other fields. */
export function manifestOf(bytes: Uint8Array | undefined, t: TypeIndex): Manifest | undefined {
  if (!bytes) return undefined;
  return parseManifest(bytes, t.namespace, t.type);
}
