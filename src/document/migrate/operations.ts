/**
 * The operations of a migration (docs/migrations.md): their one shape, the checks every entry point runs
 * before any request (`assertOperations`, errors naming `operations[i]` and what is allowed), and the text
 * form the CLI flags and the Action's YAML list share (`parseOperation('rename', 'data.a=data.b')`).
 */
import { InvalidConfig } from '../../core/errors.js';
import { assertValidIdentity } from '../identity.js';

/** A field of a document's data: `data.<key>` or a dotted path into nested objects (`data.owner.login`). */
export type DataField = `data.${string}`;

/** What `cast` converts a value to. */
export const CAST_TYPES = ['number', 'string', 'boolean'] as const;
export type CastType = (typeof CAST_TYPES)[number];

/** One step of a migration, applied to every document of the type in the order given. */
export type MigrationOperation =
  /** Move the value at `from` to `to` (absent `from`: nothing; `to` already present: an error). */
  | { op: 'rename'; from: DataField; to: DataField }
  /** Set `field` to `value` where it is absent (a present value, even null, stays). */
  | { op: 'set'; field: DataField; value: unknown }
  /** Convert the value at `field` (absent or null: stays); a value that cannot be converted is an error. */
  | { op: 'cast'; field: DataField; to: CastType }
  /** Remove `field` (absent: nothing). */
  | { op: 'drop'; field: DataField }
  /** Move every document to another `(namespace, type)`, keeping its id. */
  | { op: 'move-type'; namespace: string; type: string };

export type OperationName = MigrationOperation['op'];
export const OPERATION_NAMES: readonly OperationName[] = ['rename', 'set', 'cast', 'drop', 'move-type'];

/** What each operation's text form looks like (CLI flag values, the Action's YAML list). */
export const OPERATION_SYNTAX: Record<OperationName, string> = {
  rename: 'data.FROM=data.TO',
  set: 'data.FIELD=VALUE (VALUE parsed as JSON, else taken as a string)',
  cast: `data.FIELD=${CAST_TYPES.join('|')}`,
  drop: 'data.FIELD',
  'move-type': 'NAMESPACE/TYPE',
};

/** Keys that would reach an object's prototype if written as a property. */
const UNSAFE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

const fail = (field: string, message: string, allowed: string): never => {
  throw new InvalidConfig(field, `${field}: ${message}`, { allowed });
};

/** The segments of a data field after `data.`, or an error naming `where`. */
export function fieldSegments(field: unknown, where: string): string[] {
  const allowed = 'data.<key> or a dotted path into data, e.g. data.owner.login';
  if (typeof field !== 'string' || !field.startsWith('data.')) {
    return fail(where, `must be a field of data (data.<key>), got ${JSON.stringify(field)}`, allowed);
  }
  const segments = field.slice('data.'.length).split('.');
  if (segments.some((s) => s === '')) fail(where, `${JSON.stringify(field)} has an empty segment`, allowed);
  const unsafe = segments.find((s) => UNSAFE_SEGMENTS.has(s));
  if (unsafe !== undefined) fail(where, `${JSON.stringify(field)} names ${unsafe}, which is not allowed`, allowed);
  return segments;
}

/** One checked operation (a copy holding only its own fields), or `InvalidConfig` naming `where`. */
function checkOperation(o: unknown, where: string): MigrationOperation {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) {
    return fail(where, 'must be an object such as { op: "rename", from: "data.a", to: "data.b" }', opList());
  }
  const r = o as Record<string, unknown>;
  switch (r.op) {
    case 'rename': {
      const from = fieldSegments(r.from, `${where}.from`).join('.');
      const to = fieldSegments(r.to, `${where}.to`).join('.');
      if (from === to || to.startsWith(`${from}.`) || from.startsWith(`${to}.`)) {
        fail(where, `rename ${r.from}=${r.to} moves a field into itself`, 'two fields, neither inside the other');
      }
      return { op: 'rename', from: r.from as DataField, to: r.to as DataField };
    }
    case 'set':
      fieldSegments(r.field, `${where}.field`);
      if (!Object.hasOwn(r, 'value') || r.value === undefined) fail(`${where}.value`, 'is required', 'any JSON value');
      assertJson(r.value, `${where}.value`);
      return { op: 'set', field: r.field as DataField, value: r.value };
    case 'cast':
      fieldSegments(r.field, `${where}.field`);
      if (!(CAST_TYPES as readonly unknown[]).includes(r.to)) {
        fail(`${where}.to`, `cannot cast to ${JSON.stringify(r.to)}`, CAST_TYPES.join(', '));
      }
      return { op: 'cast', field: r.field as DataField, to: r.to as CastType };
    case 'drop':
      fieldSegments(r.field, `${where}.field`);
      return { op: 'drop', field: r.field as DataField };
    case 'move-type':
      assertTypeName(r.namespace, r.type, where);
      return { op: 'move-type', namespace: r.namespace as string, type: r.type as string };
    default:
      return fail(`${where}.op`, `${JSON.stringify(r.op)} is not an operation`, opList());
  }
}

