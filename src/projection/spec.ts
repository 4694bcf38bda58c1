/**
 * The projection spec: a YAML file (default `.github/docdb.yml`) naming projections, each with a
 * source, an identity and a reducer. Validated with zod; every error names the file, the line and
 * the field (`projections.repos.identity.id`) and says what is allowed. See docs/projection-spec.md.
 */

import { isMap, isScalar, LineCounter, type Node, parseDocument, visit } from 'yaml';
import { z } from 'zod';
import { InvalidSpec } from '../core/errors.js';

import { repositoriesSchema, SOURCE_TYPES, type SourceSpec, type SourceType, sourceSchema } from './source-spec.js';
import { type RawProjection, resolveProjection } from './spec-projection.js';

export {
  type SelectionFilters,
  SOURCE_DEFAULTS,
  SOURCE_TYPES,
  SOURCE_VARIABLES,
  type SourceSpec,
  type SourceType,
} from './source-spec.js';

/** Built-in reducers and the sources each accepts. `raw` stores the source item as it was read. */
export const BUILTIN_REDUCERS: Record<string, readonly SourceType[]> = {
  repository: ['repository'],
  issue: ['issues'],
  pull: ['pulls'],
  release: ['releases'],
  raw: SOURCE_TYPES,
};

const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Projection names that are properties of every JavaScript object. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

const segment = (what: string) =>
  z.string({ error: `must be a string (the ${what} key segment)` }).regex(SEGMENT_RE, {
    error: (i) =>
      `must be one key segment: letters, digits, ".", "_" or "-", starting with a letter or digit; got ${JSON.stringify(i.input)}`,
  });

const identitySchema = z.strictObject({
  namespace: segment('namespace').optional(),
  type: segment('type').optional(),
  id: z.string({ error: 'must be a template string such as "{owner}/{name}"' }).min(1).optional(),
});

const reducerSchema = z.union(
  [
    z.string().min(1),
    z.strictObject({
      module: z.string({ error: 'must be a path to a JavaScript module, e.g. ./reducers/issue.js' }).min(1),
      export: z.string().min(1).optional(),
    }),
    z.strictObject({ builtin: z.string().min(1) }),
  ],
  { error: 'must be a built-in reducer name, or a mapping { module: ./path.js, export?: name }' },
);

const projectionSchema = z.strictObject({
  description: z.string().optional(),
  source: sourceSchema,
  identity: identitySchema.optional(),
  reducer: reducerSchema.optional(),
  prune: z.boolean({ error: 'must be true or false' }).default(false),
});

const specSchema = z.strictObject({
  version: z.literal(1, { error: 'must be 1 (the only spec version)' }).default(1),
  defaults: z.strictObject({ repositories: repositoriesSchema }).optional(),
  projections: z.record(
    z.string().regex(NAME_RE, {
      error: (i) =>
        `projection name ${JSON.stringify(i.input)} must start with a letter or "_" and contain only letters, digits, "_" and "-"`,
    }),
    projectionSchema,
    {
      error: (i) =>
        i.code === 'invalid_type'
          ? 'must be a mapping of projection name to projection (like "jobs:" in a workflow)'
          : undefined,
    },
  ),
});

export type ReducerSpec = { builtin: string } | { module: string; export: string };

/** One projection, validated and with every default filled in. */
export interface ProjectionSpec {
  name: string;
  description?: string;
  source: SourceSpec;
  identity: { namespace: string; type: string; id: string };
  reducer: ReducerSpec;
  prune: boolean;
  /** 1-based line of the projection in the spec file (for messages). */
  line: number;
  /** Lines of `reducer` and `identity.id` (the projection's line when defaulted), for run-time messages. */
  lines: { reducer: number; id: number };
}

/** A parsed projection spec. */
export interface Spec {
  version: 1;
  /** Path the spec was read from, as given (used in messages and to resolve reducer modules). */
  file: string;
  projections: ProjectionSpec[];
}

export interface SpecIssue {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the field, e.g. `projections.repos.identity.id`. */
  field: string;
  message: string;
}

export interface ParseSpecOptions {
  /** Repository used when neither the projection nor `defaults` lists `repositories` (the action's `repository`). */
  defaultRepository?: string;
}

