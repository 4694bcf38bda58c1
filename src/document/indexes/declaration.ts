/**
 * The index declaration of a section, `_docdb/indexes.json` (issue 28, item 1): per `(namespace, type)`,
 * the fields to index — `id` or a dotted path into `data`. It lives in the section, so every writer
 * sees it; read back, it is untrusted like any file of the section.
 */
import { InvalidConfig } from '../../core/errors.js';
import { assertIdentityFields } from '../identity.js';
import { array, at, type Checked, checkedJson, fail, onlyKeys, record, shapeChecked, string } from './check.js';
import { fieldDir } from './paths.js';

/** Where the declaration is stored in the section. */
export const DECLARATION_KEY = '_docdb/indexes.json';

/** Most fields one `(namespace, type)` may index: each is a run of rows rewritten on every put. */
export const MAX_INDEXED_FIELDS = 8;

/** Longest field path, in characters (its encoded form names a directory: see paths.ts). */
export const MAX_FIELD_CHARS = 200;

/** Longest encoded field directory name (a key segment may have 255 bytes). */
const MAX_FIELD_DIR_BYTES = 250;

/** Declarations that make a section's declaration file implausibly large. */
export const MAX_DECLARED_TYPES = 1000;

export interface TypeIndex {
  namespace: string;
  type: string;
  /** `id` or `data.<dotted path>`, in the order rows store their values. */
  fields: string[];
}

export interface IndexDeclaration {
  version: 1;
  indexes: TypeIndex[];
}

/**
 * One declared field — `id` or `data.<dotted path>`, at most {@link MAX_FIELD_CHARS} characters, no empty
 * segment, well-formed text — the rule index and search declarations share (`example` names a field of
 * the kind in the error).
 *
 * @example
 * declaredField('data.title', 'search[0].fields[0]', 'data.title'); // 'data.title'
 */
export function declaredField(value: unknown, field: string, example: string): string {
  const f = string(value, field);
  if (f.length > MAX_FIELD_CHARS) fail(field, `at most ${MAX_FIELD_CHARS} characters`);
  if (f === 'id') return f;
  if (!f.startsWith('data.')) fail(field, `must be "id" or a dotted path into data, such as "${example}"`);
  if (f.slice(5).split('.').includes('')) {
    fail(field, 'has an empty segment ("data.", "data..x" or a trailing "."); each segment names a key of data');
  }
  if (!f.isWellFormed() || /[\u0000-\u001f\u007f]/.test(f))
    fail(field, 'must be valid UTF-8 without control characters');
  return f;
}

/** One indexed field: a declared field short enough to name a directory (see paths.ts). */
function fieldOf(value: unknown, field: string): string {
  const f = declaredField(value, field, 'data.language');
  if (fieldDir(f).length > MAX_FIELD_DIR_BYTES) {
    fail(
      field,
      `is too long once encoded as a directory name (at most ${MAX_FIELD_DIR_BYTES} bytes; non-ASCII characters take 6 to 12)`,
    );
  }
  return f;
}

/**
 * One `{ namespace, type, fields }` entry of a declaration — 1 to `max` distinct fields, each checked by
 * `fieldOf`, no other key (its identity rules are checked after the shape). Index and search declarations
 * share it.
 *
 * @example
 * typeFieldsOf({ namespace: 'g', type: 'repo', fields: ['id'] }, 'indexes[0]', 8, fieldOf);
 */
export function typeFieldsOf(
  value: unknown,
  field: string,
  max: number,
  fieldOf: (value: unknown, field: string) => string,
): { namespace: string; type: string; fields: string[] } {
  const o = record(value, field);
  const namespace = string(o.namespace, at(field, 'namespace'));
  const type = string(o.type, at(field, 'type'));
  const where = at(field, 'fields');
  const list = array(o.fields, where, max, `may list at most ${max} fields`);
  const fields = list.map((f, i) => fieldOf(f, at(where, i)));
  if (fields.length === 0) fail(where, 'must list at least one field');
  if (new Set(fields).size !== fields.length) fail(where, 'lists a field twice');
  onlyKeys(o, field, ['namespace', 'type', 'fields']);
  return { namespace, type, fields };
}

