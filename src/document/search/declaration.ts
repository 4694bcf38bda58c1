/**
 * The search declaration of a section, `_docdb/search.json` (issue 42): per `(namespace, type)`, the
 * fields whose text is searchable — `id` or a dotted path into `data`, under the same rules as index
 * fields (indexes/declaration.ts). Read back, it is untrusted like any file of the section.
 */
import { InvalidConfig } from '../../core/errors.js';
import { assertIdentityFields } from '../identity.js';
import { array, at, type Checked, checkedJson, fail, onlyKeys, record, shapeChecked } from '../indexes/check.js';
import { declaredField, MAX_DECLARED_TYPES, typeFieldsOf } from '../indexes/declaration.js';

/** Where the declaration is stored in the section. */
export const SEARCH_DECLARATION_KEY = '_docdb/search.json';

/** Most searchable fields of one type (each is a column of every posting). */
export const MAX_SEARCH_FIELDS = 8;

export interface TypeSearch {
  namespace: string;
  type: string;
  /** `id` or `data.<dotted path>`, in the order postings store their term frequencies. */
  fields: string[];
}

export interface SearchDeclaration {
  version: 1;
  search: TypeSearch[];
}

const ALLOWED = `{ "version": 1, "search": [{ "namespace", "type", "fields": 1..${MAX_SEARCH_FIELDS} distinct of "id" | "data.<dotted path>" }] }`;

const searchField = (value: unknown, field: string) => declaredField(value, field, 'data.title');
const typeSearchOf = (value: unknown, field: string): TypeSearch =>
  typeFieldsOf(value, field, MAX_SEARCH_FIELDS, searchField);

function shapeOf(value: unknown): SearchDeclaration {
  const o = record(value, '');
  if (o.version !== 1) fail('version', 'must be 1');
  const list = array(o.search, 'search', MAX_DECLARED_TYPES, `at most ${MAX_DECLARED_TYPES} entries`);
  const search = list.map((t, i) => typeSearchOf(t, at('search', i)));
  onlyKeys(o, '', ['version', 'search']);
  return { version: 1, search };
}

/** The shape, then each entry's identity rules, then "a type appears once". */
function check(value: unknown): Checked<SearchDeclaration> {
  const parsed = shapeChecked(value, shapeOf, 'search declaration');
  if (!parsed.ok) return parsed;
  const seen = new Set<string>();
  for (const [i, t] of parsed.value.search.entries()) {
    const field = `search[${i}]`;
    try {
      assertIdentityFields(t.namespace, t.type, 'x');
    } catch (e) {
      return { ok: false, field, message: `search declaration ${field}: ${(e as Error).message}` };
    }
    const k = `${t.namespace}/${t.type}`;
    if (seen.has(k)) {
      return { ok: false, field, message: `search declaration ${field} declares ${k} again; list each type once` };
    }
    seen.add(k);
  }
  return parsed;
}

/**
 * Validate a declaration given by the caller (library, CLI, projection spec). Throws `InvalidConfig`
 * naming the field (`search[0].fields[1]`, prefixed by `field` when given) and what is allowed.
 *
 * @example
 * validateSearchDeclaration({ version: 1, search: [{ namespace: 'github', type: 'repo', fields: ['data.title'] }] });
 * validateSearchDeclaration({ version: 1, search: [{ namespace: 'github', type: 'repo', fields: ['title'] }] });
 * // throws InvalidConfig: search declaration search[0].fields[0] is invalid: must be "id" or a dotted path…
 */
export function validateSearchDeclaration(value: unknown, field?: string): SearchDeclaration {
  const r = check(value);
  if (r.ok) return r.value;
  const where = field ? `${field}.${r.field}` : r.field;
  throw new InvalidConfig(where, field ? `${field}: ${r.message}` : r.message, { allowed: ALLOWED });
}

/**
 * Parse the declaration read back from the section (untrusted). Absent: nothing declared. Not JSON or
 * not a valid declaration: `InvalidResponse` naming the key and the field.
 *
 * @example
 * parseSearchDeclaration(undefined); // { version: 1, search: [] }
 */
export function parseSearchDeclaration(bytes: Uint8Array | undefined): SearchDeclaration {
  if (bytes === undefined) return { version: 1, search: [] };
  return checkedJson(bytes, SEARCH_DECLARATION_KEY, check);
}

/**
 * The declaration's bytes as stored: one canonical spelling (types sorted), so declaring what is
 * declared writes nothing.
 *
 * @example
 * serializeSearchDeclaration({ version: 1, search: [] }); // '{\n  "version": 1,\n  "search": []\n}\n' as bytes
 */
export function serializeSearchDeclaration(d: SearchDeclaration): Uint8Array {
  const search = [...d.search]
    .sort((a, b) => compareTypes(a, b))
    .map((t) => ({ namespace: t.namespace, type: t.type, fields: t.fields }));
  return new TextEncoder().encode(`${JSON.stringify({ version: 1, search }, null, 2)}\n`);
}

function compareTypes(a: TypeSearch, b: TypeSearch): number {
  const x = `${a.namespace}/${a.type}`;
  const y = `${b.namespace}/${b.type}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * What a change of declaration means for the stored indexes: `build` = types newly declared or whose
 * fields changed (a build replaces every file of the type: the caller deletes the old files the build
 * does not rewrite, `searchFilesOf`), `drop` = types no longer declared (delete all their files).
 *
 * @example
 * const { build, drop } = searchDeclarationChanges(before, after);
 */
export function searchDeclarationChanges(
  before: SearchDeclaration,
  after: SearchDeclaration,
): { build: TypeSearch[]; drop: TypeSearch[] } {
  const key = (t: TypeSearch) => `${t.namespace}/${t.type}`;
  const old = new Map(before.search.map((t) => [key(t), t]));
  const now = new Map(after.search.map((t) => [key(t), t]));
  const build = after.search.filter((t) => {
    const was = old.get(key(t));
    return !was || was.fields.join('\n') !== t.fields.join('\n');
  });
  const drop = before.search.filter((t) => !now.has(key(t)));
  return { build, drop };
}
