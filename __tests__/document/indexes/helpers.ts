/** Shared pieces of the index tests: documents with real blob SHAs, a file map, an oracle. */
import { blobSha } from '../../../src/core/git/objects.js';
import { canonicalJson } from '../../../src/document/canonical-json.js';
import type { Manifest } from '../../../src/document/indexes/format.js';
import { parseManifest, parsePart, pathOfPart } from '../../../src/document/indexes/format.js';
import type { IndexQuery } from '../../../src/document/indexes/query.js';
import { encodeRow, type Row } from '../../../src/document/indexes/rows.js';

export const enc = new TextEncoder();

/** The blob SHA a store would give the document (content-addressed, as in a section). */
export function shaOf(data: unknown): string {
  return blobSha(enc.encode(canonicalJson(data)));
}

export function doc(namespace: string, type: string, id: string, data: unknown) {
  return { namespace, type, id, blobSha: shaOf(data), data };
}

/** Apply an update's writes and deletes to a file map (deleting a missing path fails, as GitHub's tree API does). */
export function apply(files: Map<string, Uint8Array>, u: { writes: Map<string, Uint8Array>; deletes: string[] }): void {
  for (const p of u.deletes) {
    if (!files.delete(p)) throw new Error(`delete of missing ${p}`);
  }
  for (const [p, b] of u.writes) files.set(p, b);
}

export function manifestOf(files: Map<string, Uint8Array>, namespace: string, type: string): Manifest {
  return parseManifest(files.get(`_docdb/index/${namespace}/${type}/manifest.json`)!, namespace, type);
}

/** Every row of run `fi`, in run order, read through the untrusted-input parser. */
export function runRows(files: Map<string, Uint8Array>, m: Manifest, fi: number): Row[] {
  return m.runs[fi]!.parts.flatMap((_, i) => {
    const path = pathOfPart(m, fi, i);
    const bytes = files.get(path);
    if (!bytes) throw new Error(`missing part ${path}`);
    return parsePart(m, fi, i, bytes);
  });
}

export const lines = (rows: Row[]) => rows.map(encodeRow);

// ---- the oracle: the query semantics written directly over documents, independently of evaluate.ts

function at(id: string, data: unknown, field: string): unknown {
  if (field === 'id') return id;
  let v: unknown = data;
  for (const s of field.slice(5).split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !(s in v)) return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

function kind(v: unknown): number {
  if (v === undefined) return 0;
  if (Array.isArray(v)) return 1;
  if (v === null) return 2;
  if (v === false) return 3;
  if (v === true) return 4;
  return typeof v === 'number' ? 5 : 6;
}

function cmp(a: unknown, b: unknown): number {
  if (kind(a) !== kind(b)) return kind(a) - kind(b);
  if (typeof a === 'number' || typeof a === 'string') return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  return 0;
}

function holds(v: unknown, op: string, q: unknown): boolean {
  const scalar = v !== undefined && !Array.isArray(v);
  switch (op) {
    case 'exists':
      return (v !== undefined) === q;
    case '=':
      return scalar && v === q;
    case 'in':
      return scalar && (q as unknown[]).includes(v);
    case 'contains':
      return Array.isArray(v) && v.includes(q);
    default: {
      if (!scalar || typeof v !== typeof q) return false;
      const c = cmp(v, q);
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
  }
}

/** Ids and projected values a query must return (all pages), by brute force. */
export function oracle(docs: { id: string; data: unknown }[], q: IndexQuery, declared: string[]) {
  const desc = q.orderBy?.direction === 'desc';
  const sortOf = (id: string, data: unknown) => {
    if (!q.orderBy) return null;
    const v = at(id, data, q.orderBy.field);
    if (!Array.isArray(v) || v.length === 0) return v;
    return [...v].sort(cmp)[desc ? v.length - 1 : 0];
  };
  const hits = docs.filter((d) => (q.where ?? []).every((w) => holds(at(d.id, d.data, w.field), w.op, w.value)));
  const keyed = hits.map((d) => ({ d, s: sortOf(d.id, d.data) }));
  keyed.sort((a, b) => (desc ? -1 : 1) * (cmp(a.s, b.s) || (a.d.id < b.d.id ? -1 : a.d.id > b.d.id ? 1 : 0)));
  return keyed.map(({ d }) => ({
    id: d.id,
    values: Object.fromEntries(
      (q.fields ?? declared).map((f) => [f, at(d.id, d.data, f) === undefined ? {} : at(d.id, d.data, f)]),
    ),
  }));
}
