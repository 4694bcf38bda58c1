/**
 * Indexed values: what a document's field becomes in an index row, and the one total order rows are
 * sorted by (issue 28: "values are compared as JSON types, no silent string/number mixing").
 *
 * A stored value is itself JSON, so a part is plain JSON lines:
 * - a scalar (`null`, a boolean, a finite number, a string of at most {@link MAX_STORED_STRING_BYTES}
 *   UTF-8 bytes) is stored as is;
 * - a longer string is stored cut, as `{"cut": "<its longest prefix within the cap>"}`: the row still
 *   sorts and filters on the prefix, and a question the prefix cannot settle is answered from the
 *   document ("needs document", see evaluate.ts);
 * - an array of scalars is stored as an array of such values (at most {@link MAX_ARRAY_ELEMENTS});
 * - a missing field is stored as `{}`, so `exists: false` is a range of the run like any other.
 *
 * The order: missing < [] < null < false < true < numbers (numerically) < strings (by UTF-16 code unit,
 * as JavaScript's `<` and canonical JSON's key order compare them). Arrays only appear as keys when
 * empty; a non-empty array gives one row per distinct element (multi-entry, as IndexedDB's
 * `multiEntry`).
 */
import { InvalidDocument } from '../../core/errors.js';

/** Longest string stored whole, in UTF-8 bytes; longer strings are stored cut at a code point. */
export const MAX_STORED_STRING_BYTES = 256;

/** Most elements an indexed array may have (keeps one row, which carries every declared value, small). */
export const MAX_ARRAY_ELEMENTS = 32;

export type Scalar = null | boolean | number | string;
/** A string longer than the cap: its prefix. */
export type Cut = { cut: string };
/** The field is absent from the document. */
export type Missing = Record<string, never>;
/** What an element of an indexed array, or a sort key, can be. */
export type StoredScalar = Scalar | Cut;
/** What a row stores for one declared field. */
export type Stored = StoredScalar | StoredScalar[] | Missing;

export const MISSING: Missing = Object.freeze({}) as Missing;

/** True for the `{}` marker of a missing field. */
export function isMissing(v: Stored): v is Missing {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !('cut' in v);
}

/** True for a cut string. */
export function isCut(v: unknown): v is Cut {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Cut).cut === 'string';
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** UTF-8 length of a string without encoding it. */
export function utf8Length(s: string): number {
  if (!NON_ASCII.test(s)) return s.length; // the common case, answered by the regex engine
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `s` within `maxBytes` UTF-8 bytes, never splitting a surrogate pair. */
function prefixWithin(s: string, maxBytes: number): string {
  let n = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + size > maxBytes) break;
    n += size;
    i += pair ? 2 : 1;
  }
  return s.slice(0, i);
}

/**
 * The stored form of one scalar: long strings cut, `-0` as `0` (JSON writes both as `0`).
 *
 * @example
 * storeScalar('x'.repeat(300)); // { cut: 'xxx…' } (256 characters)
 */
export function storeScalar(v: Scalar): StoredScalar {
  if (typeof v === 'string' && v.length * 3 > MAX_STORED_STRING_BYTES && utf8Length(v) > MAX_STORED_STRING_BYTES) {
    return { cut: prefixWithin(v, MAX_STORED_STRING_BYTES) };
  }
  return v === 0 ? 0 : v;
}

