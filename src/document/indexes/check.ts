/**
 * Small shape checks for the index files and options (declaration, query, cursor, manifest). They are
 * hand-written rather than a schema library because the index core is on every write path of
 * DocumentStore, so it ships in the browser bundle (issue 28; a schema library there cost ~115 KB
 * min+gzip against a 60 KB budget).
 *
 * Each check throws a {@link ShapeProblem} naming where (`indexes[0].fields[1]`; `''` is the value
 * itself) and what is allowed; the caller turns the first problem into its own typed error
 * (`InvalidConfig` for options, `InvalidResponse` for files read back) — for the files, through the two
 * readers at the end: {@link shapedJson} (manifests) and {@link checkedJson} (declarations). The order in which they are
 * called is the order problems are reported: each object's own keys in declaration order, then its
 * unknown keys; an array's length bound before its elements (a huge array is refused without walking
 * it), its minimum and cross-element rules after them.
 */
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';

/** The first problem found in a value; never leaves the index modules (each caller converts it). */
export class ShapeProblem extends Error {
  constructor(
    /** Where: `where[0].op`, `indexes[1]`, or `''` for the value itself. */
    readonly field: string,
    /** What is wrong and what is allowed, without the field (`must be a string, got number`). */
    readonly problem: string,
    /** Set when the problem is keys the object may not have. */
    readonly unknownKeys?: readonly string[],
  ) {
    super(`${field || '(value)'} ${problem}`);
  }
}

/**
 * Throw the problem `problem` at `field`.
 *
 * @example
 * fail('version', 'must be 1'); // throws ShapeProblem
 */
export function fail(field: string, problem: string): never {
  throw new ShapeProblem(field, problem);
}

/**
 * The path of `key` inside `parent`: `where` + 0 → `where[0]`, `where[0]` + `op` → `where[0].op`.
 *
 * @example
 * at(at('indexes', 0), 'fields'); // 'indexes[0].fields'
 */
export function at(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** What a value is, for a message: `null`, `array`, `NaN`, `Infinity` or its `typeof`. */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v;
}

/**
 * Whether `v` is a JSON object (not null, not an array).
 *
 * @example
 * isRecord({}); // true
 * isRecord([]); // false
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `v` as an object, or a problem at `field`.
 *
 * @example
 * const o = record(JSON.parse(text), '');
 */
export function record(v: unknown, field: string): Record<string, unknown> {
  if (!isRecord(v)) fail(field, `must be an object, got ${kindOf(v)}`);
  return v;
}

/**
 * Refuse keys of `o` outside `allowed` (strict objects: a misspelt option must not be ignored).
 *
 * @example
 * onlyKeys({ version: 1, extra: 1 }, '', ['version', 'indexes']); // throws: unknown key(s) extra
 */
export function onlyKeys(o: Record<string, unknown>, field: string, allowed: readonly string[]): void {
  const unknown = Object.keys(o).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new ShapeProblem(field, `has unknown key(s) ${unknown.join(', ')}`, unknown);
  }
}

/**
 * Refuse an object that lacks `key` (a key whose value may be anything must still be given).
 *
 * @example
 * required({ op: '=' }, 'where[0]', 'field'); // throws: where[0].field must be given
 */
export function required(o: Record<string, unknown>, field: string, key: string): void {
  if (!(key in o)) fail(at(field, key), 'must be given');
}

/**
 * `v` as a string of `min`..`max` characters (UTF-16 code units, as `String.length` counts).
 *
 * @example
 * string(o.cursor, 'cursor', 0, 4096);
 */
export function string(v: unknown, field: string, min = 0, max = Number.POSITIVE_INFINITY): string {
  if (typeof v !== 'string') fail(field, `must be a string, got ${kindOf(v)}`);
  if (v.length < min) fail(field, min === 1 ? 'must not be empty' : `must have at least ${min} characters`);
  if (v.length > max) fail(field, `must have at most ${max} characters`);
  return v;
}