const opList = () => OPERATION_NAMES.join(', ');

/** A namespace and type that make a valid identity (the key rules), named as `where`. */
function assertTypeName(namespace: unknown, type: unknown, where: string): void {
  try {
    assertValidIdentity({ namespace, doc_type: type, id: 'x' });
  } catch (e) {
    fail(where, `move-type: ${(e as Error).message}`, 'NAMESPACE/TYPE following the key rules (docs/documents.md)');
  }
}

/** A value that survives JSON as it is (no undefined, NaN, functions, cycles), or an error naming `where`. */
function assertJson(value: unknown, where: string, depth = 0): void {
  if (depth > 64) fail(where, 'is nested too deeply', 'JSON up to 64 levels');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(where, 'is not a finite number', 'any JSON value');
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) assertJson(v, where, depth + 1);
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) assertJson(v, where, depth + 1);
    return;
  }
  fail(where, `is not JSON (${typeof value})`, 'any JSON value');
}

/**
 * Every operation checked before any request: a list of 1 to 100 operations, each valid, at most one
 * `move-type`, and a `move-type` to another type than `from`. Returns copies holding only the fields each
 * operation takes (what the commit's trailer records).
 *
 * @example
 * assertOperations([{ op: 'rename', from: 'data.a', to: 'data.b' }], { namespace: 'n', type: 't' });
 */
export function assertOperations(
  operations: unknown,
  from: { namespace: string; type: string },
  field = 'operations',
): MigrationOperation[] {
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 100) {
    fail(field, 'must be a list of 1 to 100 operations', opList());
  }
  const checked = (operations as unknown[]).map((o, i) => checkOperation(o, `${field}[${i}]`));
  const moves = checked.filter((o) => o.op === 'move-type');
  if (moves.length > 1) fail(field, 'has more than one move-type', 'at most one move-type');
  const move = moves[0];
  if (move && move.namespace === from.namespace && move.type === from.type) {
    fail(field, `move-type ${move.namespace}/${move.type} is the type being migrated`, 'another NAMESPACE/TYPE');
  }
  return checked;
}

/**
 * One operation from its text form (a CLI flag's value, an item of the Action's YAML list); `where` names
 * the flag or input in errors. Check the result with {@link assertOperations}.
 *
 * @example
 * parseOperation('rename', 'data.a=data.b', '--rename'); // { op: 'rename', from: 'data.a', to: 'data.b' }
 * parseOperation('set', 'data.n=3', '--set'); // { op: 'set', field: 'data.n', value: 3 }
 * parseOperation('set', 'data.s=hello', '--set'); // { op: 'set', field: 'data.s', value: 'hello' }
 */
export function parseOperation(name: string, text: string, where: string): MigrationOperation {
  const pair = () => {
    const eq = text.indexOf('=');
    if (eq < 0) fail(where, `${JSON.stringify(text)} has no "="`, OPERATION_SYNTAX[name as OperationName]);
    return [text.slice(0, eq), text.slice(eq + 1)] as [string, string];
  };
  switch (name) {
    case 'rename': {
      const [from, to] = pair();
      return { op: 'rename', from: from as DataField, to: to as DataField };
    }
    case 'set': {
      const [field, value] = pair();
      return { op: 'set', field: field as DataField, value: jsonOrString(value) };
    }
    case 'cast': {
      const [field, to] = pair();
      return { op: 'cast', field: field as DataField, to: to as CastType };
    }
    case 'drop':
      return { op: 'drop', field: text as DataField };
    case 'move-type': {
      const slash = text.indexOf('/');
      if (slash < 0 || text.indexOf('/', slash + 1) >= 0) {
        fail(where, `${JSON.stringify(text)} is not NAMESPACE/TYPE`, OPERATION_SYNTAX['move-type']);
      }
      return { op: 'move-type', namespace: text.slice(0, slash), type: text.slice(slash + 1) };
    }
    default:
      return fail(where, `${JSON.stringify(name)} is not an operation`, opList());
  }
}

/** `set`'s VALUE: JSON when it parses (`3`, `true`, `"3"`, `{"a":1}`), else the text itself. */
function jsonOrString(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
