/**
 * Canonical JSON: one byte sequence per JSON value, so unchanged data gives an unchanged blob SHA and
 * therefore no commit. Object keys sorted by UTF-16 code unit (as RFC 8785 does), 2-space indent
 * (readable diffs on GitHub), numbers and strings exactly as `JSON.stringify` writes them, and a
 * trailing newline (POSIX text file; no "\ No newline at end of file" in diffs).
 */
import { InvalidDocument } from '../core/errors.js';

/**
 * Deepest nesting of arrays and objects accepted (the root value is depth 0; the document envelope
 * itself uses one level). Deeper data would overflow the call stack here and in most JSON readers;
 * 512 matches common parser limits (e.g. serde_json's 128 ×4, Python's default recursion ~1000).
 */
export const MAX_JSON_DEPTH = 512;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function reject(path: string, why: string): never {
  throw new InvalidDocument(path, `${path} is not JSON: ${why}`, { path });
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Serialise a JSON value canonically. Throws `InvalidDocument` (with `data.field` = the path, such as
 * `data.branches[2].sha`) for anything that is not plain JSON: `undefined` (also as a property value
 * or array element — silently dropping it would lose data), functions, symbols, BigInt, NaN and
 * ±Infinity, cycles, and objects other than plain objects and arrays (values with a `toJSON` method,
 * such as `Date`, are converted first, as `JSON.stringify` does), and nesting deeper than
 * {@link MAX_JSON_DEPTH} (instead of a `RangeError` from the call stack).
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{\n  "a": [\n    true,\n    null\n  ],\n  "b": 1\n}\n'
 */
export function canonicalJson(value: unknown, rootPath = '$'): string {
  // Data that is already canonical (plain, keys in sorted order, nothing to convert) is written by the
  // platform's serialiser, whose output for it is exactly ours; anything else — and every error — takes
  // the writer below.
  if (isCanonicalReady(value, 0)) return `${JSON.stringify(value, null, 2)}\n`;
  return `${new CanonicalWriter(rootPath).value(value, 0)}\n`;
}

/**
 * True when `JSON.stringify(v, null, 2)` writes exactly the canonical form: only finite numbers, strings,
 * booleans, null, dense arrays and plain objects without `toJSON`, whose own keys come in sorted order
 * and none looks like an array index (JavaScript lists those first, in numeric order), within the depth
 * limit (a cycle exceeds it). One walk, no allocation.
 */
function isCanonicalReady(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth >= MAX_JSON_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !isCanonicalReady(v[i], depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(v)) return false;
  let previous: string | undefined;
  for (const k in v) {
    const c = k.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || !Object.hasOwn(v, k) || (previous !== undefined && !(previous < k))) return false;
    if (!isCanonicalReady((v as Record<string, unknown>)[k], depth + 1)) return false;
    previous = k;
  }
  return true;
}

/** `depth` levels of two-space indentation (built once per depth). */
const INDENT: string[] = [''];
function indent(depth: number): string {
  for (let d = INDENT.length; d <= depth; d++) INDENT.push(`${INDENT[d - 1]}  `);
  return INDENT[depth] as string;
}

/**
 * One serialisation. The path of the value being written is kept as a stack of keys and turned into a
 * string only when a value is rejected: a document's hundreds of values cost no path strings.
 */
class CanonicalWriter {
  private readonly keys: (string | number)[] = [];
  private readonly open: object[] = [];

  constructor(private readonly rootPath: string) {}

  value(v: unknown, depth: number): string {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = this.converted(v as { toJSON: (key: string) => unknown });
    }
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        if (!Number.isFinite(v)) this.reject(`${v} is not a JSON number`);
        return String(v); // what JSON.stringify writes for a finite number
      case 'undefined':
        return this.reject('undefined is not allowed (use null, or leave the property out)');
      case 'bigint':
        return this.reject('BigInt is not allowed (convert it to a string or number)');
      case 'function':
        return this.reject('functions are not allowed');
      case 'symbol':
        return this.reject('symbols are not allowed');
    }
    if (v === null) return 'null';
    return this.container(v as object, depth);
  }

  private container(obj: object, depth: number): string {
    if (this.open.includes(obj)) this.reject('it refers back to itself (cycle)');
    if (depth >= MAX_JSON_DEPTH) {
      // The path would be as deep as the data; name where it starts instead.
      const path = this.path();
      throw new InvalidDocument(
        this.rootPath,
        `${this.rootPath} nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels (the depth limit; see docs/keys.md)`,
        { path: path.length > 120 ? `${path.slice(0, 120)}…` : path, limit: MAX_JSON_DEPTH },
      );
    }
    if (Array.isArray(obj)) return obj.length === 0 ? '[]' : this.array(obj, depth);
    if (!isPlainObject(obj)) {
      const name = (obj as { constructor?: { name?: string } }).constructor?.name ?? 'unknown';
      this.reject(`${name} objects are not allowed (only plain objects and arrays)`);
    }
    const keys = Object.keys(obj);
    return keys.length === 0 ? '{}' : this.object(obj as Record<string, unknown>, keys.sort(), depth);
  }

  private array(arr: unknown[], depth: number): string {
    const inner = indent(depth + 1);
    this.open.push(arr);
    let out = '[\n';
    for (let i = 0; i < arr.length; i++) {
      this.keys.push(i);
      if (!(i in arr)) this.reject('sparse array holes are not allowed');
      out += `${i === 0 ? '' : ',\n'}${inner}${this.value(arr[i], depth + 1)}`;
      this.keys.pop();
    }
    this.open.pop();
    return `${out}\n${indent(depth)}]`;
  }

  private object(obj: Record<string, unknown>, keys: string[], depth: number): string {
    const inner = indent(depth + 1);
    this.open.push(obj);
    let out = '{\n';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      this.keys.push(k);
      out += `${i === 0 ? '' : ',\n'}${inner}${JSON.stringify(k)}: ${this.value(obj[k], depth + 1)}`;
      this.keys.pop();
    }
    this.open.pop();
    return `${out}\n${indent(depth)}}`;
  }

  /** A value's `toJSON()` result; a `toJSON` that throws is the data's fault, named by its path. */
  private converted(v: { toJSON: (key: string) => unknown }): unknown {
    try {
      return v.toJSON('');
    } catch (e) {
      return this.reject(`its toJSON() threw: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  private path(): string {
    let p = this.rootPath;
    for (const k of this.keys) p = childPath(p, k);
    return p;
  }

  private reject(why: string): never {
    return reject(this.path(), why);
  }
}
