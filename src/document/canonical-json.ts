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

/** A value's `toJSON()` result; a `toJSON` that throws is the data's fault, named by its path. */
function convertedByToJson(v: { toJSON: (key: string) => unknown }, path: string): unknown {
  try {
    return v.toJSON('');
  } catch (e) {
    return reject(path, `its toJSON() threw: ${(e as Error)?.message ?? String(e)}`);
  }
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
  const stack = new Set<object>();
  const write = (v: unknown, path: string, indent: string, depth = 0): string => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = convertedByToJson(v as { toJSON: (key: string) => unknown }, path);
    }
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        if (!Number.isFinite(v)) reject(path, `${v} is not a JSON number`);
        return JSON.stringify(v);
      case 'undefined':
        return reject(path, 'undefined is not allowed (use null, or leave the property out)');
      case 'bigint':
        return reject(path, 'BigInt is not allowed (convert it to a string or number)');
      case 'function':
        return reject(path, 'functions are not allowed');
      case 'symbol':
        return reject(path, 'symbols are not allowed');
    }
    if (v === null) return 'null';
    const obj = v as object;
    if (stack.has(obj)) reject(path, 'it refers back to itself (cycle)');
    if (depth >= MAX_JSON_DEPTH) {
      // The path would be as deep as the data; name where it starts instead.
      throw new InvalidDocument(
        rootPath,
        `${rootPath} nests arrays/objects deeper than ${MAX_JSON_DEPTH} levels (the depth limit; see docs/keys.md)`,
        { path: path.length > 120 ? `${path.slice(0, 120)}…` : path, limit: MAX_JSON_DEPTH },
      );
    }
    const inner = `${indent}  `;
    if (Array.isArray(obj)) {
      if (obj.length === 0) return '[]';
      stack.add(obj);
      const parts: string[] = [];
      for (let i = 0; i < obj.length; i++) {
        if (!(i in obj)) reject(childPath(path, i), 'sparse array holes are not allowed');
        parts.push(inner + write(obj[i], childPath(path, i), inner, depth + 1));
      }
      stack.delete(obj);
      return `[\n${parts.join(',\n')}\n${indent}]`;
    }
    if (!isPlainObject(obj)) {
      const name = (obj as { constructor?: { name?: string } }).constructor?.name ?? 'unknown';
      reject(path, `${name} objects are not allowed (only plain objects and arrays)`);
    }
    const keys = Object.keys(obj).sort();
    if (keys.length === 0) return '{}';
    stack.add(obj);
    const parts = keys.map(
      (k) =>
        `${inner}${JSON.stringify(k)}: ${write((obj as Record<string, unknown>)[k], childPath(path, k), inner, depth + 1)}`,
    );
    stack.delete(obj);
    return `{\n${parts.join(',\n')}\n${indent}}`;
  };
  return `${write(value, rootPath, '')}\n`;
}
