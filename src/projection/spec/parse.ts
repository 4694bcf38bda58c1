/**
 * The projection spec: a YAML file (default `.github/docdb.yml`) naming projections, each with a
 * source, an identity and a reducer. Validated with zod; every error names the file, the line and
 * the field (`projections.repos.identity.id`) and says what is allowed. See docs/projection-spec.md.
 *
 * Parsing runs in three passes, each reporting all of its problems at once: the YAML itself, the schema
 * field by field (projection-schema.ts), then the rules that join fields (resolve-projection.ts, and the
 * prune scopes shared between projections here).
 */
import type { z } from 'zod';
import { ACTION_INPUT_NAMES } from '../../core/input-names.js';
import { canonicalJson } from '../../document/canonical-json.js';
import { BUILTIN_REDUCERS } from './defaults.js';
import { fieldName, schemaIssues, specError } from './issues.js';
import { RESERVED_NAMES, specSchema } from './projection-schema.js';
import { type RawProjection, resolveProjection } from './resolve-projection.js';
import type { ParseSpecOptions, ProjectionSpec, SchemaSpec, Spec, SpecIssue } from './types.js';
import { SpecYaml } from './yaml-document.js';

type ValidSpec = z.infer<typeof specSchema>;

/**
 * Parse and validate a projection spec. Throws `InvalidSpec` whose message lists every problem as
 * `file:line:column: field: what is wrong` and whose `data` has `file`, `line`, `field` (first
 * problem) and `issues` (all).
 *
 * @example
 * const spec = parseSpec('projections:\n  repos:\n    source: { type: repository, repositories: [octo/hello] }\n', 'docdb.yml');
 * spec.projections[0].identity; // { namespace: 'github', type: 'repo', id: '{owner}/{name}' }
 */
export function parseSpec(text: string, file = '.github/docdb.yml', options: ParseSpecOptions = {}): Spec {
  const yaml = new SpecYaml(text);
  const raw = readYaml(yaml, file);
  const parsed = specSchema.safeParse(raw);
  if (!parsed.success) throw specError(file, schemaIssues(parsed.error.issues, yaml, file));
  const projections = resolveProjections(parsed.data, yaml, file, options);
  const r = parsed.data.retention;
  const retention = r && {
    ...(r['keep-commits'] !== undefined ? { keepCommits: r['keep-commits'] } : {}),
    ...(r['keep-days'] !== undefined ? { keepDays: r['keep-days'] } : {}),
    ...(r.thin !== undefined ? { thin: r.thin } : {}),
  };
  return {
    version: 1,
    file,
    projections,
    ...(retention ? { retention } : {}),
    ...(parsed.data.quarantine !== undefined ? { quarantine: parsed.data.quarantine } : {}),
  };
}

/** The document's value; throws for YAML errors, alias bombs, reserved projection names and an empty spec. */
function readYaml(yaml: SpecYaml, file: string): unknown {
  if (yaml.doc.errors.length > 0) {
    throw specError(
      file,
      yaml.doc.errors.map((e) => ({
        file,
        ...yaml.pos(e.pos[0]),
        field: '(yaml)',
        message: e.message.split('\n')[0] ?? e.message,
      })),
    );
  }
  let raw: unknown;
  try {
    // yaml's default maxAliasCount (100) refuses alias expansion bombs ("billion laughs").
    raw = yaml.doc.toJS();
  } catch (e) {
    // Point at the first alias: that is where the expansion starts.
    const message = `${(e as Error).message}; the spec's aliases (*name) expand to too much data, write the values out instead`;
    throw specError(file, [{ file, ...yaml.firstAlias(), field: '(yaml)', message }]);
  }
  const reserved = reservedNames(yaml, file);
  if (reserved.length > 0) throw specError(file, reserved);
  if (raw === null || raw === undefined) {
    throw specError(file, [
      { file, line: 1, column: 1, field: 'projections', message: 'the spec is empty; add a "projections" mapping' },
    ]);
  }
  return raw;
}

/** Names that are also Object.prototype properties would be dropped or misread by a plain-object record. */
function reservedNames(yaml: SpecYaml, file: string): SpecIssue[] {
  const reserved: SpecIssue[] = [];
  for (const { name, at } of yaml.projectionKeys()) {
    if (typeof name !== 'string' || !RESERVED_NAMES.has(name)) continue;
    reserved.push({
      file,
      ...(at ?? { line: 1, column: 1 }),
      field: `projections.${name}`,
      message: `projection name ${JSON.stringify(name)} is reserved (it is a JavaScript object property); choose another name`,
    });
  }
  return reserved;
}

