/**
 * A migration's operations applied to ONE document: pure, no I/O. A document the operations cannot
 * migrate gives a {@link MigrationProblem} naming the operation and the field and the JSON type found —
 * never the value (it may be a secret).
 */
import type { CastType, MigrationOperation } from './operations.js';
import { fieldSegments } from './operations.js';

/** Why one document cannot be migrated (no value in it, ever). */
export interface MigrationProblem {
  key: string;
  /** The operation as its text form names it: `cast data.n=number`. */
  operation: string;
  field: string;
  /** What was wrong: `not-castable`, `exists` (rename onto a present field), `not-an-object` (a path through a value), `taken` (move-type onto an existing document). */
  rule: 'not-castable' | 'exists' | 'not-an-object' | 'taken';
  /** The JSON type of the value found (`string`, `object`, …). */
  found: string;
}

/** One document after the operations. */
export interface MigratedDocument {
  namespace: string;
  type: string;
  data: unknown;
  /** The operations changed its data. */
  changed: boolean;
  /** A move-type moved it. */
  moved: boolean;
}

/** The text form of an operation, for messages and commit subjects (a `set` value cut to `maxValue` characters). */
export function operationText(o: MigrationOperation, maxValue = 40): string {
  switch (o.op) {
    case 'rename':
      return `rename ${o.from}=${o.to}`;
    case 'set':
      return `set ${o.field}=${cut(JSON.stringify(o.value), maxValue)}`;
    case 'cast':
      return `cast ${o.field}=${o.to}`;
    case 'drop':
      return `drop ${o.field}`;
    case 'move-type':
      return `move-type ${o.namespace}/${o.type}`;
  }
}

/**
 * `text` cut to `max` characters, saying how much was left out.
 *
 * @example
 * cut('"' + 'x'.repeat(500) + '"', 20); // '"xxxxxxxxxxxxxxxxxx… (482 more)'
 */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}… (${text.length - max + 1} more)`;
}

/** The JSON type of a value, as problems name it. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Thrown inside {@link applyOperations}, turned into a problem with the document's key. */
class Refused {
  constructor(readonly problem: Omit<MigrationProblem, 'key'>) {}
}

/**
 * The document `key` of `(namespace, type)` with `data` after `operations`, or the problem that stops it.
 * `data` is not modified (the result is a copy when anything changed).
 *
 * @example
 * applyOperations('n/t/a.json', 'n', 't', { a: 1 }, [{ op: 'rename', from: 'data.a', to: 'data.b' }]);
 * // { namespace: 'n', type: 't', data: { b: 1 }, changed: true, moved: false }
 */
export function applyOperations(
  key: string,
  namespace: string,
  type: string,
  data: unknown,
  operations: readonly MigrationOperation[],
): MigratedDocument | MigrationProblem {
  const out: MigratedDocument = { namespace, type, data: structuredClone(data), changed: false, moved: false };
  try {
    for (const o of operations) applyOne(out, o);
  } catch (e) {
    if (e instanceof Refused) return { key, ...e.problem };
    throw e;
  }
  if (!out.changed) out.data = data;
  return out;
}

function applyOne(doc: MigratedDocument, o: MigrationOperation): void {
  if (o.op === 'move-type') {
    doc.namespace = o.namespace;
    doc.type = o.type;
    doc.moved = true;
    return;
  }
  if (!isObject(doc.data))
    throw new Refused({ operation: operationText(o), field: 'data', rule: 'not-an-object', found: jsonType(doc.data) });
  const root = doc.data;
  if (o.op === 'rename') {
    const from = locate(root, o.from, o, false);
    if (!from || !Object.hasOwn(from.parent, from.last)) return;
    const to = locate(root, o.to, o, true) as Located;
    if (Object.hasOwn(to.parent, to.last)) {
      throw new Refused({
        operation: operationText(o),
        field: o.to,
        rule: 'exists',
        found: jsonType(to.parent[to.last]),
      });
    }
    to.parent[to.last] = from.parent[from.last];
    delete from.parent[from.last];
    doc.changed = true;
  } else if (o.op === 'set') {
    if (valueAtPath(root, o.field) !== undefined) return;
    const at = locate(root, o.field, o, true) as Located;
    at.parent[at.last] = structuredClone(o.value);
    doc.changed = true;
  } else if (o.op === 'drop') {
    const at = locate(root, o.field, o, false);
    if (!at || !Object.hasOwn(at.parent, at.last)) return;
    delete at.parent[at.last];
    doc.changed = true;
  } else {
    const at = locate(root, o.field, o, false);
    if (!at || !Object.hasOwn(at.parent, at.last)) return;
    const before = at.parent[at.last];
    const after = castValue(before, o.to);
    if (after === undefined) {
      throw new Refused({ operation: operationText(o), field: o.field, rule: 'not-castable', found: jsonType(before) });
    }
    if (after !== before) {
      at.parent[at.last] = after;
      doc.changed = true;
    }
  }
}

interface Located {
  parent: Obj;
  last: string;
}

/**
 * The object holding a field's last segment. `create`: missing objects on the way are made (a value that
 * is not an object there is refused); otherwise a path that does not reach an object gives undefined.
 */
function locate(root: Obj, field: string, o: MigrationOperation, create: boolean): Located | undefined {
  const segments = fieldSegments(field, 'field');
  let parent = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const seg = segments[i] as string;
    const next = Object.hasOwn(parent, seg) ? parent[seg] : undefined;
    if (isObject(next)) {
      parent = next;
      continue;
    }
    if (!create) return undefined;
    if (next !== undefined) {
      const at = `data.${segments.slice(0, i + 1).join('.')}`;
      throw new Refused({ operation: operationText(o), field: at, rule: 'not-an-object', found: jsonType(next) });
    }
    const made: Obj = {};
    parent[seg] = made;
    parent = made;
  }
  return { parent, last: segments[segments.length - 1] as string };
}

/** The value at a data field, or undefined when absent (a path through a non-object is absent). */
function valueAtPath(root: Obj, field: string): unknown {
  let v: unknown = root;
  for (const seg of field.slice('data.'.length).split('.')) {
    if (!isObject(v) || !Object.hasOwn(v, seg)) return undefined;
    v = v[seg];
  }
  return v;
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A value converted to `to`; null stays null; undefined when it cannot be converted.
 *
 * @example
 * castValue(' 42 ', 'number'); // 42
 * castValue('yes', 'boolean'); // undefined
 */
export function castValue(v: unknown, to: CastType): unknown {
  if (v === null) return null;
  if (to === 'number') {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'string' && JSON_NUMBER.test(v.trim())) {
      const n = Number(v.trim());
      return Number.isFinite(n) ? n : undefined;
    }
    return undefined;
  }
  if (to === 'string') {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return undefined;
  }
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t === 'true' ? true : t === 'false' ? false : undefined;
  }
  if (v === 1 || v === 0) return v === 1;
  return undefined;
}