/**
 * `v` as an array of at most `max` items (checked before its elements are). `tooMany` replaces the
 * default message for the bound.
 *
 * @example
 * const items = array(o.indexes, 'indexes', 1000);
 */
export function array(v: unknown, field: string, max = Number.POSITIVE_INFINITY, tooMany?: string): unknown[] {
  if (!Array.isArray(v)) fail(field, `must be an array, got ${kindOf(v)}`);
  if (v.length > max) fail(field, tooMany ?? `must have at most ${max} items`);
  return v;
}

/**
 * `v` as a whole number in `min`..`max` (a finite, safe integer: JSON can spell 1e400 or 1.5).
 *
 * @example
 * integer(o.limit, 'limit', 1, 10_000);
 */
export function integer(v: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
  if (typeof v !== 'number') fail(field, `must be a whole number ${range}, got ${kindOf(v)}`);
  // isSafeInteger also refuses NaN, ±Infinity and fractions.
  if (!Number.isSafeInteger(v) || v < min || v > max) fail(field, `must be a whole number ${range}, got ${v}`);
  return v;
}

/** Bytes read back as UTF-8 JSON; throws an Error saying why not (`not UTF-8`, or JSON.parse's message). */
function utf8Json(bytes: Uint8Array): unknown {
  if (!isUtf8(bytes)) throw new Error('not UTF-8');
  return JSON.parse(fromUtf8(bytes));
}

/**
 * A stored JSON file read back (untrusted): parsed, then checked by `shape`; a file that is not UTF-8 JSON,
 * or whose shape `shape` refuses, goes to `bad` with the reason (which throws the caller's typed error).
 *
 * @example
 * const m = shapedJson(bytes, manifestOf, (why) => badManifest(key, why));
 */
export function shapedJson<T>(bytes: Uint8Array, shape: (json: unknown) => T, bad: (why: string) => never): T {
  let json: unknown;
  try {
    json = utf8Json(bytes);
  } catch {
    bad('is not JSON');
  }
  try {
    return shape(json);
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    bad(`does not have the manifest's shape (${e.field || 'the manifest'} ${e.problem})`);
  }
}

/** A declaration checked: the value, or its first problem as the field and a message naming it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/**
 * `shape(value)`, or its first problem worded as declarations word it: `<what> <field> is invalid: <problem>`
 * (`<what> <field> has: unknown key(s) a, b`), the field `(root)` for the value itself.
 *
 * @example
 * shapeChecked({ version: 2 }, shapeOf, 'index declaration');
 * // { ok: false, field: 'version', message: 'index declaration version is invalid: must be 1' }
 */
export function shapeChecked<T>(value: unknown, shape: (value: unknown) => T, what: string): Checked<T> {
  try {
    return { ok: true, value: shape(value) };
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    const field = e.field || '(root)';
    const problem = e.unknownKeys ? `has: unknown key(s) ${e.unknownKeys.join(', ')}` : `is invalid: ${e.problem}`;
    return { ok: false, field, message: `${what} ${field} ${problem}` };
  }
}

/**
 * A declaration file read back from the section (untrusted): UTF-8 JSON, then `check`. Not JSON is
 * `InvalidResponse` "`key` is not JSON (why); fix or delete it"; a problem `check` finds is
 * `InvalidResponse` "`key`: message" with its field — each naming the key.
 *
 * @example
 * const declaration = checkedJson(bytes, '_docdb/indexes.json', check);
 */
export function checkedJson<T>(bytes: Uint8Array, key: string, check: (json: unknown) => Checked<T>): T {
  let json: unknown;
  try {
    json = utf8Json(bytes);
  } catch (e) {
    throw new InvalidResponse(`${key} is not JSON (${(e as Error).message}); fix or delete it`, { key });
  }
  const r = check(json);
  if (!r.ok) throw new InvalidResponse(`${key}: ${r.message}`, { key, field: r.field });
  return r.value;
}
