/**
 * Index rows: one per document and field (one per distinct element when the value is a non-empty
 * array), sorted by `(key, id)`. A row is covering — it carries the document's blob SHA and every
 * declared value — so a query is answered from one field's run without reading documents.
 *
 * On disk (format 2) a row is one JSON line: `[k, idSuffix, sha, v_0, …, v_{n-1}]`, whose key is the
 * run's own value `v_f`; an element row of an array appends its element. The id is front-coded — its
 * first `k` characters are the previous row's in the same part (the first row of a part has k = 0), so
 * ids sorted together cost their differing tail — and the blob SHA is 27 base64url characters
 * (sha-text.ts). The key is not repeated for scalar rows. A 2-field row of the bench is ~53 bytes (was
 * ~73 in format 1: `[id, blobSha hex, v_0, …]`, still read — decodeRowV1).
 */
import { InvalidResponse } from '../../core/errors.js';
import { isShaText, shaToText, textToSha } from './sha-text.js';
import { compareStored, isMissing, isStored, isStoredScalar, type Stored, utf8Length } from './values.js';
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
  /**
   * The row standing alone, `[0,"id","sha",v…]`, once computed: what identifies it, and its size bound in a
   * part (front coding only shortens a row).
   */
  line?: string;
  /** UTF-8 bytes of `line` and its newline, once computed. */
  bytes?: number;
  /** What follows the id in a stored line, `,"sha",v…]`: the same whatever row precedes it in a part. */
  tail?: string;
}

/** A run's lower bound: rows `>= [key, id]` (see compareRows). */
export type Separator = [Stored, string];

/** What every row of one document shares in every run: its id and `,"sha",v_0,…,v_{n-1}`, serialized once. */
export interface RowHead {
  idJson: string;
  shared: string;
  /** UTF-8 bytes of a standalone line's `[0,` + idJson + shared. */
  bytes: number;
}

/**
 * The serialized pieces shared by a document's rows in every run (a build computes them once per document).
 *
 * @example
 * rowHead('a', 'f'.repeat(40), [3]).shared; // ',"__________________________8",3'
 */