/** Cross-field rules zod cannot express per field: templates, reducer/source pairs, defaults, prune scopes. */
function resolveProjections(data: ValidSpec, yaml: SpecYaml, file: string, options: ParseSpecOptions) {
  const issues: SpecIssue[] = [];
  const at = (path: PropertyKey[], message: string) =>
    issues.push({ file, ...yaml.locate(path), field: fieldName(path), message });
  const projections: ProjectionSpec[] = [];
  const names = Object.keys(data.projections);
  if (names.length === 0) at(['projections'], 'must define at least one projection');
  for (const name of names) {
    const resolved = resolveProjection(name, data.projections[name] as RawProjection, {
      builtinReducers: BUILTIN_REDUCERS,
      defaultsRepositories: data.defaults?.repositories,
      defaultRepository: options.defaultRepository,
      inputNames: options.inputNames ?? ACTION_INPUT_NAMES,
      at,
      line: (path) => yaml.locate(path).line,
    });
    if (resolved) projections.push(resolved);
  }
  checkPruneScopes(projections, at);
  checkIndexScopes(projections, at);
  checkSearchScopes(projections, at);
  checkSchemaScopes(projections, at);
  checkExpectScopes(projections, at);
  if (issues.length > 0) throw specError(file, issues);
  return projections;
}

/** One namespace/type has one index: two projections writing it may both say `index:` only alike. */
function checkIndexScopes(projections: ProjectionSpec[], at: (path: PropertyKey[], message: string) => void): void {
  const declared = new Map<string, ProjectionSpec>();
  for (const p of projections) {
    if (!p.index) continue;
    const scope = `${p.identity.namespace}/${p.identity.type}`;
    const other = declared.get(scope);
    if (!other) declared.set(scope, p);
    else if (other.index?.join('\n') !== p.index.join('\n')) {
      at(
        ['projections', p.name, 'index'],
        `projections "${other.name}" and "${p.name}" both write ${scope}/… with different index fields; one type has one index: list the same fields in both, or in one of them only`,
      );
    }
  }
}

/** One namespace/type has one search: two projections writing it may both say `search:` only alike, like `index:`. */
function checkSearchScopes(projections: ProjectionSpec[], at: (path: PropertyKey[], message: string) => void): void {
  const declared = new Map<string, ProjectionSpec>();
  for (const p of projections) {
    if (!p.search) continue;
    const scope = `${p.identity.namespace}/${p.identity.type}`;
    const other = declared.get(scope);
    if (!other) declared.set(scope, p);
    else if (other.search?.join('\n') !== p.search.join('\n')) {
      at(
        ['projections', p.name, 'search'],
        `projections "${other.name}" and "${p.name}" both write ${scope}/… with different search fields; one type has one search: list the same fields in both, or in one of them only`,
      );
    }
  }
}

/** One namespace/type is held to one set of expectations: two projections writing it must agree on `expect:`. */
function checkExpectScopes(projections: ProjectionSpec[], at: (path: PropertyKey[], message: string) => void): void {
  const declared = new Map<string, ProjectionSpec>();
  for (const p of projections) {
    if (!p.expect) continue;
    const scope = `${p.identity.namespace}/${p.identity.type}`;
    const other = declared.get(scope);
    if (!other) declared.set(scope, p);
    else if (JSON.stringify(other.expect) !== JSON.stringify(p.expect)) {
      at(
        ['projections', p.name, 'expect'],
        `projections "${other.name}" and "${p.name}" both write ${scope}/… with different expect:; one type has one set of expectations: write the same in both, or in one of them only`,
      );
    }
  }
}

/**
 * One namespace/type has one schema: two projections writing it may both say `schema:` only alike (the same
 * mapping, or the same file), like `index:`.
 */
function checkSchemaScopes(projections: ProjectionSpec[], at: (path: PropertyKey[], message: string) => void): void {
  const declared = new Map<string, ProjectionSpec>();
  const same = (a: SchemaSpec, b: SchemaSpec) =>
    'file' in a
      ? 'file' in b && a.file.replace(/^\.\//, '') === b.file.replace(/^\.\//, '')
      : 'inline' in b && canonicalJson(a.inline) === canonicalJson(b.inline);
  for (const p of projections) {
    if (!p.schema) continue;
    const scope = `${p.identity.namespace}/${p.identity.type}`;
    const other = declared.get(scope);
    if (!other) declared.set(scope, p);
    else if (!same(other.schema as SchemaSpec, p.schema)) {
      at(
        ['projections', p.name, 'schema'],
        `projections "${other.name}" and "${p.name}" both write ${scope}/… with different schemas; one type has one schema: give the same schema in both, or in one of them only`,
      );
    }
  }
}

/**
 * Prune deletes every document under <namespace>/<type>/ that the projection did not produce, so two
 * projections sharing that scope would delete each other's documents.
 */
function checkPruneScopes(projections: ProjectionSpec[], at: (path: PropertyKey[], message: string) => void): void {
  const scopes = new Map<string, string>();
  for (const p of projections) {
    const scope = `${p.identity.namespace}/${p.identity.type}`;
    const other = scopes.get(scope);
    if (other === undefined) {
      scopes.set(scope, p.name);
      continue;
    }
    const pruning = [p, projections.find((q) => q.name === other)!].find((q) => q.prune);
    if (pruning) {
      at(
        ['projections', p.name, 'identity'],
        `projections "${other}" and "${p.name}" both write ${scope}/…; "${pruning.name}" has prune: true and would delete the other's documents. Give one of them its own identity.type`,
      );
    }
  }
}