function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** The value at a declared field (`id` or `data.a.b`) of a document, or undefined when absent. */
export function valueAt(id: string, data: unknown, field: string): unknown {
  if (field === 'id') return id;
  let v: unknown = data;
  for (const seg of field.slice('data.'.length).split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

/**
 * What a row stores for `field` of a document. Throws `InvalidDocument` (naming the document and the
 * field) for a value an index cannot hold: an object, an array of non-scalars, or a longer array than
 * {@link MAX_ARRAY_ELEMENTS}.
 *
 * @example
 * storedValue('a', { tags: ['x', 'y'] }, 'data.tags'); // ['x', 'y']
 * storedValue('a', {}, 'data.tags');                   // {} (missing)
 * // `exact` keeps long strings whole: the values a query compares once it has read the document.
 */
export function storedValue(id: string, data: unknown, field: string, exact = false): Stored {
  const store = exact ? (s: Scalar) => (s === 0 ? 0 : s) : storeScalar;
  const v = valueAt(id, data, field);
  if (v === undefined) return MISSING;
  if (isScalar(v)) return store(v);
  const where = `document ${JSON.stringify(id)}, indexed field ${field}`;
  if (!Array.isArray(v) || !v.every(isScalar)) {
    throw new InvalidDocument(
      field,
      `${where}: an index holds only a JSON scalar (null, boolean, number, string) or an array of scalars; got ${Array.isArray(v) ? 'an array with a non-scalar element' : typeof v}`,
      { id, allowed: 'scalar or array of scalars' },
    );
  }
  if (v.length > MAX_ARRAY_ELEMENTS) {
    throw new InvalidDocument(
      field,
      `${where}: an indexed array may have at most ${MAX_ARRAY_ELEMENTS} elements; got ${v.length}`,
      { id, limit: MAX_ARRAY_ELEMENTS, size: v.length },
    );
  }
  return v.map(store);
}

/** Position of a value's kind in the total order. */
export function rank(v: Stored): number {
  if (v === null) return 2;
  switch (typeof v) {
    case 'boolean':
      return v ? 4 : 3;
    case 'number':
      return 5;
    case 'string':
      return 6;
  }
  if (Array.isArray(v)) return 1;
  return isCut(v) ? 6 : 0;
}

function stringOf(v: Stored): string {
  return typeof v === 'string' ? v : (v as Cut).cut;
}

/**
 * The total order of stored keys: by kind (see the file comment), then by value; a cut string sorts by
 * its prefix, after the uncut string equal to that prefix. Arrays compare as equal (only `[]` is a key).
 *
 * @example
 * compareStored(10, '9');   // -1: every number sorts before every string
 */
export function compareStored(a: Stored, b: Stored): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 5) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ra !== 6) return 0;
  const sa = stringOf(a);
  const sb = stringOf(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  const ca = isCut(a);
  return ca === isCut(b) ? 0 : ca ? 1 : -1;
}

/**
 * Whether the true strings behind `a` and `b` compare as `compareStored` says, or the order is
 * unknown (`undefined`): a cut prefix `p` against a string that starts with `p` and is at least as long.
 *
 * @example
 * certainCompare({ cut: 'ab' }, 'abc'); // undefined: the document decides
 */
export function certainCompare(a: Stored, b: Stored): number | undefined {
  const ca = isCut(a);
  const cb = isCut(b);
  if ((ca || cb) && rank(a) === 6 && rank(b) === 6) {
    const sa = stringOf(a);
    const sb = stringOf(b);
    if (
      (ca && sb.startsWith(sa) && (cb || sb.length > sa.length)) ||
      (cb && sa.startsWith(sb) && (ca || sa.length > sb.length))
    )
      return undefined;
    if (ca && sb === sa) return 1;
  }
  return compareStored(a, b);
}

// What a write and a query's check need of the stored values, kept here rather than in rows.ts: the browser
// bundle's first download (get/put/list pages) carries this file but not the row format (docs/browser.md).

/** A document as index rows are built from it. */
export interface IndexedDocument {
  id: string;
  blobSha: string;
  data: unknown;
}

/** The stored values of a document, in declaration order (throws InvalidDocument for an unindexable value). */
export function storedValues(fields: readonly string[], doc: IndexedDocument): Stored[] {
  return fields.map((f) => storedValue(doc.id, doc.data, f));
}

/** Shape check of a stored scalar (an array element or sort key) read back from the section. */
export function isStoredScalar(v: unknown): v is StoredScalar {
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
