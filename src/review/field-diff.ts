/**
 * Which fields of a document's `data` changed: paths like `data.owner.login`, recursing into objects on
 * both sides, comparing arrays (and everything else) whole, and naming fields added or removed.
 */
import { cut } from './markdown.js';

/** Values shown in a field change are JSON cut to this many characters (the cut marked with `…`). */
export const VALUE_CHARS = 80;
/**
 * Objects nested deeper than this are compared whole: the path stops there. Source data can nest without
 * bound, and the diff must not run out of stack on it.
 */
export const MAX_DEPTH = 32;

/** One changed field; `before`/`after` undefined: the field is absent on that side. */
export interface ChangedField {
  path: string;
  before: unknown;
  after: unknown;
}

type Plain = Record<string, unknown>;

function isPlainObject(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `.name` for a name that reads as one, else `["…"]` (a key with a dot or a space stays one step). */
function step(path: string, key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The changed fields between `before` and `after` (a modified document's `data`), under the path `root`,
 * in key order.
 *
 * @example
 * changedFields({ a: 1, b: { c: [1] } }, { a: 1, b: { c: [2] }, d: true });
 * // [{ path: 'data.b.c', before: [1], after: [2] }, { path: 'data.d', before: undefined, after: true }]
 */
export function changedFields(before: unknown, after: unknown, root = 'data'): ChangedField[] {
  const out: ChangedField[] = [];
  walk(before, after, root, 0, out);
  return out;
}

function walk(before: unknown, after: unknown, path: string, depth: number, out: ChangedField[]): void {
  if (isPlainObject(before) && isPlainObject(after) && depth < MAX_DEPTH) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const has = [Object.hasOwn(before, key), Object.hasOwn(after, key)];
      walk(has[0] ? before[key] : undefined, has[1] ? after[key] : undefined, step(path, key), depth + 1, out);
    }
    return;
  }
  if (!jsonEqual(before, after)) out.push({ path, before, after });
}

/**
 * Deep equality of JSON values (object key order ignored, array order not), without recursion: a value
 * nested a million levels deep compares without a stack overflow.
 *
 * @example
 * jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      continue;
    }
    const xo = x as Plain;
    const yo = y as Plain;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push([xo[k], yo[k]]);
    }
  }
  return true;
}

/**
 * A value as it is shown in a field change: JSON cut at {@link VALUE_CHARS} characters, `(absent)` for a
 * field that is not there. A value JSON cannot write (nested too deep) says so instead of throwing.
 *
 * @example
 * shownValue('x'.repeat(100)); // '"xxx…xx…"' (80 characters)
 * shownValue(undefined); // '(absent)'
 */
export function shownValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    return '(too deeply nested to show)';
  }
  return cut(json, VALUE_CHARS);
}
