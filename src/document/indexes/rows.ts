/**
 * Index rows: one per document and field (one per distinct element when the value is a non-empty
 * array), sorted by `(key, id)`. A row is covering — it carries the document's blob SHA and every
 * declared value — so a query is answered from one field's run without reading documents.
 *
 * On disk a row is one JSON line: `[id, blobSha, v_0, …, v_{n-1}]`, whose key is the run's own value
 * `v_f`; an element row of an array appends its element: `[id, blobSha, v_0, …, v_{n-1}, element]`.
 * The key is not repeated for scalar rows, which keeps a 2-field row near 90 bytes.
 */
import { InvalidResponse } from '../../core/errors.js';
import {
  compareStored,
  isCut,
  isMissing,
  MAX_ARRAY_ELEMENTS,
  type Stored,
  type StoredScalar,
  storedValue,
  utf8Length,
} from './values.js';
import { indexWork } from './work.js';

export interface Row {
  /** What the run sorts on: the field's value, or one element of it. */
  key: Stored;
  id: string;
  blobSha: string;
  /** Every declared field's stored value, in declaration order. */
  values: Stored[];
  /** True when `key` is one element of an array value. */
  element: boolean;
  /** The row's JSON line, once computed (a build encodes each row once). */
  line?: string;
  /** UTF-8 bytes of the line and its newline, once computed. */
  bytes?: number;
}

export interface IndexedDocument {
  id: string;
  blobSha: string;
  data: unknown;
}

/** A run's lower bound: rows `>= [key, id]` (see compareRows). */
export type Separator = [Stored, string];

/** The stored values of a document, in declaration order (throws InvalidDocument for an unindexable value). */
export function storedValues(fields: readonly string[], doc: IndexedDocument): Stored[] {
  return fields.map((f) => storedValue(doc.id, doc.data, f));
}

/**
 * The rows of one document in the run of `fields[fi]`.
 *
 * @example
 * rowsOf(1, 'a', 'f'.repeat(40), [3, ['x', 'y']]).map((r) => r.key); // ['x', 'y']
 */
export function rowsOf(
  fi: number,
  id: string,
  blobSha: string,
  values: Stored[],
  head = rowHead(id, blobSha, values),
  headBytes = utf8Length(head),
): Row[] {
  const v = values[fi]!;
  if (!Array.isArray(v) || v.length === 0) {
    indexWork.rowsEncoded++;
    return [{ key: v, id, blobSha, values, element: false, line: `${head}]`, bytes: headBytes + 2 }];
  }
  const keys = [...v].sort(compareStored).filter((k, i, all) => i === 0 || compareStored(all[i - 1]!, k) !== 0);
  indexWork.rowsEncoded += keys.length;
  return keys.map((key) => {
    const tail = JSON.stringify(key);
    return {
      key,
      id,
      blobSha,
      values,
      element: true,
      line: `${head},${tail}]`,
      bytes: headBytes + utf8Length(tail) + 3,
    };
  });
}

/**
 * The start of every row of one document, `[id,blobSha,v_0,…,v_{n-1}` — the same in every run, so a
 * build serializes it once per document. Byte-identical to `JSON.stringify` of the whole row.
 */
export function rowHead(id: string, blobSha: string, values: Stored[]): string {
  return `[${JSON.stringify(id)},${JSON.stringify(blobSha)},${JSON.stringify(values).slice(1, -1)}`;
}

/** The order of a run: by key (values.ts), then id by UTF-16 code unit. */
export function compareRows(a: { key: Stored; id: string }, b: { key: Stored; id: string }): number {
  const ka = a.key;
  const kb = b.key;
  // Fast path for the sort of a build: two numbers or two whole strings compare directly.
  const t = typeof ka;
  if (t === typeof kb && (t === 'number' || t === 'string')) {
    if (ka !== kb) return (ka as number | string) < (kb as number | string) ? -1 : 1;
  } else {
    const c = compareStored(ka, kb);
    if (c !== 0) return c;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Compare a row with a separator `[key, id]`. */
export function compareToSeparator(r: { key: Stored; id: string }, s: Separator): number {
  return compareRows(r, { key: s[0], id: s[1] });
}

/** One row as its JSON line (without the newline). */
export function encodeRow(r: Row): string {
  if (r.line !== undefined) return r.line;
  indexWork.rowsEncoded++;
  r.line = JSON.stringify(r.element ? [r.id, r.blobSha, ...r.values, r.key] : [r.id, r.blobSha, ...r.values]);
  return r.line;
}

/** Serialized size of a row in a part, newline included. */
export function rowBytes(r: Row): number {
  r.bytes ??= utf8Length(encodeRow(r)) + 1;
  return r.bytes;
}

const SHA = /^[0-9a-f]{40}$/;

function isStoredScalar(v: unknown): v is StoredScalar {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  return isCut(v) && Object.keys(v as object).length === 1;
}

/** Shape check of a stored value read back from the section. */
export function isStored(v: unknown): v is Stored {
  if (isStoredScalar(v)) return true;
  if (Array.isArray(v)) return v.length <= MAX_ARRAY_ELEMENTS && v.every(isStoredScalar);
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

function bad(path: string, line: number, why: string): never {
  throw new InvalidResponse(`index part ${path} line ${line} ${why}; the index must be rebuilt`, { key: path, line });
}

/** Decode one line of a part (untrusted) of the run of `fields[fi]` among `n` fields. */
export function decodeRow(text: string, n: number, fi: number, path: string, line: number): Row {
  indexWork.rowsDecoded++;
  let a: unknown;
  try {
    a = JSON.parse(text);
  } catch {
    bad(path, line, 'is not JSON');
  }
  if (!Array.isArray(a) || (a.length !== n + 2 && a.length !== n + 3)) {
    bad(path, line, `is not a row [id, blobSha, ${n} value(s)(, element)]`);
  }
  const [id, blobSha] = a;
  if (typeof id !== 'string' || id === '') bad(path, line, 'has no id');
  if (typeof blobSha !== 'string' || !SHA.test(blobSha)) bad(path, line, 'has no 40-hex blob SHA');
  const values = a.slice(2, n + 2);
  if (!values.every(isStored)) bad(path, line, 'has a value that is not a stored index value');
  const element = a.length === n + 3;
  const own = values[fi] as Stored;
  const key = (element ? a[n + 2] : own) as Stored;
  if (element ? !(Array.isArray(own) && isStoredScalar(key) && own.some((e) => compareStored(e, key) === 0)) : false) {
    bad(path, line, 'has an element that is not in its array');
  }
  if (!element && Array.isArray(own) && own.length > 0) bad(path, line, 'has an array value but no element');
  // The line read is kept: a part rewritten around one changed row re-sends its other rows as they came,
  // instead of serializing each again (it parsed as exactly this row, so it means the same).
  return { key, id, blobSha, values: values as Stored[], element, line: text };
}

/** True when a row's stored values say the field is absent. */
export function rowMissing(r: Row, fi: number): boolean {
  return isMissing(r.values[fi]!);
}