const typeIndexOf = (value: unknown, field: string): TypeIndex =>
  typeFieldsOf(value, field, MAX_INDEXED_FIELDS, fieldOf);

/** The declaration's shape: `{ version: 1, indexes: [...] }` and nothing else (a fresh copy). */
function shapeOf(value: unknown): IndexDeclaration {
  const o = record(value, '');
  if (o.version !== 1) fail('version', 'must be 1');
  const list = array(o.indexes, 'indexes', MAX_DECLARED_TYPES, `at most ${MAX_DECLARED_TYPES} entries`);
  const indexes = list.map((t, i) => typeIndexOf(t, at('indexes', i)));
  onlyKeys(o, '', ['version', 'indexes']);
  return { version: 1, indexes };
}

/** The first problem of a declaration, as `{ field, message }`, or the validated declaration. */
function check(value: unknown): Checked<IndexDeclaration> {
  const parsed = shapeChecked(value, shapeOf, 'index declaration');
  if (!parsed.ok) return parsed;
  const seen = new Set<string>();
  for (const [i, t] of parsed.value.indexes.entries()) {
    try {
      assertIdentityFields(t.namespace, t.type, 'x');
    } catch (e) {
      return { ok: false, field: `indexes[${i}]`, message: `index declaration indexes[${i}]: ${(e as Error).message}` };
    }
    const k = `${t.namespace}/${t.type}`;
    if (seen.has(k)) {
      const message = `index declaration indexes[${i}] declares ${k} again; list each (namespace, type) once`;
      return { ok: false, field: `indexes[${i}]`, message };
    }
    seen.add(k);
  }
  return parsed;
}

/**
 * Validate a declaration given by the caller (library, CLI, projection spec). Throws `InvalidConfig`
 * naming the field (`indexes[0].fields[1]`) and what is allowed.
 *
 * @example
 * validateDeclaration({ version: 1, indexes: [{ namespace: 'github', type: 'repo', fields: ['data.stars'] }] });
 * validateDeclaration({ version: 1, indexes: [{ namespace: 'github', type: 'repo', fields: ['stars'] }] });
 * // throws InvalidConfig: index declaration indexes[0].fields[0] is invalid: must be "id" or a dotted path into data…
 */
export function validateDeclaration(value: unknown): IndexDeclaration {
  const r = check(value);
  if (!r.ok) throw new InvalidConfig(r.field, r.message, { allowed: ALLOWED });
  return r.value;
}

const ALLOWED = `{ "version": 1, "indexes": [{ "namespace", "type", "fields": 1..${MAX_INDEXED_FIELDS} distinct of "id" | "data.<dotted path>" }] }`;

/**
 * Parse the declaration file read back from the section (untrusted). Missing file: no indexes.
 * A file that is not JSON or not a valid declaration gives `InvalidResponse` naming the key and field.
 *
 * @example
 * parseDeclaration(undefined); // { version: 1, indexes: [] }
 */
export function parseDeclaration(bytes: Uint8Array | undefined): IndexDeclaration {
  if (bytes === undefined) return { version: 1, indexes: [] };
  return checkedJson(bytes, DECLARATION_KEY, check);
}

/**
 * The declaration's bytes as stored: one canonical spelling, so re-declaring the same indexes writes
 * nothing.
 *
 * @example
 * serializeDeclaration({ version: 1, indexes: [] }); // '{\n  "version": 1,\n  "indexes": []\n}\n' as bytes
 */
export function serializeDeclaration(d: IndexDeclaration): Uint8Array {
  const indexes = [...d.indexes]
    .sort((a, b) => (a.namespace + '/' + a.type < b.namespace + '/' + b.type ? -1 : 1))
    .map((t) => ({ namespace: t.namespace, type: t.type, fields: t.fields }));
  return new TextEncoder().encode(`${JSON.stringify({ version: 1, indexes }, null, 2)}\n`);
}
