/**
 * The spec's `schema:` declarations as the run's commit takes them (the `schemas` commit option,
 * docs/schemas.md): one per namespace/type, inline or read from a JSON file. A file is read before the first
 * request, under the reducer modules' rule: relative to the spec file's directory, and its real path
 * (symbolic links resolved) inside the workspace (spec/confine.ts) — a schema outside the checked-out
 * repository would let a spec read any file of the runner into the section.
 */
import { InvalidConfig, InvalidSpec } from '../../core/errors.js';
import { compileSchema } from '../../document/schema/compile.js';
import type { TypeSchema } from '../../document/schema/declaration.js';
import { confinedTo, type ProjectionSpec } from '../spec/index.js';

/** One type's schema, in the shape of DocumentStore's `schemas` commit option. */
export type { TypeSchema };

export interface LoadSchemasOptions {
  /** The spec file as messages name it. */
  specFile: string;
  /** Where relative paths start: the spec file's directory. */
  baseDir: string;
  /** The directory a schema file's real path must stay inside (the workspace). */
  confineTo: string;
}

/** Schema files larger than this are refused: a schema is a page of rules, not data. */
export const MAX_SCHEMA_FILE_BYTES = 1024 * 1024;

/**
 * The selected projections' schemas, one per namespace/type (parse.ts checked that two projections writing
 * one type give the same one).
 *
 * @example
 * const schemas = await loadSchemas(spec.projections, { specFile: spec.file, baseDir, confineTo: workspace });
 * await docs.commit(ops, { schemas });
 */
export async function loadSchemas(
  selected: readonly ProjectionSpec[],
  options: LoadSchemasOptions,
): Promise<TypeSchema[]> {
  const byScope = new Map<string, TypeSchema>();
  for (const p of selected) {
    if (!p.schema) continue;
    const { namespace, type } = p.identity;
    const scope = `${namespace}/${type}`;
    if (byScope.has(scope)) continue;
    const schema = 'inline' in p.schema ? p.schema.inline : await readSchemaFile(p, p.schema.file, options);
    checkCompiles(p, schema, options.specFile);
    byScope.set(scope, { namespace, type, schema });
  }
  return [...byScope.values()];
}

/**
 * A schema the validator refuses (an unknown keyword, a `$ref` outside it, a risky `pattern`, past a cap) is a
 * spec error before the first request — not a refusal after every source was read.
 */
function checkCompiles(p: ProjectionSpec, schema: Record<string, unknown>, specFile: string): void {
  const field = `projections.${p.name}.schema`;
  try {
    compileSchema(schema, { field });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    throw new InvalidSpec(`${specFile}:${p.lines.schema}: ${e.message}`, {
      file: specFile,
      line: p.lines.schema,
      field,
      projection: p.name,
      reason: 'invalid-schema',
    });
  }
}

/** The file's JSON object, or an InvalidSpec naming `projections.<name>.schema`, the line and what to do. */
async function readSchemaFile(
  p: ProjectionSpec,
  file: string,
  options: LoadSchemasOptions,
): Promise<Record<string, unknown>> {
  const { resolve, isAbsolute } = await import('node:path');
  const { readFile, realpath, stat } = await import('node:fs/promises');
  const field = `projections.${p.name}.schema`;
  const where = `${options.specFile}:${p.lines.schema}: ${field}`;
  const fail = (message: string, reason: string) =>
    new InvalidSpec(`${where}: ${message}`, {
      file: options.specFile,
      line: p.lines.schema,
      field,
      projection: p.name,
      reason,
    });
  const path = isAbsolute(file) ? file : resolve(options.baseDir, file);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw fail(
      `schema file ${file} not found (looked for ${path}; paths are relative to the spec file's directory)`,
      'not-found',
    );
  }
  const { inside, root } = await confinedTo(real, options.confineTo);
  if (!inside) {
    throw fail(
      `schema file ${file} resolves to ${real}, outside the workspace ${root}; schema files must be files inside the workspace (symbolic links are resolved first)`,
      'outside-workspace',
    );
  }
  const size = (await stat(real)).size;
  if (size > MAX_SCHEMA_FILE_BYTES) {
    throw fail(
      `schema file ${file} is ${size} bytes; a schema file holds at most ${MAX_SCHEMA_FILE_BYTES}`,
      'too-large',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(await readFile(real, 'utf8'));
  } catch (e) {
    throw fail(`schema file ${file} is not JSON: ${(e as Error).message}`, 'not-json');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fail(`schema file ${file} must hold a JSON object (a JSON Schema), not ${kind(value)}`, 'not-object');
  }
  return value as Record<string, unknown>;
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
