/**
 * Field-level diff of two JSON values (pure, no DOM): what the document view and the section diff show
 * between two versions of a document.
 *
 * - Objects diff by key: a key only in the newer value is `added`, only in the older `removed`, in both
 *   with different values is diffed further down.
 * - Arrays diff by position (index): element `i` of one against element `i` of the other; a longer newer
 *   array reports its extra elements `added`, a shorter one its missing tail `removed`. An element
 *   inserted in the middle therefore shows as every later element `changed` plus one `added` at the end:
 *   predictable and exact, and JSON arrays in documents are mostly lists that grow at the end. (A
 *   longest-common-subsequence diff would guess moves, and its result could not be read as paths.)
 * - A value whose kind differs (object, array, or a scalar) is one `changed` at its path, carrying both.
 *
 * Paths are lists of keys and indexes; `formatPath` writes them as `data.owner.login`, `data.tags[2]`.
 * `applyDiff(a, diffValues(a, b))` rebuilds `b` (the property the unit tests check).
 */

export type PathPart = string | number;
export type ChangeKind = 'added' | 'removed' | 'changed';

export interface FieldChange {
  kind: ChangeKind;
  path: PathPart[];
  /** The older value (absent for `added`). */
  before?: unknown;
  /** The newer value (absent for `removed`). */
  after?: unknown;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Kind = 'array' | 'object' | 'scalar';

function kindOf(v: unknown): Kind {
  if (Array.isArray(v)) return 'array';
  return v !== null && typeof v === 'object' ? 'object' : 'scalar';
}

/**
 * Every field that differs between `before` and `after`, in document order (the newer value's keys first,
 * then keys only the older value had).
 *
 * @example
 * diffValues({ data: { stars: 1, tags: ['a'] } }, { data: { stars: 2, tags: ['a', 'b'] } });
 * // [{ kind: 'changed', path: ['data', 'stars'], before: 1, after: 2 },
 * //  { kind: 'added', path: ['data', 'tags', 1], after: 'b' }]
 */
export function diffValues(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, [], out);
  return out;
}

function walk(a: unknown, b: unknown, path: PathPart[], out: FieldChange[]): void {
  const kind = kindOf(a);
  if (kind !== kindOf(b)) {
    out.push({ kind: 'changed', path, before: a, after: b });
    return;
  }
  if (kind === 'scalar') {
    if (a !== b) out.push({ kind: 'changed', path, before: a, after: b });
    return;
  }
  if (kind === 'array') {
    walkArrays(a as unknown[], b as unknown[], path, out);
    return;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of Object.keys(bo)) {
    if (Object.hasOwn(ao, key)) walk(ao[key], bo[key], [...path, key], out);
    else out.push({ kind: 'added', path: [...path, key], after: bo[key] });
  }
  for (const key of Object.keys(ao)) {
    if (!Object.hasOwn(bo, key)) out.push({ kind: 'removed', path: [...path, key], before: ao[key] });
  }
}

function walkArrays(a: unknown[], b: unknown[], path: PathPart[], out: FieldChange[]): void {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i++) walk(a[i], b[i], [...path, i], out);
  for (let i = common; i < b.length; i++) out.push({ kind: 'added', path: [...path, i], after: b[i] });
  for (let i = common; i < a.length; i++) out.push({ kind: 'removed', path: [...path, i], before: a[i] });
}

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * A path as people read it: `data.owner.login`, `data.tags[2]`, `data["a key"]`; the whole value is `(value)`.
 *
 * @example
 * formatPath(['data', 'tags', 2]); // 'data.tags[2]'
 */
export function formatPath(path: readonly PathPart[]): string {
  if (path.length === 0) return '(value)';
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (PLAIN_KEY.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/**
 * `before` with `changes` applied (a deep copy; `before` is not modified): `applyDiff(a, diffValues(a, b))`
 * equals `b`. Keys are set as own data properties, so a `__proto__` key in a document stays a key.
 *
 * @example
 * applyDiff({ a: 1 }, [{ kind: 'changed', path: ['a'], before: 1, after: 2 }]); // { a: 2 }
 */
export function applyDiff(before: unknown, changes: readonly FieldChange[]): unknown {
  let root = structuredClone(before) as Json;
  for (const change of changes) {
    if (change.path.length === 0) {
      root = structuredClone(change.after) as Json;
      continue;
    }
    const parent = descend(root, change.path.slice(0, -1));
    const last = change.path[change.path.length - 1] as PathPart;
    if (change.kind === 'removed') {
      // Arrays lose only their tail (see the module comment), so a removal cuts the array there.
      if (Array.isArray(parent)) parent.length = Math.min(parent.length, last as number);
      else delete (parent as Record<string, Json>)[last];
    } else {
      Object.defineProperty(parent, last, {
        value: structuredClone(change.after),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return root;
}

function descend(root: Json, path: readonly PathPart[]): Json {
  let node = root;
  for (const part of path) node = (node as Record<PathPart, Json>)[part] as Json;
  return node;
}

/**
 * A short text of a value for a diff line: JSON, cut at `max` characters with an ellipsis.
 *
 * @example
 * preview({ a: 1 }); // '{"a":1}'
 */
export function preview(value: unknown, max = 160): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
