/**
 * The index declaration of a section, `_docdb/indexes.json` (issue 28, item 1): per `(namespace, type)`,
 * the fields to index — `id` or a dotted path into `data`. It lives in the section, so every writer
 * sees it; read back, it is untrusted like any file of the section.
 */
import { z } from 'zod';
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidConfig, InvalidResponse } from '../../core/errors.js';
import { assertIdentityFields } from '../identity.js';
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

const fieldSchema = z
  .string()
  .max(MAX_FIELD_CHARS, { error: `at most ${MAX_FIELD_CHARS} characters` })
  .refine((f) => f === 'id' || f.startsWith('data.'), {
    error: 'must be "id" or a dotted path into data, such as "data.language"',
  })
  .refine(
    (f) =>
      f === 'id' ||
      f
        .slice(5)
        .split('.')
        .every((s) => s !== ''),
    {
      error: 'has an empty segment ("data.", "data..x" or a trailing "."); each segment names a key of data',
    },
  )
  .refine((f) => f.isWellFormed() && !/[\u0000-\u001f\u007f]/.test(f), {
    error: 'must be valid UTF-8 without control characters',
  })
  .refine((f) => fieldDir(f).length <= MAX_FIELD_DIR_BYTES, {
    error: `is too long once encoded as a directory name (at most ${MAX_FIELD_DIR_BYTES} bytes; non-ASCII characters take 6 to 12)`,
  });

const typeIndexSchema = z.strictObject({
  namespace: z.string(),
  type: z.string(),
  fields: z
    .array(fieldSchema)
    .min(1, { error: 'must list at least one field' })
    .max(MAX_INDEXED_FIELDS, { error: `may list at most ${MAX_INDEXED_FIELDS} fields` })
    .refine((fs) => new Set(fs).size === fs.length, { error: 'lists a field twice' }),
});

const declarationSchema = z.strictObject({
  version: z.literal(1, { error: 'must be 1' }),
  indexes: z.array(typeIndexSchema).max(MAX_DECLARED_TYPES, { error: `at most ${MAX_DECLARED_TYPES} entries` }),
});

function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** The first problem of a declaration, as `{ field, message }`, or the validated declaration. */
function check(value: unknown): { ok: true; value: IndexDeclaration } | { ok: false; field: string; message: string } {
  const parsed = declarationSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = pathOf(issue.path) || '(root)';
    const keys = issue.code === 'unrecognized_keys' ? `: unknown key(s) ${issue.keys.join(', ')}` : '';
    const message = `index declaration ${field} ${issue.code === 'unrecognized_keys' ? 'has' : 'is invalid:'}${keys || ` ${issue.message}`}`;
    return { ok: false, field, message };
  }
  const seen = new Set<string>();
  for (const [i, t] of parsed.data.indexes.entries()) {
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
  return { ok: true, value: parsed.data };
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
  let json: unknown;
  try {
    if (!isUtf8(bytes)) throw new Error('not UTF-8');
    json = JSON.parse(fromUtf8(bytes));
  } catch (e) {
    throw new InvalidResponse(`${DECLARATION_KEY} is not JSON (${(e as Error).message}); fix or delete it`, {
      key: DECLARATION_KEY,
    });
  }
  const r = check(json);
  if (!r.ok) throw new InvalidResponse(`${DECLARATION_KEY}: ${r.message}`, { key: DECLARATION_KEY, field: r.field });
  return r.value;
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
