/**
 * The validator for per-type schemas (issue 38): JSON Schema 2020-12 through @cfworker/json-schema, an
 * interpreter (no `new Function`, so it runs under the viewer's Content-Security-Policy without
 * `unsafe-eval`, and an untrusted schema is never turned into code). Schemas are checked first
 * (check-schema.ts: vocabulary, caps, `$ref` inside the schema only, safe patterns), then compiled once
 * per blob SHA. A plain schema also gets a closure-compiled yes/no check (fast-path.ts) so valid documents
 * skip the interpreter; the library alone reports problems. See docs/schemas-validator.md.
 */
import { Validator } from '@cfworker/json-schema';
import { checkSchema, type RefResolver } from './check-schema.js';
import { fastPath } from './fast-path.js';
import { type SchemaProblem, toProblems } from './problems.js';

export type { SchemaProblem } from './problems.js';

export interface CompiledSchema {
  /** Every problem of `data` against the schema (the caller cuts to 50); `[]` when valid. */
  validate(data: unknown): SchemaProblem[];
}

export interface CompileOptions {
  /** The field named by InvalidConfig when the schema is refused (default 'schema'). */
  field?: string;
}

/** Schemas compiled by this process so far (a test seam: the cache is asserted by counting compiles). */
let compiles = 0;
export const schemaCompiles = (): number => compiles;

/** The schema value at a keyword location, following `$ref` segments the way the library took them. */
function schemaLookup(root: unknown, resolve: RefResolver) {
  const at = (pointer: string): unknown =>
    pointer
      .split('/')
      .slice(1)
      .reduce<unknown>(
        (v, s) => (v as Record<string, unknown> | undefined)?.[s.replace(/~1/g, '/').replace(/~0/g, '~')],
        root,
      );
  return (segs: readonly string[]): unknown => {
    let v: unknown = root;
    for (const s of segs) {
      if (s === '$ref' && v !== null && typeof v === 'object') {
        const target = resolve(String((v as Record<string, unknown>).$ref));
        v = target === undefined ? undefined : at(target);
      } else {
        v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[s] : undefined;
      }
    }
    return v;
  };
}

/**
 * Checks and compiles a per-type schema. Throws `InvalidConfig(field, …)` naming the JSON pointer inside
 * the schema and what is allowed (unknown keyword, `$ref` outside the schema, risky `pattern`, caps).
 * @example
 * const compiled = compileSchema({ type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 0 } } });
 * compiled.validate({ stars: -1 }); // [{ pointer: '/stars', rule: 'minimum', expected: '>= 0', found: 'integer' }]
 * compiled.validate({});            // [{ pointer: '/stars', rule: 'required', expected: 'present', found: 'absent' }]
 */
export function compileSchema(schema: unknown, options: CompileOptions = {}): CompiledSchema {
  const resolve = checkSchema(schema, options.field ?? 'schema');
  // A private copy: the library annotates the schema objects it is given, and the caller's may change later.
  const own = structuredClone(schema) as object | boolean;
  const validator = new Validator(own, '2020-12', false);
  const schemaAt = schemaLookup(own, resolve);
  // Plain schemas get a closure-compiled yes/no check first: valid documents (the common case) skip the
  // library's general interpreter; an invalid one is validated again by the library for its problems.
  const valid = fastPath(own, resolve);
  compiles++;
  return {
    validate(data) {
      if (valid?.(data)) return [];
      let units: ReturnType<Validator['validate']>;
      try {
        units = validator.validate(data);
      } catch {
        // Only non-JSON data (undefined, a function) makes the library throw; say so without the value.
        return [{ pointer: '', rule: 'type', expected: 'JSON data', found: 'not JSON' }];
      }
      return units.valid ? [] : toProblems(units.errors, { data, schemaAt });
    },
  };
}

/** Most schemas kept compiled: one per type a process writes is the common case, so 64 is plenty. */
export const COMPILED_CACHE_SIZE = 64;
const cache = new Map<string, CompiledSchema>();

/**
 * `compileSchema` once per blob SHA of the declaration (a bounded, least-recently-used cache), so a
 * section's schema is compiled once per process however many writes use it.
 * @example
 * const compiled = compiledSchemaFor(blobSha, declaration.schema);
 * const problems = compiled.validate(doc.data);
 */
export function compiledSchemaFor(blobSha: string, schema: unknown, options: CompileOptions = {}): CompiledSchema {
  const hit = cache.get(blobSha);
  if (hit) {
    cache.delete(blobSha); // re-inserted last: most recently used
    cache.set(blobSha, hit);
    return hit;
  }
  const compiled = compileSchema(schema, options);
  cache.set(blobSha, compiled);
  if (cache.size > COMPILED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return compiled;
}