export function rowHead(id: string, blobSha: string, values: Stored[]): RowHead {
  const idJson = JSON.stringify(id);
  const shared = `,"${shaToText(blobSha)}",${JSON.stringify(values).slice(1, -1)}`;
  return { idJson, shared, bytes: 3 + utf8Length(idJson) + utf8Length(shared) };
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
): Row[] {
  const v = values[fi]!;
  if (!Array.isArray(v) || v.length === 0) {
    indexWork.rowsEncoded++;
    const tail = `${head.shared}]`;
    return [{ key: v, id, blobSha, values, element: false, tail, bytes: head.bytes + 2 }];
  }
  const keys = [...v].sort(compareStored).filter((k, i, all) => i === 0 || compareStored(all[i - 1]!, k) !== 0);
  indexWork.rowsEncoded += keys.length;
  return keys.map((key) => {
    const element = JSON.stringify(key);
    const tail = `${head.shared},${element}]`;
    return {
      key,
      id,
      blobSha,
      values,
      element: true,
      tail,
      bytes: head.bytes + utf8Length(element) + 3,
    };
  });
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

/** What follows the id in the row's stored line, computed once (a row read back keeps the one it came with). */
export function rowTail(r: Row): string {
  if (r.tail !== undefined) return r.tail;
  indexWork.rowsEncoded++;
  const element = r.element ? `,${JSON.stringify(r.key)}` : '';
  r.tail = `,"${shaToText(r.blobSha)}",${JSON.stringify(r.values).slice(1, -1)}${element}]`;
  return r.tail;
}

/** The row standing alone as a JSON line (without the newline): `[0,"id","sha",v…]`. */
export function encodeRow(r: Row): string {
  r.line ??= `[0,${JSON.stringify(r.id)}${rowTail(r)}`;
  return r.line;
}

/**
 * A read row's standalone size without serializing it, newline included: its stored line with the shared
 * id prefix written out (`[0,` + the whole id instead of `[k,` + the suffix) — when the part is ASCII and the
 * prefix needs no escaping (the usual id), else undefined (rowBytes serializes the row).
 */
function standaloneBytes(stored: string, id: string, k: number, ascii: boolean): number | undefined {
  if (!ascii) return undefined;
  for (let i = 0; i < k; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return undefined;
  }
  return stored.length + 1 - String(k).length + k + 1;
}

/** Characters (UTF-16 code units) `id` shares at its start with `prev`. */
export function sharedPrefix(prev: string, id: string): number {
  const max = Math.min(prev.length, id.length);
  let k = 0;
  while (k < max && prev.charCodeAt(k) === id.charCodeAt(k)) k++;
  return k;
}

/** The row as stored after a row of id `prev` in a part (`''` for a part's first row): its id front-coded. */
export function storedLine(r: Row, prev: string): string {
  const k = sharedPrefix(prev, r.id);
  return `[${k},${JSON.stringify(r.id.slice(k))}${rowTail(r)}`;
}

/** Upper bound of a row's serialized size in a part, newline included (front coding only shortens it). */
export function rowBytes(r: Row): number {
  r.bytes ??= utf8Length(encodeRow(r)) + 1;
  return r.bytes;
}

const SHA = /^[0-9a-f]{40}$/;

function bad(path: string, line: number, why: string): never {
  throw new InvalidResponse(`index part ${path} line ${line} ${why}; the index must be rebuilt`, { key: path, line });
}

/**
 * A row read from a format-2 part. Its blob SHA is spelled in hex only when asked: a write reads whole
 * parts to edit one row, and spelling every other row's SHA was a third of the cost of reading a part.
 */
class ReadRow implements Row {
  line?: string;
  bytes?: number;
  tail?: string;
  #hex: string | undefined;
  constructor(
    public key: Stored,
    public id: string,
    public values: Stored[],
    public element: boolean,
    private readonly sha64: string,
  ) {}

  get blobSha(): string {
    this.#hex ??= textToSha(this.sha64)!;
    return this.#hex;
  }
}

function parseLine(text: string, path: string, line: number): unknown[] {
  let a: unknown;
  try {
    a = JSON.parse(text);
  } catch {
    bad(path, line, 'is not JSON');
  }
  if (!Array.isArray(a)) bad(path, line, 'is not a row (a JSON array)');
  return a;
}

/** The key and element flag of a row's values (the part after id and SHA), checked. */
function keyOf(rest: unknown[], n: number, fi: number, path: string, line: number) {
  const values = rest.slice(0, n);
  if (!values.every(isStored)) bad(path, line, 'has a value that is not a stored index value');
  const element = rest.length === n + 1;
  const own = values[fi] as Stored;
  const key = (element ? rest[n] : own) as Stored;
  if (element ? !(Array.isArray(own) && isStoredScalar(key) && own.some((e) => compareStored(e, key) === 0)) : false) {
    bad(path, line, 'has an element that is not in its array');
  }
  if (!element && Array.isArray(own) && own.length > 0) bad(path, line, 'has an array value but no element');
  return { key, values: values as Stored[], element };
}

/**
 * Decode one line of a format-2 part (untrusted) of the run of `fields[fi]` among `n` fields; `prev` is
 * the id of the part's previous row (undefined for its first), which the front-coded id continues;
 * `ascii` says the part holds only ASCII (a line's length is then its bytes).
 */
export function decodeRow(
  text: string,
  n: number,
  fi: number,
  path: string,
  line: number,
  prev?: string,
  ascii = false,
): Row {
  indexWork.rowsDecoded++;
  const a = parseLine(text, path, line);
  if (a.length !== n + 3 && a.length !== n + 4) bad(path, line, `is not a row [k, id, sha, ${n} value(s)(, element)]`);
  const [k, suffix, sha64] = a;
  if (!Number.isSafeInteger(k) || (k as number) < 0 || (k as number) > (prev?.length ?? 0)) {
    bad(path, line, `has a shared id prefix that is not 0 to ${prev?.length ?? 0} (the previous row's id length)`);
  }
  if (typeof suffix !== 'string') bad(path, line, 'has no id');
  const id = (prev ?? '').slice(0, k as number) + suffix;
  if (id === '') bad(path, line, 'has no id');
  if (typeof sha64 !== 'string' || !isShaText(sha64)) bad(path, line, 'has no blob SHA (27 base64url characters)');
  const { key, values, element } = keyOf(a.slice(3), n, fi, path, line);
  const row: Row = new ReadRow(key, id, values, element, sha64);
  // The tail read is kept: a part rewritten around one changed row re-sends its other rows as they came,
  // instead of serializing each again (it parsed as exactly this row, so it means the same). A JSON string
  // holds no bare `"`, so the first `,"<sha>"` ends the id's suffix.
  const at = text.indexOf(`,"${sha64}"`);
  if (at > 0) {
    row.tail = text.slice(at);
    row.bytes = standaloneBytes(text, id, k as number, ascii);
  }
  return row;
}

/** Decode one line of a format-1 part (untrusted): `[id, blobSha hex, v_0, …(, element)]`. */
export function decodeRowV1(text: string, n: number, fi: number, path: string, line: number): Row {
  indexWork.rowsDecoded++;
  const a = parseLine(text, path, line);
  if (a.length !== n + 2 && a.length !== n + 3) bad(path, line, `is not a row [id, blobSha, ${n} value(s)(, element)]`);
  const [id, blobSha] = a;
  if (typeof id !== 'string' || id === '') bad(path, line, 'has no id');
  if (typeof blobSha !== 'string' || !SHA.test(blobSha)) bad(path, line, 'has no 40-hex blob SHA');
  return { ...keyOf(a.slice(2), n, fi, path, line), id, blobSha };
}

/** True when a row's stored values say the field is absent. */
export function rowMissing(r: Row, fi: number): boolean {
  return isMissing(r.values[fi]!);
}