function fieldName(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '[') || '(root)'
  );
}

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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const fail = (issues: SpecIssue[]): never => {
    const first = issues[0]!;
    const lines = issues.map((i) => `${i.file}:${i.line}:${i.column}: ${i.field}: ${i.message}`);
    throw new InvalidSpec(
      issues.length === 1
        ? `invalid projection spec: ${lines[0]}`
        : `invalid projection spec (${issues.length} problems):\n${lines.join('\n')}`,
      { file, line: first.line, column: first.column, field: first.field, issues },
    );
  };
  if (doc.errors.length > 0) {
    fail(
      doc.errors.map((e) => ({
        file,
        ...pos(e.pos[0]),
        field: '(yaml)',
        message: e.message.split('\n')[0] ?? e.message,
      })),
    );
  }
  let raw: unknown;
  try {
    // yaml's default maxAliasCount (100) refuses alias expansion bombs ("billion laughs").
    raw = doc.toJS();
  } catch (e) {
    // Point at the first alias: that is where the expansion starts.
    let at = { line: 1, column: 1 };
    visit(doc, {
      Alias(_, node) {
        if (node.range) at = pos(node.range[0]);
        return visit.BREAK;
      },
    });
    fail([
      {
        file,
        ...at,
        field: '(yaml)',
        message: `${(e as Error).message}; the spec's aliases (*name) expand to too much data, write the values out instead`,
      },
    ]);
  }
  // Names that are also Object.prototype properties would be dropped or misread by a plain-object record.
  const projectionsNode = isMap(doc.contents) ? doc.contents.get('projections', true) : undefined;
  if (isMap(projectionsNode)) {
    const reserved: SpecIssue[] = [];
    for (const pair of projectionsNode.items) {
      const key = pair.key as Node | null;
      const name = isScalar(key) ? key.value : undefined;
      if (typeof name === 'string' && RESERVED_NAMES.has(name)) {
        reserved.push({
          file,
          ...(key?.range ? pos(key.range[0]) : { line: 1, column: 1 }),
          field: `projections.${name}`,
          message: `projection name ${JSON.stringify(name)} is reserved (it is a JavaScript object property); choose another name`,
        });
      }
    }
    if (reserved.length > 0) fail(reserved);
  }
  if (raw === null || raw === undefined) {
    fail([
      { file, line: 1, column: 1, field: 'projections', message: 'the spec is empty; add a "projections" mapping' },
    ]);
  }

  /** Position of the key `path[i]` in its parent map, when the parent is a map. */
  const keyPos = (path: readonly PropertyKey[]) => {
    if (path.length === 0) return undefined;
    const parent = (path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1) as unknown[], true)) as
      | Node
      | undefined;
    if (!parent || !isMap(parent)) return undefined;
    const pair = parent.items.find((it) => (it.key as { value?: unknown } | null)?.value === path[path.length - 1]);
    const keyNode = pair?.key as Node | undefined;
    return keyNode?.range ? pos(keyNode.range[0]) : undefined;
  };
  /**
   * Where to point for a problem at `path`: a scalar value itself (so "must be one of" points at the bad
   * value), the key of a mapping or list value, or — when the field is missing — the key of its deepest
   * existing ancestor (the projection that lacks a `source`).
   */
  const locate = (path: readonly PropertyKey[], key?: string) => {
    if (key !== undefined) {
      const k = keyPos([...path, key]);
      if (k) return k;
    }
    for (let n = path.length; n >= 0; n--) {
      const sub = path.slice(0, n);
      const node = (sub.length === 0 ? doc.contents : doc.getIn(sub as unknown[], true)) as Node | undefined;
      if (!node) continue;
      if (n === path.length && isScalar(node) && node.range) return pos(node.range[0]);
      const k = keyPos(sub);
      if (k) return k;
      if (node.range) return pos(node.range[0]);
    }
    return { line: 1, column: 1 };
  };

  const parsed = specSchema.safeParse(raw);
  if (!parsed.success) {
    const issues: SpecIssue[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          issues.push({
            file,
            ...locate(issue.path, key),
            field: fieldName([...issue.path, key]),
            message: `unknown field "${key}"${allowedHint(issue.path)}`,
          });
        }
        continue;
      }
      let message = issue.message;
      if (issue.code === 'invalid_key' && issue.issues[0]) message = issue.issues[0].message;
      const last = issue.path[issue.path.length - 1];
      if (issue.code === 'invalid_type' && /received undefined/.test(message)) {
        message = `is required${last === 'source' ? `: one of ${SOURCE_TYPES.join(', ')}` : ''}`;
      }
      if (issue.code === 'invalid_union' && last === 'type' && issue.path.includes('source')) {
        message = `must be one of ${SOURCE_TYPES.join(', ')}`;
      }
      issues.push({ file, ...locate(issue.path), field: fieldName(issue.path), message });
    }
    // Unknown fields first (a typo'd key is usually why a required one is "missing"), then by position.
    const rank = (i: SpecIssue) => (i.message.startsWith('unknown field') ? 0 : 1);
    issues.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
    fail(issues);
  }
  const data = parsed.data!;

  // Cross-field rules zod cannot express per field: templates, reducer/source pairs, defaults, prune scopes.
  const issues: SpecIssue[] = [];
  const at = (path: PropertyKey[], message: string) =>
    issues.push({ file, ...locate(path), field: fieldName(path), message });
  const projections: ProjectionSpec[] = [];
  const names = Object.keys(data.projections);
  if (names.length === 0) at(['projections'], 'must define at least one projection');
  for (const name of names) {
    const resolved = resolveProjection(name, data.projections[name] as RawProjection, {
      builtinReducers: BUILTIN_REDUCERS,
      defaultsRepositories: data.defaults?.repositories,
      defaultRepository: options.defaultRepository,
      at,
      line: (path) => locate(path).line,
    });
    if (resolved) projections.push(resolved);
  }
  // Prune deletes every document under <namespace>/<type>/ that the projection did not produce, so two
  // projections sharing that scope would delete each other's documents.
  const scopes = new Map<string, string>();
  for (const p of projections) {
    const scope = `${p.identity.namespace}/${p.identity.type}`;
    const other = scopes.get(scope);
    if (other !== undefined) {
      const pruning = [p, projections.find((q) => q.name === other)!].find((q) => q.prune);
      if (pruning) {
        at(
          ['projections', p.name, 'identity'],
          `projections "${other}" and "${p.name}" both write ${scope}/…; "${pruning.name}" has prune: true and would delete the other's documents. Give one of them its own identity.type`,
        );
      }
    } else scopes.set(scope, p.name);
  }
  if (issues.length > 0) fail(issues);
  return { version: 1, file, projections };
}

