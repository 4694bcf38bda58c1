/**
 * The per-type declaration file, `_docdb/types/<namespace>/<type>.json` (issue 38; docs/decisions.md):
 * `{ "version": 1, "schema": {…} }` — the JSON Schema every writer checks the type's documents against.
 * One canonical spelling (2-space indent, the schema's keys sorted, trailing newline), so declaring the same
 * schema again gives the same bytes and no commit. Read back it is untrusted like any file of the section:
 * anything but that shape is `InvalidResponse` naming the key and the field.
 */
import { fromUtf8, isUtf8, utf8 } from '../../core/bytes.js';
import { InvalidConfig, InvalidDocument, InvalidResponse } from '../../core/errors.js';
import { canonicalJson } from '../canonical-json.js';
import { assertIdentityFields } from '../identity.js';

/** Where the per-type declarations live in a section. */
export const TYPES_PREFIX = '_docdb/types/';

/** A type's declaration as stored (today only its schema; later keys — search, … — join it). */
export interface TypeDeclaration {
  version: 1;
  schema: Record<string, unknown>;
}

/** One schema declared in a write (`schemas` option): `schema: null` drops it. */
export interface TypeSchema {
  namespace: string;
  type: string;
  schema: object | null;
  /** Declare even when documents already in the section break the schema. */
  force?: boolean;
}

/** A declared schema, checked, with the bytes of its declaration file (null: the file is deleted). */
export interface DeclaredSchema {
  namespace: string;
  type: string;
  schema: Record<string, unknown> | null;
  force: boolean;
  bytes: Uint8Array | null;
}

/**
 * The key of a type's declaration file.
 *
 * @example
 * typeDeclarationPath('github', 'repo'); // '_docdb/types/github/repo.json'
 */
export function typeDeclarationPath(namespace: string, type: string): string {
  return `${TYPES_PREFIX}${namespace}/${type}.json`;
}

/**
 * A schema given by a caller, checked for shape: a plain JSON object (its JSON Schema rules are the
 * validator's, compile.ts). Throws `InvalidConfig` naming `field`.
 *
 * @example
 * assertSchemaShape({ type: 'object' }, 'schema'); // ok
 * assertSchemaShape('object', 'schema'); // throws InvalidConfig
 */
export function assertSchemaShape(schema: unknown, field: string): asserts schema is Record<string, unknown> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new InvalidConfig(field, `${field} must be a JSON Schema object (or null to drop it)`, {
      allowed: '{ "type": "object", "properties": { … } } | null',
    });
  }
}

/**
 * The `schemas` option of a write, checked before any I/O: each entry's identity, its schema's shape, and each
 * `(namespace, type)` once. Throws `InvalidConfig` naming `schemas[i]…`.
 *
 * @example
 * checkTypeSchemas([{ namespace: 'github', type: 'repo', schema: { type: 'object' } }]);
 */
export function checkTypeSchemas(list: unknown, schemaField?: string): DeclaredSchema[] {
  if (!Array.isArray(list)) {
    throw new InvalidConfig('schemas', 'schemas must be an array of { namespace, type, schema }', {
      allowed: '[{ namespace, type, schema: object | null, force?: boolean }]',
    });
  }
  const seen = new Set<string>();
  return list.map((t: Partial<TypeSchema> | null, i) => {
    const field = `schemas[${i}]`;
    if (t === null || typeof t !== 'object')
      throw new InvalidConfig(field, `${field} must be { namespace, type, schema }`);
    try {
      assertIdentityFields(t.namespace, t.type, 'x');
    } catch (e) {
      // A lone schema (`declareSchema`) keeps the identity error, naming `namespace` or `doc_type`.
      if (schemaField !== undefined) throw e;
      throw new InvalidConfig(field, `${field}: ${(e as Error).message}`);
    }
    const where = schemaField ?? `${field}.schema`;
    if (t.schema !== null) assertSchemaShape(t.schema, where);
    if (t.force !== undefined && typeof t.force !== 'boolean') {
      throw new InvalidConfig(`${field}.force`, `${field}.force must be true or false`);
    }
    const k = `${t.namespace}/${t.type}`;
    if (seen.has(k)) throw new InvalidConfig(field, `${field} declares ${k} again; list each (namespace, type) once`);
    seen.add(k);
    const schema = t.schema as Record<string, unknown> | null;
    return {
      namespace: t.namespace as string,
      type: t.type as string,
      schema,
      force: t.force === true,
      bytes: schema === null ? null : declarationBytes(schema, where),
    };
  });
}

/**
 * The bytes of a type's declaration: `version` first, then the schema in canonical JSON (keys sorted).
 *
 * @example
 * new TextDecoder().decode(serializeTypeDeclaration({ version: 1, schema: { type: 'object' } }));
 * // '{\n  "version": 1,\n  "schema": {\n    "type": "object"\n  }\n}\n'
 */
export function serializeTypeDeclaration(d: TypeDeclaration): Uint8Array {
  // JSON strings hold no raw newline, so indenting every line after the first is exact.
  const schema = canonicalJson(d.schema, 'schema').trimEnd().replaceAll('\n', '\n  ');
  return utf8(`{\n  "version": 1,\n  "schema": ${schema}\n}\n`);
}

/** The declaration bytes of a caller's schema; data that is not JSON is `InvalidConfig` naming where. */
function declarationBytes(schema: Record<string, unknown>, field: string): Uint8Array {
  try {
    return serializeTypeDeclaration({ version: 1, schema });
  } catch (e) {
    if (e instanceof InvalidDocument) throw new InvalidConfig(field, `${field}: ${e.message}`);
    throw e;
  }
}

/**
 * A type's declaration file read back (untrusted): `undefined` bytes → no declaration. Anything but
 * `{ "version": 1, "schema": { … } }` is `InvalidResponse` naming the key and the field.
 *
 * @example
 * parseTypeDeclaration('_docdb/types/github/repo.json', undefined); // null
 */
export function parseTypeDeclaration(key: string, bytes: Uint8Array | undefined): TypeDeclaration | null {
  if (bytes === undefined) return null;
  const bad = (field: string, why: string): never => {
    throw new InvalidResponse(`${key}: ${field} ${why}; fix or delete the file`, { key, field });
  };
  let json: unknown;
  try {
    if (!isUtf8(bytes)) throw new Error('not UTF-8');
    json = JSON.parse(fromUtf8(bytes));
  } catch (e) {
    return bad('(root)', `is not JSON (${(e as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return bad('(root)', 'must be an object');
  const o = json as Record<string, unknown>;
  if (o.version !== 1) bad('version', 'must be 1');
  const schema = o.schema;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) bad('schema', 'must be an object');
  const unknown = Object.keys(o).filter((k) => k !== 'version' && k !== 'schema');
  if (unknown.length > 0) bad(unknown[0] as string, `is not a key of a type declaration (allowed: version, schema)`);
  return { version: 1, schema: schema as Record<string, unknown> };
}