function allowedHint(path: readonly PropertyKey[]): string {
  const last = path[path.length - 1];
  const allowed = (() => {
    if (path.length === 0) return ['version', 'defaults', 'projections'];
    if (path.length === 2 && path[0] === 'projections')
      return ['description', 'source', 'identity', 'reducer', 'prune'];
    if (last === 'identity') return ['namespace', 'type', 'id'];
    if (last === 'reducer') return ['module', 'export'];
    if (last === 'defaults') return ['repositories'];
    return undefined;
  })();
  return allowed ? `; allowed here: ${allowed.join(', ')}` : '';
}

/**
 * Read and parse a spec file from disk (Node only).
 *
 * @example
 * const spec = await loadSpec('.github/docdb.yml', { defaultRepository: 'octo/hello' });
 */
export async function loadSpec(
  path: string,
  options: ParseSpecOptions & {
    /** How messages name the file (default `path`), e.g. the workspace-relative path the user wrote. */
    displayPath?: string;
    /** When given, the spec's real path (symbolic links resolved) must be inside this directory. */
    workspace?: string;
  } = {},
): Promise<Spec> {
  const shown = options.displayPath ?? path;
  const { readFile, realpath } = await import('node:fs/promises');
  const { sep, resolve } = await import('node:path');
  let text: string;
  try {
    const real = await realpath(path);
    if (options.workspace !== undefined) {
      // The spec decides what code runs and where data goes: it must come from the checked-out repository.
      const root = await realpath(options.workspace).catch(() => resolve(options.workspace as string));
      if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
        throw new InvalidSpec(
          `projection spec ${shown} resolves to ${real}, outside the workspace ${root}; the "spec" input must name a file inside the workspace (symbolic links are resolved first)`,
          { file: shown, line: 0, field: 'spec', reason: 'outside-workspace' },
        );
      }
    }
    text = await readFile(real, 'utf8');
  } catch (e) {
    if (e instanceof InvalidSpec) throw e;
    const code = (e as { code?: string }).code;
    throw new InvalidSpec(
      code === 'ENOENT'
        ? `projection spec ${shown} not found: create it (see docs/projection-spec.md) or set the "spec" input to its path`
        : `cannot read projection spec ${shown}: ${(e as Error).message}`,
      { file: shown, line: 0, field: 'spec' },
    );
  }
  const spec = parseSpec(text, shown, options);
  return spec;
}
